#include "core/calendar/recurrence_rule.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "core/calendar/civil_time.h"

namespace ensemble::core::calendar {
namespace {

constexpr std::string_view kWeekdays[] = {"SU", "MO", "TU", "WE", "TH", "FR", "SA"};
constexpr int kMaxInterval = 1'000'000;

Status RuleInvalid(std::string message) {
  return Status(core::codes::kInvalidArgument, "RRULE: " + std::move(message));
}

std::string Upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

bool ParseInt(std::string_view s, int64_t* out) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  if (s.empty()) return false;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && ptr == s.data() + s.size();
}

template <typename Fn>
Status ForEachItem(std::string_view list, Fn fn) {
  while (true) {
    const size_t comma = list.find(',');
    ENSEMBLE_RETURN_IF_ERROR(fn(list.substr(0, comma)));
    if (comma == std::string_view::npos) return Status::Ok();
    list.remove_prefix(comma + 1);
  }
}

// A list of integers, each within [lo, hi] and, if !allow_zero, non-zero.
Status ParseIntList(std::string_view name, std::string_view list, int lo, int hi, bool allow_zero,
                    std::vector<int>* out) {
  return ForEachItem(list, [&](std::string_view item) -> Status {
    int64_t n = 0;
    if (!ParseInt(item, &n) || n < lo || n > hi || (!allow_zero && n == 0)) {
      return RuleInvalid(std::string(name) + " has an invalid value \"" + std::string(item) + "\"");
    }
    if (out->size() >= 400) return RuleInvalid(std::string(name) + " has too many values");
    out->push_back(static_cast<int>(n));
    return Status::Ok();
  });
}

int ParseWeekday(std::string_view s) {
  for (int i = 0; i < 7; ++i) {
    if (s == kWeekdays[i]) return i;
  }
  return -1;
}

bool Contains(const std::vector<int>& v, int x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

// The first day of week 1 of `year` for weeks starting on `wkst`: week 1 is
// the first week with at least four days in the year.
int64_t WeekOneStart(int64_t year, int wkst) {
  const int64_t jan1 = DaysFromCivil(year, 1, 1);
  int64_t start = jan1 - (WeekdayFromDays(jan1) - wkst + 7) % 7;
  if (jan1 - start >= 4) start += 7;
  return start;
}

// The rule's period being expanded, with the day-level facts the BY* filters
// need precomputed for speed.
struct DayInfo {
  int64_t days;
  CivilDate date;
};

class Expander {
 public:
  Expander(const RecurrenceRule& rule, int64_t dtstart) : rule_(rule), dtstart_(dtstart) {
    start_days_ = FloorDiv(dtstart, kSecondsPerDay);
    start_tod_ = static_cast<int>(dtstart - start_days_ * kSecondsPerDay);
    start_date_ = CivilFromDays(start_days_);
    by_month_day_ = rule.by_month_day;
    by_month_ = rule.by_month;
    by_day_ = rule.by_day;
    // RFC 5545 defaults: parts missing from the rule come from DTSTART.
    if (rule.by_week_no.empty() && rule.by_year_day.empty() && rule.by_month_day.empty() &&
        rule.by_day.empty()) {
      if (rule.freq == Frequency::kYearly) {
        if (by_month_.empty()) by_month_.push_back(start_date_.month);
        by_month_day_.push_back(start_date_.day);
      } else if (rule.freq == Frequency::kMonthly) {
        by_month_day_.push_back(start_date_.day);
      } else if (rule.freq == Frequency::kWeekly) {
        by_day_.push_back({0, WeekdayFromDays(start_days_)});
      }
    }
    const int h = start_tod_ / 3600, mi = start_tod_ / 60 % 60, s = start_tod_ % 60;
    hours_ = rule.by_hour.empty() ? std::vector<int>{h} : rule.by_hour;
    minutes_ = rule.by_minute.empty() ? std::vector<int>{mi} : rule.by_minute;
    seconds_ = rule.by_second.empty() ? std::vector<int>{s} : rule.by_second;
    for (auto* v : {&hours_, &minutes_, &seconds_}) {
      std::sort(v->begin(), v->end());
      v->erase(std::unique(v->begin(), v->end()), v->end());
    }
    if (rule.freq >= Frequency::kDaily) {
      for (int hh : hours_)
        for (int mm : minutes_)
          for (int ss : seconds_) day_times_.push_back(hh * 3600 + mm * 60 + ss);
    }
  }

  std::vector<int64_t> Run(const ExpansionRange& range, int64_t* budget) {
    std::vector<int64_t> out;
    const int64_t interval = std::max(1, rule_.interval);
    int64_t counted = 1;  // DTSTART is the first occurrence.
    if (dtstart_ > range.until_local) return out;
    if (dtstart_ >= range.from && dtstart_ <= range.to && range.max_occurrences > 0) {
      out.push_back(dtstart_);
    }
    if (rule_.count && *rule_.count <= 1) return out;
    int64_t k = 0;
    if (!rule_.count) k = std::max<int64_t>(0, FirstUsefulPeriod(range.from) / interval - 1);
    std::vector<int64_t> candidates;
    for (int64_t steps = 0; steps < kMaxRulePeriods; ++steps, ++k) {
      // Each period costs one unit plus the days it examined.
      *budget -= 1 + work_;
      work_ = 0;
      if (*budget < 0) break;
      const int64_t index = k * interval;
      if (PeriodStart(index) > range.to || PeriodStart(index) > range.until_local) break;
      candidates.clear();
      const int64_t skip_to = Candidates(index, &candidates);
      if (skip_to > 0) {
        // A sub-daily rule on a day its day filters refuse: jump to the next day.
        k = std::max(k, (skip_to + interval - 1) / interval) - 1;
        continue;
      }
      ApplySetPos(&candidates);
      for (int64_t c : candidates) {
        if (c <= dtstart_) continue;
        if (c > range.until_local || c > range.to) return out;
        ++counted;
        if (rule_.count && counted > *rule_.count) return out;
        if (c >= range.from) {
          out.push_back(c);
          if (out.size() >= range.max_occurrences) return out;
        }
      }
      if (rule_.count && counted >= *rule_.count) return out;
    }
    return out;
  }

 private:
  // Units of the rule's frequency from DTSTART's period to the one holding
  // `local` (negative when before).
  int64_t FirstUsefulPeriod(int64_t local) const {
    const int64_t days = FloorDiv(local, kSecondsPerDay);
    const CivilDate d = CivilFromDays(days);
    switch (rule_.freq) {
      case Frequency::kYearly:
        return d.year - start_date_.year;
      case Frequency::kMonthly:
        return (d.year - start_date_.year) * 12 + (d.month - start_date_.month);
      case Frequency::kWeekly:
        return FloorDiv(days - WeekStart(start_days_), 7);
      case Frequency::kDaily:
        return days - start_days_;
      case Frequency::kHourly:
        return FloorDiv(local - StartUnit(3600), 3600);
      case Frequency::kMinutely:
        return FloorDiv(local - StartUnit(60), 60);
      case Frequency::kSecondly:
        return local - dtstart_;
    }
    return 0;
  }

  int64_t StartUnit(int64_t unit) const { return FloorDiv(dtstart_, unit) * unit; }
  int64_t WeekStart(int64_t days) const {
    return days - (WeekdayFromDays(days) - rule_.wkst + 7) % 7;
  }

  // Local seconds at which the period `index` units after DTSTART's begins.
  int64_t PeriodStart(int64_t index) const {
    switch (rule_.freq) {
      case Frequency::kYearly:
        return DaysFromCivil(start_date_.year + index, 1, 1) * kSecondsPerDay;
      case Frequency::kMonthly: {
        const int64_t m = start_date_.year * 12 + (start_date_.month - 1) + index;
        return DaysFromCivil(FloorDiv(m, 12), static_cast<int>(m - FloorDiv(m, 12) * 12) + 1, 1) *
               kSecondsPerDay;
      }
      case Frequency::kWeekly:
        return (WeekStart(start_days_) + index * 7) * kSecondsPerDay;
      case Frequency::kDaily:
        return (start_days_ + index) * kSecondsPerDay;
      case Frequency::kHourly:
        return StartUnit(3600) + index * 3600;
      case Frequency::kMinutely:
        return StartUnit(60) + index * 60;
      case Frequency::kSecondly:
        return dtstart_ + index;
    }
    return 0;
  }

  bool DayMatches(const DayInfo& day) const {
    const CivilDate& d = day.date;
    if (!by_month_.empty() && !Contains(by_month_, d.month)) return false;
    if (!rule_.by_week_no.empty() && !WeekNoMatches(day)) return false;
    if (!rule_.by_year_day.empty()) {
      const int64_t doy = day.days - DaysFromCivil(d.year, 1, 1) + 1;
      const int64_t neg = doy - DaysInYear(d.year) - 1;
      bool ok = false;
      for (int n : rule_.by_year_day) ok = ok || n == doy || n == neg;
      if (!ok) return false;
    }
    if (!by_month_day_.empty()) {
      const int neg = d.day - DaysInMonth(d.year, d.month) - 1;
      bool ok = false;
      for (int n : by_month_day_) ok = ok || n == d.day || n == neg;
      if (!ok) return false;
    }
    if (!by_day_.empty()) {
      const int wd = WeekdayFromDays(day.days);
      // Ordinals count within the month for MONTHLY (or YEARLY with BYMONTH),
      // within the year for YEARLY; other frequencies ignore them.
      const bool in_month = rule_.freq == Frequency::kMonthly ||
                            (rule_.freq == Frequency::kYearly && !by_month_.empty());
      const bool in_year = rule_.freq == Frequency::kYearly && by_month_.empty();
      bool ok = false;
      for (const WeekdayNum& w : by_day_) {
        if (w.weekday != wd) continue;
        if (w.ordinal == 0 || (!in_month && !in_year)) {
          ok = true;
          break;
        }
        int64_t pos, len;
        if (in_month) {
          pos = d.day;
          len = DaysInMonth(d.year, d.month);
        } else {
          pos = day.days - DaysFromCivil(d.year, 1, 1) + 1;
          len = DaysInYear(d.year);
        }
        const int64_t nth = (pos - 1) / 7 + 1;
        const int64_t nth_from_end = (len - pos) / 7 + 1;
        if (w.ordinal == nth || w.ordinal == -nth_from_end) {
          ok = true;
          break;
        }
      }
      if (!ok) return false;
    }
    return true;
  }

  bool WeekNoMatches(const DayInfo& day) const {
    int64_t year = day.date.year;
    int64_t w1 = WeekOneStart(year, rule_.wkst);
    if (day.days < w1) {
      --year;
      w1 = WeekOneStart(year, rule_.wkst);
    } else {
      const int64_t next = WeekOneStart(year + 1, rule_.wkst);
      if (day.days >= next) {
        ++year;
        w1 = next;
      }
    }
    const int64_t weeks = (WeekOneStart(year + 1, rule_.wkst) - w1) / 7;
    const int64_t week = (day.days - w1) / 7 + 1;
    for (int n : rule_.by_week_no) {
      if (n == week || n == week - weeks - 1) return true;
    }
    return false;
  }

  void AddDay(int64_t days, std::vector<int64_t>* out) const {
    ++work_;
    const DayInfo info{days, CivilFromDays(days)};
    if (!DayMatches(info)) return;
    for (int tod : day_times_) out->push_back(days * kSecondsPerDay + tod);
  }

  // Fills the period's candidates (ascending, before BYSETPOS). For sub-daily
  // rules on a refused day, returns the period index of the next day's start
  // (so the caller can skip) and fills nothing; otherwise 0.
  int64_t Candidates(int64_t index, std::vector<int64_t>* out) const {
    switch (rule_.freq) {
      case Frequency::kYearly: {
        const int64_t year = start_date_.year + index;
        if (year > 9999) return 0;
        for (int m = 1; m <= 12; ++m) {
          if (!by_month_.empty() && !Contains(by_month_, m) && rule_.by_week_no.empty()) continue;
          const int64_t first = DaysFromCivil(year, m, 1);
          for (int d = 0; d < DaysInMonth(year, m); ++d) AddDay(first + d, out);
        }
        return 0;
      }
      case Frequency::kMonthly: {
        const int64_t start = PeriodStart(index) / kSecondsPerDay;
        const CivilDate d = CivilFromDays(start);
        for (int i = 0; i < DaysInMonth(d.year, d.month); ++i) AddDay(start + i, out);
        return 0;
      }
      case Frequency::kWeekly: {
        const int64_t start = PeriodStart(index) / kSecondsPerDay;
        for (int i = 0; i < 7; ++i) AddDay(start + i, out);
        return 0;
      }
      case Frequency::kDaily:
        AddDay(start_days_ + index, out);
        return 0;
      default:
        break;
    }
    const int64_t at = PeriodStart(index);
    const int64_t days = FloorDiv(at, kSecondsPerDay);
    const DayInfo info{days, CivilFromDays(days)};
    const int tod = static_cast<int>(at - days * kSecondsPerDay);
    const int h = tod / 3600, mi = tod / 60 % 60;
    const int64_t unit = rule_.freq == Frequency::kHourly     ? 3600
                         : rule_.freq == Frequency::kMinutely ? 60
                                                              : 1;
    if (!DayMatches(info)) {
      const int64_t next_day = (days + 1) * kSecondsPerDay;
      const int64_t base = rule_.freq == Frequency::kSecondly ? dtstart_ : StartUnit(unit);
      return std::max<int64_t>(1, (next_day - base + unit - 1) / unit);
    }
    if (!rule_.by_hour.empty() && !Contains(rule_.by_hour, h)) return 0;
    if (rule_.freq == Frequency::kHourly) {
      for (int mm : minutes_)
        for (int ss : seconds_) out->push_back(days * kSecondsPerDay + h * 3600 + mm * 60 + ss);
      return 0;
    }
    if (!rule_.by_minute.empty() && !Contains(rule_.by_minute, mi)) return 0;
    if (rule_.freq == Frequency::kMinutely) {
      for (int ss : seconds_) out->push_back(days * kSecondsPerDay + h * 3600 + mi * 60 + ss);
      return 0;
    }
    if (!rule_.by_second.empty() && !Contains(rule_.by_second, tod % 60)) return 0;
    out->push_back(at);
    return 0;
  }

  void ApplySetPos(std::vector<int64_t>* candidates) const {
    if (rule_.by_set_pos.empty() || candidates->empty()) return;
    std::sort(candidates->begin(), candidates->end());
    candidates->erase(std::unique(candidates->begin(), candidates->end()), candidates->end());
    std::vector<int64_t> picked;
    const int64_t n = static_cast<int64_t>(candidates->size());
    for (int pos : rule_.by_set_pos) {
      const int64_t i = pos > 0 ? pos - 1 : n + pos;
      if (i >= 0 && i < n) picked.push_back((*candidates)[i]);
    }
    std::sort(picked.begin(), picked.end());
    picked.erase(std::unique(picked.begin(), picked.end()), picked.end());
    *candidates = std::move(picked);
  }

  const RecurrenceRule& rule_;
  int64_t dtstart_;
  int64_t start_days_;
  int start_tod_;
  CivilDate start_date_;
  std::vector<int> by_month_day_, by_month_;
  std::vector<WeekdayNum> by_day_;
  std::vector<int> hours_, minutes_, seconds_;
  std::vector<int> day_times_;  // Seconds into the day, for DAILY and longer.
  mutable int64_t work_ = 0;    // Days examined since the budget was charged.
};

}  // namespace

Result<RecurrenceRule> ParseRecurrenceRule(std::string_view text) {
  RecurrenceRule rule;
  bool has_freq = false;
  const std::string upper = Upper(text);
  std::string_view rest = upper;
  while (!rest.empty()) {
    const size_t semi = rest.find(';');
    std::string_view part = rest.substr(0, semi);
    rest = semi == std::string_view::npos ? std::string_view() : rest.substr(semi + 1);
    if (part.empty()) continue;
    const size_t eq = part.find('=');
    if (eq == std::string_view::npos)
      return RuleInvalid("\"" + std::string(part) + "\" has no value");
    const std::string_view key = part.substr(0, eq);
    const std::string_view value = part.substr(eq + 1);
    int64_t n = 0;
    if (key == "FREQ") {
      static constexpr std::pair<std::string_view, Frequency> kFreqs[] = {
          {"SECONDLY", Frequency::kSecondly}, {"MINUTELY", Frequency::kMinutely},
          {"HOURLY", Frequency::kHourly},     {"DAILY", Frequency::kDaily},
          {"WEEKLY", Frequency::kWeekly},     {"MONTHLY", Frequency::kMonthly},
          {"YEARLY", Frequency::kYearly}};
      for (const auto& [name, f] : kFreqs) {
        if (value == name) {
          rule.freq = f;
          has_freq = true;
        }
      }
      if (!has_freq) return RuleInvalid("unknown FREQ \"" + std::string(value) + "\"");
    } else if (key == "INTERVAL") {
      if (!ParseInt(value, &n) || n < 1 || n > kMaxInterval) return RuleInvalid("invalid INTERVAL");
      rule.interval = static_cast<int>(n);
    } else if (key == "COUNT") {
      if (!ParseInt(value, &n) || n < 1) return RuleInvalid("invalid COUNT");
      rule.count = n;
    } else if (key == "UNTIL") {
      // Kept as text-derived numbers: the caller knows the event's zone.
      std::string_view v = value;
      rule.until_is_utc = !v.empty() && v.back() == 'Z';
      if (rule.until_is_utc) v.remove_suffix(1);
      int64_t y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0;
      const bool date_ok = v.size() >= 8 && ParseInt(v.substr(0, 4), &y) &&
                           ParseInt(v.substr(4, 2), &mo) && ParseInt(v.substr(6, 2), &d) &&
                           mo >= 1 && mo <= 12 && d >= 1 &&
                           d <= DaysInMonth(y, static_cast<int>(mo));
      if (!date_ok) return RuleInvalid("invalid UNTIL");
      if (v.size() == 8) {
        rule.until_is_date = true;
      } else if (v.size() != 15 || v[8] != 'T' || !ParseInt(v.substr(9, 2), &h) ||
                 !ParseInt(v.substr(11, 2), &mi) || !ParseInt(v.substr(13, 2), &s) || h > 23 ||
                 mi > 59 || s > 60) {
        return RuleInvalid("invalid UNTIL");
      }
      rule.until = LocalSeconds(y, static_cast<int>(mo), static_cast<int>(d), static_cast<int>(h),
                                static_cast<int>(mi), static_cast<int>(std::min<int64_t>(s, 59)));
    } else if (key == "WKST") {
      rule.wkst = ParseWeekday(value);
      if (rule.wkst < 0) return RuleInvalid("invalid WKST");
    } else if (key == "BYSECOND") {
      ENSEMBLE_RETURN_IF_ERROR(ParseIntList(key, value, 0, 60, true, &rule.by_second));
    } else if (key == "BYMINUTE") {
      ENSEMBLE_RETURN_IF_ERROR(ParseIntList(key, value, 0, 59, true, &rule.by_minute));
    } else if (key == "BYHOUR") {
      ENSEMBLE_RETURN_IF_ERROR(ParseIntList(key, value, 0, 23, true, &rule.by_hour));
    } else if (key == "BYMONTHDAY") {
      ENSEMBLE_RETURN_IF_ERROR(ParseIntList(key, value, -31, 31, false, &rule.by_month_day));
    } else if (key == "BYYEARDAY") {
      ENSEMBLE_RETURN_IF_ERROR(ParseIntList(key, value, -366, 366, false, &rule.by_year_day));
    } else if (key == "BYWEEKNO") {
      ENSEMBLE_RETURN_IF_ERROR(ParseIntList(key, value, -53, 53, false, &rule.by_week_no));
    } else if (key == "BYMONTH") {
      ENSEMBLE_RETURN_IF_ERROR(ParseIntList(key, value, 1, 12, false, &rule.by_month));
    } else if (key == "BYSETPOS") {
      ENSEMBLE_RETURN_IF_ERROR(ParseIntList(key, value, -366, 366, false, &rule.by_set_pos));
    } else if (key == "BYDAY") {
      ENSEMBLE_RETURN_IF_ERROR(ForEachItem(value, [&](std::string_view item) -> Status {
        if (item.size() < 2) return RuleInvalid("invalid BYDAY \"" + std::string(item) + "\"");
        WeekdayNum w;
        w.weekday = ParseWeekday(item.substr(item.size() - 2));
        const std::string_view ord = item.substr(0, item.size() - 2);
        int64_t o = 0;
        if (w.weekday < 0 ||
            (!ord.empty() && (!ParseInt(ord, &o) || o == 0 || o < -53 || o > 53))) {
          return RuleInvalid("invalid BYDAY \"" + std::string(item) + "\"");
        }
        if (rule.by_day.size() >= 400) return RuleInvalid("BYDAY has too many values");
        w.ordinal = static_cast<int>(o);
        rule.by_day.push_back(w);
        return Status::Ok();
      }));
    }
  }
  if (!has_freq) return RuleInvalid("FREQ is missing");
  return rule;
}

std::vector<int64_t> ExpandRule(const RecurrenceRule& rule, int64_t dtstart,
                                const ExpansionRange& range, int64_t* budget) {
  return Expander(rule, dtstart).Run(range, budget);
}

}  // namespace ensemble::core::calendar
