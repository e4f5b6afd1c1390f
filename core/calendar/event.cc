#include "core/calendar/event.h"

#include <cstdio>
#include <cstdlib>

namespace ensemble::core::calendar {
namespace {

// Days since 1970-01-01 to a civil date (H. Hinnant's algorithm).
void CivilFromDays(int64_t z, int64_t& y, unsigned& m, unsigned& d) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  y = static_cast<int64_t>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  if (m <= 2) ++y;
}

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

}  // namespace

std::string SourceKindName(SourceKind kind) {
  switch (kind) {
    case SourceKind::kGoogle: return "google";
    case SourceKind::kOutlook: return "outlook";
    case SourceKind::kIcs: return "ics";
  }
  return "ics";
}

std::string FormatIsoTime(int64_t utc_seconds, int32_t offset_seconds, bool utc_z) {
  const int64_t local = utc_seconds + offset_seconds;
  const int64_t days = FloorDiv(local, 86400);
  const int64_t secs = local - days * 86400;
  int64_t y;
  unsigned m, d;
  CivilFromDays(days, y, m, d);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04lld-%02u-%02uT%02d:%02d:%02d", static_cast<long long>(y), m,
                d, static_cast<int>(secs / 3600), static_cast<int>(secs / 60 % 60),
                static_cast<int>(secs % 60));
  std::string out = buf;
  if (offset_seconds == 0 && utc_z) return out + "Z";
  const int32_t off = std::abs(offset_seconds);
  std::snprintf(buf, sizeof buf, "%c%02d:%02d", offset_seconds < 0 ? '-' : '+', off / 3600,
                off / 60 % 60);
  return out + buf;
}

std::string FormatIsoDate(int64_t utc_midnight_seconds) {
  int64_t y;
  unsigned m, d;
  CivilFromDays(FloorDiv(utc_midnight_seconds, 86400), y, m, d);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04lld-%02u-%02u", static_cast<long long>(y), m, d);
  return buf;
}

nlohmann::json ToJson(const CalendarEvent& event) {
  nlohmann::json out;
  out["uid"] = event.uid;
  out["recurrenceId"] = event.original_start == 0
                            ? nlohmann::json(nullptr)
                            : nlohmann::json(event.all_day ? FormatIsoDate(event.original_start)
                                                           : FormatIsoTime(event.original_start,
                                                                           event.start_offset));
  out["start"] = event.all_day ? FormatIsoDate(event.start)
                               : FormatIsoTime(event.start, event.start_offset);
  out["end"] =
      event.all_day ? FormatIsoDate(event.end) : FormatIsoTime(event.end, event.end_offset);
  out["allDay"] = event.all_day;
  out["summary"] = event.title;
  out["calendar"] = event.calendar;
  return out;
}

}  // namespace ensemble::core::calendar
