// A POSIX TZ rule ("EST5EDT,M3.2.0,M11.1.0", "<+0530>-5:30"), as found in the
// footer of a TZif file: the rule a zone follows after its last listed
// transition. Immutable after Parse; safe to share between threads.

#ifndef ENSEMBLE_CORE_CALENDAR_POSIX_TZ_H_
#define ENSEMBLE_CORE_CALENDAR_POSIX_TZ_H_

#include <cstdint>
#include <optional>
#include <string_view>

namespace ensemble::core::calendar {

class PosixTz {
 public:
  // nullopt when `spec` is not a rule this reader understands.
  static std::optional<PosixTz> Parse(std::string_view spec);

  // Offset east of UTC, in seconds, at a UTC instant.
  int32_t OffsetAt(int64_t utc) const;
  // As OffsetAt, and sets [*from, *to) to a span around `utc` over which the
  // offset holds (possibly narrower than the whole period).
  int32_t OffsetSpan(int64_t utc, int64_t* from, int64_t* to) const;

 private:
  struct Rule {
    char kind = 'M';  // 'M' month.week.day, 'J' Julian 1..365, 'N' zero-based day.
    int month = 0, week = 0, day = 0;
    int32_t time = 7200;  // Local seconds after midnight; may be negative or > 24 h.
  };
  static int64_t RuleLocal(int64_t year, const Rule& rule);

  int32_t std_offset_ = 0;  // East of UTC.
  int32_t dst_offset_ = 0;
  bool has_dst_ = false;
  Rule start_, end_;
};

}  // namespace ensemble::core::calendar

#endif  // ENSEMBLE_CORE_CALENDAR_POSIX_TZ_H_
