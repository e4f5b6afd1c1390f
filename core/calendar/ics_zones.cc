#include "core/calendar/ics_zones.h"

#include <algorithm>
#include <vector>

#include "core/calendar/civil_time.h"
#include "core/calendar/ics_values.h"
#include "core/calendar/recurrence_rule.h"

namespace ensemble::core::calendar {
namespace {

constexpr int64_t kZoneMargin = 400 * kSecondsPerDay;

// Remembers the spans of its last answers: the occurrences of a series ask
// about nearby instants again and again. Not thread-safe, like CalendarZones.
class CachingZone : public TimeZone {
 public:
  explicit CachingZone(std::shared_ptr<const TimeZone> zone) : zone_(std::move(zone)) {}
  int32_t OffsetAt(int64_t utc) const override {
    int64_t from, to;
    return OffsetSpan(utc, &from, &to);
  }
  int32_t OffsetSpan(int64_t utc, int64_t* from, int64_t* to) const override {
    for (const Entry& e : entries_) {
      if (utc >= e.from && utc < e.to) {
        *from = e.from;
        *to = e.to;
        return e.offset;
      }
    }
    Entry& slot = entries_[next_];
    next_ = (next_ + 1) % kEntries;
    slot.offset = zone_->OffsetSpan(utc, &slot.from, &slot.to);
    *from = slot.from;
    *to = slot.to;
    return slot.offset;
  }

 private:
  static constexpr size_t kEntries = 2;
  struct Entry {
    int64_t from = 0, to = 0;  // Empty until filled.
    int32_t offset = 0;
  };
  std::shared_ptr<const TimeZone> zone_;
  mutable Entry entries_[kEntries];
  mutable size_t next_ = 0;
};

struct Onset {
  int64_t at;  // UTC.
  int32_t from;
  int32_t to;
};

void AddObservance(const IcsComponent& obs, int64_t from, int64_t to, int64_t* budget,
                   std::vector<Onset>* out) {
  const IcsProperty* start = obs.Find("DTSTART");
  const IcsProperty* off_from = obs.Find("TZOFFSETFROM");
  const IcsProperty* off_to = obs.Find("TZOFFSETTO");
  if (!start || !off_to) return;
  auto dt = ParseIcsDateTime(start->value);
  auto to_offset = ParseUtcOffset(off_to->value);
  if (!dt || !to_offset) return;
  auto from_offset = off_from ? ParseUtcOffset(off_from->value) : std::nullopt;
  const int32_t before = from_offset.value_or(*to_offset);
  auto add = [&](int64_t local) {
    if (out->size() < kMaxObservanceTransitions * 8) out->push_back({local - before, before, *to_offset});
  };
  add(dt->local);  // The first onset, whenever it is.
  for (const IcsProperty& p : obs.properties) {
    if (p.name == "RDATE") {
      std::string_view list = p.value;
      size_t taken = 0;
      while (!list.empty() && taken++ < kMaxObservanceTransitions) {
        const size_t comma = list.find(',');
        std::string_view item = list.substr(0, comma);
        const size_t slash = item.find('/');
        if (auto r = ParseIcsDateTime(item.substr(0, slash))) {
          add(r->is_utc ? r->local + before : r->local);
        }
        list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
      }
    } else if (p.name == "RRULE") {
      auto rule = ParseRecurrenceRule(p.value);
      if (!rule.ok()) continue;
      ExpansionRange range;
      range.from = std::max(dt->local, from - kZoneMargin);
      range.to = to + kZoneMargin;
      range.max_occurrences = kMaxObservanceTransitions;
      if (rule->until) {
        // A UTC UNTIL is the onset instant; compare on this observance's clock.
        range.until_local = rule->until_is_utc ? *rule->until + before
                            : rule->until_is_date ? *rule->until + kSecondsPerDay - 1
                                                  : *rule->until;
      }
      for (int64_t local : ExpandRule(*rule, dt->local, range, budget)) {
        if (local != dt->local) add(local);
      }
    }
  }
}

}  // namespace

std::shared_ptr<const TimeZone> BuildVTimezone(const IcsComponent& vtimezone, int64_t from,
                                               int64_t to, int64_t* budget) {
  std::vector<Onset> onsets;
  for (const IcsComponent& child : vtimezone.children) {
    if (child.name == "STANDARD" || child.name == "DAYLIGHT") {
      AddObservance(child, from, to, budget, &onsets);
    }
  }
  if (onsets.empty()) return nullptr;
  std::stable_sort(onsets.begin(), onsets.end(),
                   [](const Onset& a, const Onset& b) { return a.at < b.at; });
  std::vector<TransitionZone::Transition> transitions;
  transitions.reserve(onsets.size());
  for (const Onset& o : onsets) {
    if (!transitions.empty() && transitions.back().at == o.at) {
      transitions.back().offset = o.to;
    } else {
      transitions.push_back({o.at, o.to});
    }
  }
  return std::make_shared<TransitionZone>(onsets.front().from, std::move(transitions),
                                          std::nullopt);
}

CalendarZones::CalendarZones(const IcsComponent& vcalendar, int64_t from, int64_t to,
                             std::string_view floating_zone, int64_t* budget)
    : from_(from), to_(to), budget_(budget) {
  for (const IcsComponent& c : vcalendar.children) {
    if (c.name != "VTIMEZONE") continue;
    if (const IcsProperty* id = c.Find("TZID")) definitions_.emplace(id->value, &c);
  }
  std::string name(floating_zone);
  if (name.empty()) {
    if (const IcsProperty* wr = vcalendar.Find("X-WR-TIMEZONE")) name = wr->value;
  }
  if (!name.empty()) {
    if (Find(name)) floating_ = cache_.find(name)->second;
  }
  if (!floating_) floating_ = std::make_shared<FixedZone>(0);
}

const TimeZone* CalendarZones::Find(std::string_view tzid) {
  if (auto it = cache_.find(tzid); it != cache_.end()) return it->second.get();
  std::shared_ptr<const TimeZone> zone;
  // An exact IANA name is better served by the full history than by a
  // definition that often lists only this year's rules.
  zone = FindBuiltinZone(tzid);
  const bool exact_iana = zone && tzid.find('/') != std::string_view::npos &&
                          tzid.front() != '/' && WindowsZoneToIana(tzid).empty();
  if (!exact_iana) {
    if (auto def = definitions_.find(tzid); def != definitions_.end()) {
      if (auto built = BuildVTimezone(*def->second, from_, to_, budget_)) zone = built;
    }
  }
  if (zone) zone = std::make_shared<CachingZone>(std::move(zone));
  const TimeZone* raw = zone.get();
  cache_.emplace(std::string(tzid), std::move(zone));
  return raw;
}

}  // namespace ensemble::core::calendar
