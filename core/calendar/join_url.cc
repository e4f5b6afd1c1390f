#include "core/calendar/join_url.h"

#include <cctype>

#include "core/text/ascii.h"

namespace ensemble::core::calendar {
namespace {

bool StartsWithNoCase(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (text::AsciiLower(s[i]) != prefix[i]) return false;
  }
  return true;
}

bool EndsWithNoCase(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && StartsWithNoCase(s.substr(s.size() - suffix.size()), suffix);
}

bool ContainsNoCase(std::string_view s, std::string_view needle) {
  for (size_t i = 0; i + needle.size() <= s.size(); ++i) {
    if (StartsWithNoCase(s.substr(i), needle)) return true;
  }
  return false;
}

bool HostIs(std::string_view host, std::string_view domain) {
  return host.size() == domain.size() ? StartsWithNoCase(host, domain)
                                      : EndsWithNoCase(host, std::string(".") += domain);
}

bool IsMeetingUrl(std::string_view url) {
  const size_t scheme = url.find("://");
  std::string_view rest = url.substr(scheme + 3);
  const size_t slash = rest.find('/');
  if (slash == std::string_view::npos) return false;
  std::string_view host = rest.substr(0, slash);
  const size_t colon = host.find(':');
  if (colon != std::string_view::npos) host = host.substr(0, colon);
  const std::string_view path = rest.substr(slash);
  if (HostIs(host, "meet.google.com")) {
    // /abc-defg-hij, or /lookup/... for older links.
    return path.size() >= 4 &&
           (path.find('-') != std::string_view::npos || StartsWithNoCase(path, "/lookup/"));
  }
  if (HostIs(host, "teams.microsoft.com")) {
    return StartsWithNoCase(path, "/l/meetup-join/") || StartsWithNoCase(path, "/meet/") ||
           StartsWithNoCase(path, "/l/meet/");
  }
  if (HostIs(host, "teams.live.com")) return StartsWithNoCase(path, "/meet/");
  if (HostIs(host, "zoom.us") || HostIs(host, "zoomgov.com") || HostIs(host, "zoom.com")) {
    return StartsWithNoCase(path, "/j/") || StartsWithNoCase(path, "/my/") ||
           StartsWithNoCase(path, "/w/") || StartsWithNoCase(path, "/s/");
  }
  if (HostIs(host, "webex.com")) {
    return ContainsNoCase(path, "/meet/") || ContainsNoCase(path, "/j.php") ||
           ContainsNoCase(path, "/join/") || ContainsNoCase(path, "/wbxmjs/") ||
           ContainsNoCase(path, "/m/");
  }
  return false;
}

bool EndsUrl(char c) {
  return static_cast<unsigned char>(c) <= ' ' || c == '<' || c == '>' || c == '"' || c == '\'' ||
         c == '\\' || c == '|' || c == '{' || c == '}' || c == '`' || c == '^';
}

}  // namespace

std::string FindJoinUrl(std::string_view text) {
  size_t pos = 0;
  while (true) {
    const size_t found = [&] {
      for (size_t i = pos; i + 8 <= text.size(); ++i) {
        if ((text[i] == 'h' || text[i] == 'H') && (StartsWithNoCase(text.substr(i), "https://") ||
                                                   StartsWithNoCase(text.substr(i), "http://"))) {
          return i;
        }
      }
      return std::string_view::npos;
    }();
    if (found == std::string_view::npos) return {};
    size_t end = found;
    while (end < text.size() && !EndsUrl(text[end])) ++end;
    std::string_view url = text.substr(found, end - found);
    while (!url.empty() &&
           (url.back() == '.' || url.back() == ',' || url.back() == ';' || url.back() == ')' ||
            url.back() == ']' || url.back() == '!' || url.back() == '?')) {
      url.remove_suffix(1);
    }
    if (IsMeetingUrl(url)) return std::string(url);
    pos = end > found ? end : found + 1;
  }
}

}  // namespace ensemble::core::calendar
