// RRULE (RFC 5545 §3.3.10): parsing and expansion in wall-clock time.
// Expansion works on "local seconds" (civil_time.h) so that a daily meeting
// stays at 09:00 across a DST change; the caller converts each occurrence to
// UTC in the event's zone. Immutable after parsing; safe to share.

#ifndef ENSEMBLE_CORE_CALENDAR_RECURRENCE_RULE_H_
#define ENSEMBLE_CORE_CALENDAR_RECURRENCE_RULE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"

namespace ensemble::core::calendar {

// Periods (years, months, weeks, days, hours...) one rule may step through.
// Bounds the cost of a rule with a huge COUNT or one that never matches.
inline constexpr int64_t kMaxRulePeriods = 1'000'000;

enum class Frequency { kSecondly, kMinutely, kHourly, kDaily, kWeekly, kMonthly, kYearly };

struct WeekdayNum {
  int ordinal = 0;  // 0: every such weekday in the period; else +-1..53.
  int weekday = 0;  // 0 = Sunday ... 6 = Saturday.
};

struct RecurrenceRule {
  Frequency freq = Frequency::kDaily;
  int interval = 1;
  std::optional<int64_t> count;
  // UNTIL as written: a DATE ("20261231", until_is_date), a UTC DATE-TIME
  // (until_is_utc) or a floating DATE-TIME; in local seconds or UTC seconds.
  std::optional<int64_t> until;
  bool until_is_date = false;
  bool until_is_utc = false;
  int wkst = 1;  // Monday.
  std::vector<int> by_second, by_minute, by_hour, by_month_day, by_year_day, by_week_no,
      by_month, by_set_pos;
  std::vector<WeekdayNum> by_day;
};

// Parses an RRULE value ("FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10"). Unknown parts
// are ignored (RFC 5545 allows x-names); invalid values are INVALID_ARGUMENT.
Result<RecurrenceRule> ParseRecurrenceRule(std::string_view text);

struct ExpansionRange {
  int64_t from = 0;  // Local seconds, inclusive.
  int64_t to = 0;    // Local seconds, inclusive.
  // Occurrences after this local time end the rule (UNTIL, already converted
  // to the event's wall clock by the caller); INT64_MAX when none.
  int64_t until_local = INT64_MAX;
  size_t max_occurrences = 0;  // Stop after this many in the range.
};

// The rule's occurrences within `range`, ascending, starting from `dtstart`
// (local seconds), which is always the first occurrence (RFC 5545
// §3.8.5.3) whether or not the rule matches it. COUNT counts from DTSTART
// even when the range starts later; without COUNT the expansion skips ahead
// to the range. `*budget` is decremented per period stepped and per day
// examined; expansion stops at zero (the budget is shared by a calendar).
std::vector<int64_t> ExpandRule(const RecurrenceRule& rule, int64_t dtstart,
                                const ExpansionRange& range, int64_t* budget);

}  // namespace ensemble::core::calendar

#endif  // ENSEMBLE_CORE_CALENDAR_RECURRENCE_RULE_H_
