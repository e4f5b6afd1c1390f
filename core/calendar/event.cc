#include "core/calendar/event.h"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/calendar/civil_time.h"

namespace ensemble::core::calendar {

std::string SourceKindName(SourceKind kind) {
  switch (kind) {
    case SourceKind::kGoogle:
      return "google";
    case SourceKind::kOutlook:
      return "outlook";
    case SourceKind::kIcs:
      return "ics";
  }
  return "ics";
}

namespace {

// Appends `value` zero-padded to `width` (at most 4) digits, or all its
// digits when it has more, as printf's "%0<width>u" does.
void AppendPadded(std::string& out, unsigned value, int width) {
  if (value >= (width == 2 ? 100u : 10000u)) {
    out += std::to_string(value);
    return;
  }
  char digits[4];
  for (int i = width - 1; i >= 0; --i) {
    digits[i] = static_cast<char>('0' + value % 10);
    value /= 10;
  }
  out.append(digits, static_cast<size_t>(width));
}

// "YYYY-MM-DD" of the civil date `days` after 1970-01-01. Written by hand:
// a calendar's expansion formats two or three of these per occurrence, and
// snprintf was a tenth of the wasm build's time there (issue 30, part 4).
// Years outside 0..9999 keep snprintf's "%04lld" form.
void AppendDate(std::string& out, int64_t days) {
  const CivilDate date = CivilFromDays(days);
  if (date.year >= 0 && date.year <= 9999) {
    AppendPadded(out, static_cast<unsigned>(date.year), 4);
  } else {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%04lld", static_cast<long long>(date.year));
    out += buf;
  }
  out += '-';
  AppendPadded(out, static_cast<unsigned>(date.month), 2);
  out += '-';
  AppendPadded(out, static_cast<unsigned>(date.day), 2);
}

}  // namespace

std::string FormatIsoTime(int64_t utc_seconds, int32_t offset_seconds, bool utc_z) {
  const int64_t local = utc_seconds + offset_seconds;
  const int64_t days = FloorDiv(local, kSecondsPerDay);
  const int64_t secs = local - days * kSecondsPerDay;
  std::string out;
  out.reserve(25);
  AppendDate(out, days);
  out += 'T';
  AppendPadded(out, static_cast<unsigned>(secs / 3600), 2);
  out += ':';
  AppendPadded(out, static_cast<unsigned>(secs / 60 % 60), 2);
  out += ':';
  AppendPadded(out, static_cast<unsigned>(secs % 60), 2);
  if (offset_seconds == 0 && utc_z) return out + "Z";
  const unsigned off = static_cast<unsigned>(std::abs(offset_seconds));
  out += offset_seconds < 0 ? '-' : '+';
  AppendPadded(out, off / 3600, 2);
  out += ':';
  AppendPadded(out, off / 60 % 60, 2);
  return out;
}

std::string FormatIsoDate(int64_t utc_midnight_seconds) {
  std::string out;
  out.reserve(10);
  AppendDate(out, FloorDiv(utc_midnight_seconds, kSecondsPerDay));
  return out;
}

nlohmann::json ToJson(const CalendarEvent& event) {
  nlohmann::json out;
  out["uid"] = event.uid;
  out["recurrenceId"] =
      event.original_start == 0
          ? nlohmann::json(nullptr)
          : nlohmann::json(event.all_day ? FormatIsoDate(event.original_start)
                                         : FormatIsoTime(event.original_start, event.start_offset));
  out["start"] =
      event.all_day ? FormatIsoDate(event.start) : FormatIsoTime(event.start, event.start_offset);
  out["end"] =
      event.all_day ? FormatIsoDate(event.end) : FormatIsoTime(event.end, event.end_offset);
  out["allDay"] = event.all_day;
  out["summary"] = event.title;
  out["calendar"] = event.calendar;
  return out;
}

}  // namespace ensemble::core::calendar
