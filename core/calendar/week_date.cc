#include "core/calendar/week_date.h"

#include <cstdio>

#include "core/calendar/civil_time.h"
#include "core/calendar/time_zone.h"

namespace ensemble::core::calendar {
namespace {

bool ReadDigits(std::string_view s, size_t at, size_t n, int* value) {
  int v = 0;
  for (size_t i = at; i < at + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    v = v * 10 + (s[i] - '0');
  }
  *value = v;
  return true;
}

}  // namespace

std::optional<WeekDate> ParseWeekDate(std::string_view s) {
  WeekDate d;
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return std::nullopt;
  if (!ReadDigits(s, 0, 4, &d.year) || !ReadDigits(s, 5, 2, &d.month) ||
      !ReadDigits(s, 8, 2, &d.day)) {
    return std::nullopt;
  }
  if (d.year < kMinYear || d.month < 1 || d.month > 12 || d.day < 1 ||
      d.day > calendar::DaysInMonth(d.year, d.month)) {
    return std::nullopt;
  }
  const int64_t days = calendar::DaysFromCivil(d.year, d.month, d.day);
  const int sunday_based = calendar::WeekdayFromDays(days);
  d.iso_weekday = sunday_based == 0 ? 7 : sunday_based;
  // ISO 8601: a week belongs to the year that holds its Thursday.
  const int64_t thursday = days + (4 - d.iso_weekday);
  d.iso_year = static_cast<int>(calendar::CivilFromDays(thursday).year);
  d.iso_week = static_cast<int>((thursday - calendar::DaysFromCivil(d.iso_year, 1, 1)) / 7 + 1);
  return d;
}

std::string_view WeekdayName(int iso_weekday) {
  static constexpr std::string_view kNames[] = {"Monday", "Tuesday",  "Wednesday", "Thursday",
                                                "Friday", "Saturday", "Sunday"};
  if (iso_weekday < 1 || iso_weekday > 7) return "";
  return kNames[iso_weekday - 1];
}

std::string IsoWeekLabel(const WeekDate& date) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%04d-W%02d", date.iso_year, date.iso_week);
  return buf;
}

std::string AddDays(const WeekDate& date, int64_t days) {
  const calendar::CivilDate d =
      calendar::CivilFromDays(calendar::DaysFromCivil(date.year, date.month, date.day) + days);
  if (d.year < kMinYear || d.year > kMaxYear) return {};
  return calendar::IsoDateText(d);
}

int64_t DayStartMs(const WeekDate& date, std::string_view time_zone) {
  const int64_t local =
      calendar::DaysFromCivil(date.year, date.month, date.day) * calendar::kSecondsPerDay;
  auto zone = calendar::FindBuiltinZone(time_zone);
  return (zone ? zone->LocalToUtc(local) : local) * 1000;
}

std::string TodayIn(int64_t now_ms, std::string_view time_zone) {
  int64_t seconds = calendar::FloorDiv(now_ms, 1000);
  if (auto zone = calendar::FindBuiltinZone(time_zone)) seconds += zone->OffsetAt(seconds);
  const calendar::CivilDate d =
      calendar::CivilFromDays(calendar::FloorDiv(seconds, calendar::kSecondsPerDay));
  return calendar::IsoDateText(d);
}

}  // namespace ensemble::core::calendar
