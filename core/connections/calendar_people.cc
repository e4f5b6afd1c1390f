#include "core/connections/calendar_people.h"

#include <algorithm>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "core/calendar/ics_calendar.h"
#include "core/people/person.h"
#include "core/text/redact.h"
#include "core/text/trim.h"

namespace ensemble::core::connections {
namespace calendar_people {

// Addresses of calendars rather than people: meeting rooms and shared
// calendars appear as attendees of the events they are booked for.
constexpr std::string_view kResourceDomains[] = {"resource.calendar.google.com",
                                                 "group.calendar.google.com"};

bool IsPersonAddress(std::string_view email) {
  const size_t at = email.find('@');
  if (at == std::string_view::npos || at == 0 || at + 1 >= email.size()) return false;
  const std::string_view domain = email.substr(at + 1);
  for (std::string_view resource : kResourceDomains) {
    if (domain == resource || domain.ends_with("." + std::string(resource))) return false;
  }
  return email.size() <= people::kMaxEmailChars;
}

}  // namespace calendar_people

using calendar_people::IsPersonAddress;

Result<CalendarPeople> PeopleInCalendar(std::string_view feed, int64_t now_ms,
                                        std::string_view own_email) {
  calendar::ExpandOptions options;
  options.window = calendar::DefaultWindow(now_ms / 1000);
  ENSEMBLE_ASSIGN_OR_RETURN(calendar::ExpandedCalendar expanded,
                            calendar::ExpandIcs(feed, "app", options));
  const std::string own = people::NormalizeEmail(own_email);
  std::vector<AppPerson> found;
  std::unordered_map<std::string, size_t> index;  // Normalized address -> found.
  auto add = [&](std::string_view email, std::string_view name) {
    std::string key = people::NormalizeEmail(email);
    if (!IsPersonAddress(key) || key == own) return;
    auto [it, inserted] = index.try_emplace(key, found.size());
    if (inserted) found.push_back({key, std::string(), 0});
    AppPerson& p = found[it->second];
    ++p.events;
    if (p.name.empty() && !name.empty() && people::NormalizeEmail(name) != key) {
      // An attendee's name is outside text: redacted as it comes in.
      p.name = text::TruncateChars(text::RedactSecrets(name), people::kMaxNameChars);
    }
  };
  for (const calendar::CalendarEvent& e : expanded.events) {
    // One count per event: a person listed twice on it is still one meeting.
    std::unordered_map<std::string, bool> seen_here;
    auto once = [&](std::string_view email, std::string_view name) {
      if (seen_here.emplace(people::NormalizeEmail(email), true).second) add(email, name);
    };
    if (!e.organizer.empty()) once(e.organizer, "");
    for (const calendar::Attendee& a : e.attendees) once(a.email, a.name);
  }
  for (AppPerson& p : found) {
    if (p.name.empty()) p.name = p.email;
  }
  CalendarPeople out;
  if (found.size() > kMaxImportPeople) {
    // Those met most often are the ones worth a record.
    std::stable_sort(found.begin(), found.end(),
                     [](const AppPerson& a, const AppPerson& b) { return a.events > b.events; });
    out.left_out = found.size() - kMaxImportPeople;
    found.resize(kMaxImportPeople);
  }
  std::sort(found.begin(), found.end(), [](const AppPerson& a, const AppPerson& b) {
    return std::tie(a.name, a.email) < std::tie(b.name, b.email);
  });
  out.people = std::move(found);
  return out;
}

}  // namespace ensemble::core::connections
