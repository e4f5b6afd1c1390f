#include "core/routines/routine_schedule.h"

#include <memory>
#include <string>

#include "core/calendar/civil_time.h"
#include "core/calendar/time_zone.h"
#include "core/routines/routine.h"

namespace ensemble::core::routines {

namespace {

// A month with no day 31 (or 30, 29) runs a late dayOfMonth on its last day,
// so a schedule names a day in every month: 32 days always reach the next.
constexpr int64_t kMaxDaysToNextRun = 32;

// 0 = Sunday ... 6 = Saturday, as calendar::WeekdayFromDays.
int WeekdayNumber(std::string_view day) {
  constexpr std::string_view kSundayFirst[] = {"sun", "mon", "tue", "wed", "thu", "fri", "sat"};
  for (int i = 0; i < 7; ++i) {
    if (kSundayFirst[i] == day) return i;
  }
  return -1;
}

bool RunsOn(const nlohmann::json& schedule, int64_t days) {
  const std::string frequency = schedule.value("frequency", "");
  const int weekday = calendar::WeekdayFromDays(days);
  if (frequency == "daily") return true;
  if (frequency == "weekdays") return weekday >= 1 && weekday <= 5;
  if (frequency == "weekly") return weekday == WeekdayNumber(schedule.value("dayOfWeek", ""));
  const calendar::CivilDate date = calendar::CivilFromDays(days);
  const int wanted = schedule.value("dayOfMonth", 1);
  const int last = calendar::DaysInMonth(date.year, date.month);
  return date.day == (wanted < last ? wanted : last);
}

}  // namespace

Result<int64_t> NextRunAfter(const nlohmann::json& schedule, std::string_view time_zone,
                             int64_t after_ms) {
  ENSEMBLE_RETURN_IF_ERROR(CheckSchedule(schedule));
  std::shared_ptr<const calendar::TimeZone> zone = calendar::FindBuiltinZone(time_zone);
  if (!zone) zone = std::make_shared<calendar::FixedZone>(0);
  const std::string time = schedule["time"].get<std::string>();  // "HH:MM", checked.
  const int64_t at_seconds = ((time[0] - '0') * 10 + (time[1] - '0')) * 3600 +
                             ((time[3] - '0') * 10 + (time[4] - '0')) * 60;
  const int64_t after = calendar::FloorDiv(after_ms, 1000);
  // From the day before `after` in local time: a run late that day may still
  // fall after it in UTC.
  const int64_t first_day =
      calendar::FloorDiv(after + zone->OffsetAt(after), calendar::kSecondsPerDay) - 1;
  for (int64_t day = first_day; day <= first_day + kMaxDaysToNextRun + 1; ++day) {
    if (!RunsOn(schedule, day)) continue;
    const int64_t run = zone->LocalToUtc(day * calendar::kSecondsPerDay + at_seconds) * 1000;
    if (run > after_ms) return run;
  }
  return Status(codes::kInternal, "a routine's schedule named no day in a month");
}

}  // namespace ensemble::core::routines
