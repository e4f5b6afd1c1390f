#include "core/calendar/ics_calendar.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

#include "core/calendar/civil_time.h"
#include "core/calendar/ics_parser.h"
#include "core/calendar/ics_values.h"
#include "core/calendar/ics_zones.h"
#include "core/calendar/join_url.h"
#include "core/calendar/recurrence_rule.h"
#include "core/text/redact.h"

namespace ensemble::core::calendar {
namespace {

// Local-time slack when mapping the UTC window to an event's wall clock:
// covers any zone's offset change around the window's edges.
constexpr int64_t kLocalSlack = 3 * 3600;
// Values in one RDATE or EXDATE property that are read.
constexpr size_t kMaxListValues = 5000;

std::string Hex64(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

uint64_t Fnv1a(std::string_view s, uint64_t h = 1469598103934665603ULL) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

std::string StripMailto(std::string_view v) {
  if (v.size() >= 7) {
    std::string head(v.substr(0, 7));
    for (char& c : head) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (head == "mailto:") v.remove_prefix(7);
  }
  return std::string(v);
}

// A time property resolved to UTC plus its wall clock in its own zone.
struct Instant {
  int64_t utc = 0;
  int64_t local = 0;  // In `zone` (for dates: midnight).
  bool is_date = false;
  const TimeZone* zone = nullptr;  // nullptr for dates.
};

// Reads one VCALENDAR's events into `out`: each series (a VEVENT without
// RECURRENCE-ID) expanded over the window, each override in place of the
// occurrence it replaces. One use, one thread.
class CalendarReader {
 public:
  CalendarReader(const IcsComponent& vcalendar, std::string_view calendar,
                 const ExpandOptions& options, int64_t* budget, ExpandedCalendar* out)
      : vcalendar_(vcalendar),
        calendar_(calendar),
        options_(options),
        budget_(budget),
        out_(out),
        zones_(vcalendar, options.window.from, options.window.to, options.floating_zone, budget) {}

  void Run() {
    // Overrides by UID, keyed by the occurrence they replace.
    for (const IcsComponent& c : vcalendar_.children) {
      if (c.name != "VEVENT") continue;
      const IcsProperty* rid = c.Find("RECURRENCE-ID");
      const IcsProperty* uid = c.Find("UID");
      if (!rid || !uid) continue;
      auto when = Resolve(*rid, nullptr);
      if (!when) {
        Warn("an override has an invalid RECURRENCE-ID");
        continue;
      }
      // A floating RECURRENCE-ID names the master's wall-clock time.
      const bool floating =
          !when->is_date && !rid->Param("TZID") &&
          !(rid->value.size() == 16 && (rid->value.back() == 'Z' || rid->value.back() == 'z'));
      overrides_[uid->value].push_back(
          {when->is_date ? when->local : when->utc, when->local, floating, &c});
    }
    for (const IcsComponent& c : vcalendar_.children) {
      if (c.name != "VEVENT") continue;
      if (c.Find("RECURRENCE-ID") && c.Find("UID")) {
        ReadOverride(c);
      } else {
        ReadSeries(c);
      }
      if (out_->events.size() > 2 * options_.max_events) Trim();
    }
  }

  void Trim() {
    std::sort(out_->events.begin(), out_->events.end(), EventLess);
    if (out_->events.size() > options_.max_events) {
      out_->events.resize(options_.max_events);
      out_->truncated = true;
    }
  }

  static bool EventLess(const CalendarEvent& a, const CalendarEvent& b) {
    if (a.start != b.start) return a.start < b.start;
    if (a.end != b.end) return a.end < b.end;
    if (a.uid != b.uid) return a.uid < b.uid;
    return a.id < b.id;
  }

 private:
  struct Override {
    int64_t key;    // UTC instant, or the date's midnight for all-day.
    int64_t local;  // The RECURRENCE-ID's wall-clock time.
    bool floating;  // Compare `local` with the master's wall clock instead.
    const IcsComponent* component;
  };

  void Warn(std::string message) {
    if (out_->warnings.size() < 20) out_->warnings.push_back(std::move(message));
  }

  const TimeZone* ZoneFor(const IcsProperty& prop, const TimeZone* fallback) {
    const std::string* tzid = prop.Param("TZID");
    if (!tzid) return fallback ? fallback : &zones_.floating();
    if (const TimeZone* z = zones_.Find(*tzid)) return z;
    if (warned_zones_.insert(*tzid).second) {
      Warn("unknown time zone \"" + *tzid + "\": read as floating time");
    }
    return fallback ? fallback : &zones_.floating();
  }

  // Resolves one DATE or DATE-TIME text in `prop`'s zone (its TZID, else
  // `floating_zone` or the calendar's floating zone).
  std::optional<Instant> ResolveText(std::string_view text, const IcsProperty& prop,
                                     const TimeZone* floating_zone) {
    auto dt = ParseIcsDateTime(text);
    if (!dt) return std::nullopt;
    Instant out;
    out.is_date = dt->is_date;
    if (dt->is_date) {
      out.local = out.utc = dt->local;
      return out;
    }
    if (dt->is_utc) {
      out.utc = dt->local;
      out.zone = floating_zone ? floating_zone : &zones_.floating();
      if (prop.Param("TZID") == nullptr && floating_zone == nullptr) {
        static const FixedZone kUtc(0);
        out.zone = &kUtc;
      }
      out.local = out.utc + out.zone->OffsetAt(out.utc);
      return out;
    }
    out.zone = ZoneFor(prop, floating_zone);
    out.local = dt->local;
    out.utc = out.zone->LocalToUtc(dt->local);
    return out;
  }

  std::optional<Instant> Resolve(const IcsProperty& prop, const TimeZone* floating_zone) {
    return ResolveText(prop.value, prop, floating_zone);
  }

  // Copies the fields every occurrence of `c` shares.
  CalendarEvent Common(const IcsComponent& c) {
    CalendarEvent e;
    e.source = SourceKind::kIcs;
    e.calendar = std::string(calendar_);
    std::string conference;
    for (const IcsProperty& p : c.properties) {
      const std::string& n = p.name;
      if (n == "UID") {
        e.uid = p.value;
      } else if (n == "SUMMARY") {
        e.title = UnescapeText(p.value);
      } else if (n == "DESCRIPTION") {
        e.description = UnescapeText(p.value);
      } else if (n == "LOCATION") {
        e.location = UnescapeText(p.value);
      } else if (n == "STATUS") {
        e.status = p.value;
        for (char& ch : e.status)
          ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
      } else if (n == "ORGANIZER") {
        e.organizer = StripMailto(p.value);
      } else if (n == "ATTENDEE") {
        if (e.attendees.size() < 500) {
          const std::string* cn = p.Param("CN");
          e.attendees.push_back({StripMailto(p.value), cn ? *cn : std::string()});
        }
      } else if (n == "CREATED") {
        if (auto dt = ParseIcsDateTime(p.value)) e.created = dt->local;
      } else if (conference.empty() && (n == "X-GOOGLE-CONFERENCE" || n == "CONFERENCE" ||
                                        n == "URL" || n == "X-MICROSOFT-SKYPETEAMSMEETINGURL" ||
                                        n == "X-MICROSOFT-ONLINEMEETINGEXTERNALLINK")) {
        conference = FindJoinUrl(p.value);
      }
    }
    e.join_url = !conference.empty() ? conference : FindJoinUrl(e.location);
    if (e.join_url.empty()) e.join_url = FindJoinUrl(e.description);
    // Outside text comes in redacted and capped (spec 004 §4.1); the join
    // link, found first, is how the meeting is joined and stays whole.
    text::RedactSecretsIn(&e.title);
    e.description = text::RedactForIngest(e.description);
    text::RedactSecretsIn(&e.location);
    return e;
  }

  // Start and end of `c` as written, or nullopt (with a warning).
  struct Span {
    Instant start;
    // The end: explicit for DTEND; DURATION as nominal days + exact seconds.
    std::optional<Instant> end;
    IcsDuration duration;
  };

  std::optional<Span> ReadSpan(const IcsComponent& c) {
    const IcsProperty* dtstart = c.Find("DTSTART");
    if (!dtstart) {
      Warn("an event has no DTSTART: skipped");
      return std::nullopt;
    }
    auto start = Resolve(*dtstart, nullptr);
    if (!start) {
      Warn("an event has an invalid DTSTART: skipped");
      return std::nullopt;
    }
    Span span{*start, std::nullopt, {}};
    if (const IcsProperty* dtend = c.Find("DTEND")) {
      auto end = Resolve(*dtend, start->is_date ? nullptr : start->zone);
      if (end && end->is_date == start->is_date && end->utc > start->utc) span.end = end;
    } else if (const IcsProperty* dur = c.Find("DURATION")) {
      if (auto d = ParseIcsDuration(dur->value)) {
        if (d->days >= 0 && d->seconds >= 0) span.duration = *d;
      }
    }
    if (!span.end && start->is_date && span.duration.days == 0 && span.duration.seconds == 0) {
      span.duration.days = 1;  // An all-day event lasts its day.
    }
    if (start->is_date) {  // Whole days only.
      span.duration.days += span.duration.seconds / kSecondsPerDay;
      span.duration.seconds = 0;
      if (!span.end && span.duration.days == 0) span.duration.days = 1;
    }
    return span;
  }

  // Fills start/end/offsets for an occurrence starting at `local` in the
  // span's zone, lasting like the span (or `explicit_end_utc`).
  void Place(const Span& span, int64_t local, std::optional<int64_t> explicit_end_utc,
             CalendarEvent* e) {
    if (span.start.is_date) {
      e->all_day = true;
      e->start = local;
      e->end = span.end ? local + (span.end->local - span.start.local)
                        : local + span.duration.days * kSecondsPerDay;
      if (explicit_end_utc) {
        e->end = std::max(
            local + kSecondsPerDay,
            FloorDiv(*explicit_end_utc + kSecondsPerDay - 1, kSecondsPerDay) * kSecondsPerDay);
      }
      return;
    }
    const TimeZone& zone = *span.start.zone;
    e->start = zone.LocalToUtc(local);
    e->start_offset = zone.OffsetAt(e->start);
    const TimeZone* end_zone = &zone;
    if (explicit_end_utc) {
      e->end = *explicit_end_utc;
    } else if (span.end && span.end->zone == span.start.zone) {
      // Same wall-clock length, so a 9-10 meeting stays 9-10 across DST.
      e->end = zone.LocalToUtc(local + (span.end->local - span.start.local));
    } else if (span.end) {
      e->end = e->start + (span.end->utc - span.start.utc);
      end_zone = span.end->zone;
    } else {
      e->end = zone.LocalToUtc(local + span.duration.days * kSecondsPerDay) + span.duration.seconds;
    }
    if (e->end < e->start) e->end = e->start;
    e->end_offset = end_zone->OffsetAt(e->end);
  }

  bool InWindow(const CalendarEvent& e) const {
    const TimeWindow& w = options_.window;
    if (e.end == e.start) return e.start >= w.from && e.start < w.to;
    return e.start < w.to && e.end > w.from;
  }

  void Emit(CalendarEvent e) {
    const bool keep = !e.cancelled() || options_.keep_cancelled;
    if (!keep || !InWindow(e)) return;
    const std::string key = e.uid.empty() ? e.title + "|" + std::to_string(e.start) : e.uid;
    e.id = "ics:" + std::string(calendar_) + ":" +
           Hex64(Fnv1a(std::to_string(e.original_start), Fnv1a(key + "|")));
    out_->events.push_back(std::move(e));
  }

  void ReadOverride(const IcsComponent& c) {
    auto span = ReadSpan(c);
    if (!span) return;
    CalendarEvent e = Common(c);
    if (e.cancelled()) return;  // A cancelled override removes its occurrence.
    const IcsProperty* rid = c.Find("RECURRENCE-ID");
    auto when = Resolve(*rid, span->start.zone);
    if (!when) return;
    e.original_start = when->is_date ? when->local : when->utc;
    Place(*span, span->start.local, std::nullopt, &e);
    Emit(std::move(e));
  }

  void ReadSeries(const IcsComponent& c) {
    auto span = ReadSpan(c);
    if (!span) return;
    const CalendarEvent common = Common(c);
    if (common.cancelled() && !options_.keep_cancelled) return;
    std::vector<const IcsProperty*> rrules, rdates, exdates;
    for (const IcsProperty& p : c.properties) {
      if (p.name == "RRULE") rrules.push_back(&p);
      if (p.name == "RDATE") rdates.push_back(&p);
      if (p.name == "EXDATE") exdates.push_back(&p);
    }
    if (rrules.empty() && rdates.empty()) {
      CalendarEvent e = common;
      Place(*span, span->start.local, std::nullopt, &e);
      Emit(std::move(e));
      return;
    }
    const Instant& start = span->start;
    const TimeZone* zone = start.zone;
    // The window on this event's wall clock, widened by the event's length.
    const int64_t length = span->end
                               ? span->end->utc - start.utc
                               : span->duration.days * kSecondsPerDay + span->duration.seconds;
    const TimeWindow& w = options_.window;
    ExpansionRange range;
    if (start.is_date) {
      range.from = w.from - length - kSecondsPerDay;
      range.to = w.to + kSecondsPerDay;
    } else {
      range.from = w.from + zone->OffsetAt(w.from) - length - kLocalSlack;
      range.to = w.to + zone->OffsetAt(w.to) + kLocalSlack;
    }
    range.from = std::max(range.from, start.local);
    range.max_occurrences = 2 * options_.max_events + 16;

    // Occurrences: wall-clock start, and an explicit end for RDATE periods.
    std::map<int64_t, std::optional<int64_t>> occurrences;
    for (const IcsProperty* p : rrules) {
      auto rule = ParseRecurrenceRule(p->value);
      if (!rule.ok()) {
        Warn("\"" + common.title + "\": " + rule.status().message());
        continue;
      }
      ExpansionRange r = range;
      if (rule->until) {
        if (rule->until_is_utc && !start.is_date) {
          r.until_local = *rule->until + zone->OffsetAt(*rule->until);
        } else if (rule->until_is_date && !start.is_date) {
          r.until_local = *rule->until + kSecondsPerDay - 1;
        } else {
          r.until_local = *rule->until;
        }
      }
      for (int64_t local : ExpandRule(*rule, start.local, r, budget_)) {
        occurrences.emplace(local, std::nullopt);
      }
      if (*budget_ <= 0 && !warned_budget_) {
        warned_budget_ = true;
        Warn("recurrence expansion stopped: the calendar's rules are too expensive");
      }
    }
    if (!rrules.empty() && occurrences.empty() && start.local >= range.from &&
        start.local <= range.to) {
      occurrences.emplace(start.local, std::nullopt);  // Every RRULE was invalid.
    }
    if (rrules.empty() && start.local >= range.from && start.local <= range.to) {
      occurrences.emplace(start.local, std::nullopt);  // DTSTART with only RDATEs.
    }
    for (const IcsProperty* p : rdates) {
      ForEachValue(p->value, [&](std::string_view item) {
        const size_t slash = item.find('/');
        auto at = ResolveText(item.substr(0, slash), *p, zone);
        if (!at || at->is_date != start.is_date) return;
        const int64_t local = start.is_date ? at->local : at->utc + zone->OffsetAt(at->utc);
        std::optional<int64_t> end;
        if (slash != std::string_view::npos) {  // PERIOD: start/end or start/duration.
          std::string_view second = item.substr(slash + 1);
          if (auto d = ParseIcsDuration(second)) {
            end = at->utc + d->days * kSecondsPerDay + d->seconds;
          } else if (auto e = ResolveText(second, *p, zone)) {
            end = e->utc;
          }
          if (end && *end < at->utc) end.reset();
        }
        if (local >= range.from && local <= range.to) occurrences[local] = end;
      });
    }
    // EXDATE: by UTC instant for timed events, by date for all-day ones (and
    // a DATE exdate on a timed event removes that local day).
    std::set<int64_t> excluded_utc, excluded_days;
    for (const IcsProperty* p : exdates) {
      ForEachValue(p->value, [&](std::string_view item) {
        auto at = ResolveText(item, *p, zone);
        if (!at) return;
        if (at->is_date) {
          excluded_days.insert(FloorDiv(at->local, kSecondsPerDay));
        } else if (start.is_date) {
          excluded_days.insert(FloorDiv(at->local, kSecondsPerDay));
        } else {
          excluded_utc.insert(at->utc);
        }
      });
    }
    const auto overrides = overrides_.find(common.uid);
    for (const auto& occurrence : occurrences) {
      const int64_t local = occurrence.first;
      const std::optional<int64_t>& end = occurrence.second;
      CalendarEvent e = common;
      Place(*span, local, end, &e);
      e.original_start = e.start;
      const int64_t key = e.start;
      if (excluded_days.count(FloorDiv(local, kSecondsPerDay)) || excluded_utc.count(key)) continue;
      if (overrides != overrides_.end() &&
          std::any_of(overrides->second.begin(), overrides->second.end(), [&](const Override& o) {
            return o.floating ? o.local == local : o.key == key;
          })) {
        continue;  // Replaced (or cancelled) by its override.
      }
      Emit(std::move(e));
      if (out_->events.size() > 2 * options_.max_events) Trim();
    }
  }

  template <typename Fn>
  void ForEachValue(std::string_view list, Fn fn) {
    for (size_t n = 0; !list.empty() && n < kMaxListValues; ++n) {
      const size_t comma = list.find(',');
      fn(list.substr(0, comma));
      list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    }
  }

  const IcsComponent& vcalendar_;
  std::string_view calendar_;
  const ExpandOptions& options_;
  int64_t* budget_;
  ExpandedCalendar* out_;
  CalendarZones zones_;
  std::unordered_map<std::string, std::vector<Override>> overrides_;
  std::set<std::string> warned_zones_;
  bool warned_budget_ = false;
};

}  // namespace

TimeWindow DefaultWindow(int64_t now_utc) {
  return {now_utc - kWindowDaysBack * kSecondsPerDay, now_utc + kWindowDaysAhead * kSecondsPerDay};
}

Result<ExpandedCalendar> ExpandIcs(std::string_view text, std::string_view calendar,
                                   const ExpandOptions& options) {
  if (options.window.to <= options.window.from) {
    return Status(core::codes::kInvalidArgument, "the window's end must be after its start");
  }
  ENSEMBLE_ASSIGN_OR_RETURN(std::vector<IcsComponent> calendars, ParseIcs(text));
  ExpandedCalendar out;
  int64_t budget = kMaxRecurrenceWork;
  for (const IcsComponent& vcalendar : calendars) {
    CalendarReader reader(vcalendar, calendar, options, &budget, &out);
    reader.Run();
    reader.Trim();
  }
  return out;
}

Result<int64_t> ParseIsoInstant(std::string_view text) {
  auto bad = [&] {
    return Status(core::codes::kInvalidArgument,
                  "\"" + std::string(text) + "\" is not an ISO 8601 date or time");
  };
  auto digits = [&](size_t at, size_t n, int64_t* out) {
    if (at + n > text.size()) return false;
    int64_t v = 0;
    for (size_t i = at; i < at + n; ++i) {
      if (text[i] < '0' || text[i] > '9') return false;
      v = v * 10 + (text[i] - '0');
    }
    *out = v;
    return true;
  };
  int64_t y, mo, d, h = 0, mi = 0, s = 0;
  if (!digits(0, 4, &y) || text.size() < 10 || text[4] != '-' || !digits(5, 2, &mo) ||
      text[7] != '-' || !digits(8, 2, &d) || mo < 1 || mo > 12 || d < 1 ||
      d > DaysInMonth(y, static_cast<int>(mo))) {
    return bad();
  }
  size_t i = 10;
  int64_t offset = 0;
  if (i < text.size()) {
    if ((text[i] != 'T' && text[i] != ' ') || !digits(i + 1, 2, &h) || text.size() < i + 6 ||
        text[i + 3] != ':' || !digits(i + 4, 2, &mi) || h > 23 || mi > 59) {
      return bad();
    }
    i += 6;
    if (i < text.size() && text[i] == ':') {
      if (!digits(i + 1, 2, &s) || s > 59) return bad();
      i += 3;
      if (i < text.size() && text[i] == '.') {  // Fractions are dropped.
        ++i;
        while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
      }
    }
    if (i < text.size()) {
      if (text[i] == 'Z' && i + 1 == text.size()) {
        i = text.size();
      } else if (text[i] == '+' || text[i] == '-') {
        int64_t oh, om;
        if (text.size() != i + 6 || !digits(i + 1, 2, &oh) || text[i + 3] != ':' ||
            !digits(i + 4, 2, &om) || oh > 23 || om > 59) {
          return bad();
        }
        offset = (text[i] == '-' ? -1 : 1) * (oh * 3600 + om * 60);
        i = text.size();
      } else {
        return bad();
      }
    }
  }
  return LocalSeconds(y, static_cast<int>(mo), static_cast<int>(d), static_cast<int>(h),
                      static_cast<int>(mi), static_cast<int>(s)) -
         offset;
}

}  // namespace ensemble::core::calendar
