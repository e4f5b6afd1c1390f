// The iCalendar (RFC 5545) syntax layer: content lines (unfolded), their
// parameters (quoted values, RFC 6868 ^-escapes) and the BEGIN/END component
// tree. Meaning (events, zones, recurrence) is read by ics_calendar.h.
// Input that does not start with BEGIN:VCALENDAR is refused. Plain data;
// safe to share read-only between threads.

#ifndef ENSEMBLE_CORE_CALENDAR_ICS_PARSER_H_
#define ENSEMBLE_CORE_CALENDAR_ICS_PARSER_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"

namespace ensemble::core::calendar {

namespace codes {
// The text is not an iCalendar object (it does not start with BEGIN:VCALENDAR).
inline constexpr std::string_view kNotICalendar = "ICS_NOT_CALENDAR";
// The calendar is structurally broken (unbalanced or too deeply nested).
inline constexpr std::string_view kMalformedICalendar = "ICS_MALFORMED";
}  // namespace codes

// The spec's cap on one calendar link's body.
inline constexpr size_t kMaxIcsBytes = 5 * 1024 * 1024;
// One unfolded content line (a long DESCRIPTION fits; a runaway line does not).
inline constexpr size_t kMaxContentLineBytes = 1024 * 1024;
inline constexpr size_t kMaxComponentDepth = 8;
inline constexpr size_t kMaxParametersPerLine = 64;

struct IcsParameter {
  std::string name;  // Upper case.
  std::vector<std::string> values;
};

struct IcsProperty {
  std::string name;  // Upper case.
  std::vector<IcsParameter> params;
  std::string value;  // Raw: TEXT escapes are left for UnescapeText.

  // The first value of a parameter, or nullptr.
  const std::string* Param(std::string_view param_name) const;
};

struct IcsComponent {
  std::string name;  // Upper case: VCALENDAR, VEVENT, VTIMEZONE, STANDARD...
  std::vector<IcsProperty> properties;
  std::vector<IcsComponent> children;

  const IcsProperty* Find(std::string_view property_name) const;  // The first, or nullptr.
};

// Parses every VCALENDAR in `text` (feeds sometimes concatenate several).
// Lines may end in CRLF, LF or CR; a leading byte-order mark is skipped;
// lines that are not "NAME[;PARAMS]:VALUE" are skipped, as are properties
// outside any component. A missing END at the end of input is tolerated.
Result<std::vector<IcsComponent>> ParseIcs(std::string_view text);

// Undoes TEXT escaping: \\ \; \, \n \N.
std::string UnescapeText(std::string_view raw);

}  // namespace ensemble::core::calendar

#endif  // ENSEMBLE_CORE_CALENDAR_ICS_PARSER_H_
