// Dates, times, zones and durations as transcripts and their file names
// write them: "March 14, 2025, 10:01AM", "2025/03/12 10:00 CET",
// "GMT20250314-090103" (Zoom), "20250314_100102" (Teams), "42m 10s".
//
// Thread-safety: stateless.

#ifndef ENSEMBLE_CORE_MEETINGS_DATES_H_
#define ENSEMBLE_CORE_MEETINGS_DATES_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace ensemble::core::meetings::internal {

struct WhenFound {
  std::string date;  // YYYY-MM-DD
  std::string time;  // HH:MM, or empty
  std::string zone;  // As written ("CET", "GMT+1", "Europe/Berlin"; "UTC" for Zoom's GMT stamp)
};

// Finds the first date in `s` (ISO, compact yyyymmdd, or with a month name),
// with a time and a named zone right after it. [*begin, *end) is the span.
bool FindDateTime(std::string_view s, WhenFound* when, size_t* begin, size_t* end);

// A duration that is the whole of `s`: "42m 10s", "1h 2m", "1 hour 5 minutes".
bool ParseDurationText(std::string_view s, int64_t* seconds);

}  // namespace ensemble::core::meetings::internal

#endif  // ENSEMBLE_CORE_MEETINGS_DATES_H_
