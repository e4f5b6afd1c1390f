#include "core/calendar/meeting_key.h"

#include <algorithm>
#include <array>

#include "core/text/ascii.h"

namespace ensemble::core::calendar {
namespace {

// Enough path segments for every link shape below.
constexpr size_t kMaxSegments = 8;
// Only this much of a token is searched for a meeting host.
constexpr size_t kHostSearchChars = 96;

bool EndsWithIgnoreCase(std::string_view s, std::string_view lower) {
  return s.size() >= lower.size() &&
         text::EqualsIgnoringAsciiCase(s.substr(s.size() - lower.size()), lower);
}

// host is `domain` or a subdomain of it.
bool IsHost(std::string_view host, std::string_view domain) {
  return text::EqualsIgnoringAsciiCase(host, domain) ||
         (EndsWithIgnoreCase(host, domain) && host[host.size() - domain.size() - 1] == '.');
}

size_t FindIgnoreCase(std::string_view s, std::string_view lower) {
  if (lower.size() > s.size()) return std::string_view::npos;
  for (size_t i = 0; i + lower.size() <= s.size(); ++i) {
    if (text::AsciiLower(s[i]) == lower[0] &&
        text::EqualsIgnoringAsciiCase(s.substr(i, lower.size()), lower))
      return i;
  }
  return std::string_view::npos;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  c = text::AsciiLower(c);
  return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

// Appends `s` percent-decoded (and lower-cased when `lower`) to `out`.
void AppendDecoded(std::string_view s, bool lower, std::string* out) {
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '%' && i + 2 < s.size() && HexValue(s[i + 1]) >= 0 && HexValue(s[i + 2]) >= 0) {
      c = static_cast<char>(HexValue(s[i + 1]) * 16 + HexValue(s[i + 2]));
      i += 2;
    }
    out->push_back(lower ? text::AsciiLower(c) : c);
  }
}

void AppendDigits(std::string_view s, std::string* out) {
  for (char c : s) {
    if (c >= '0' && c <= '9') out->push_back(c);
  }
}

bool HasDigit(std::string_view s) {
  return std::any_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The raw value of `name` (lower case) in a query string, or "".
std::string_view QueryValue(std::string_view query, std::string_view name) {
  size_t i = 0;
  while (i < query.size()) {
    size_t j = query.find('&', i);
    if (j == std::string_view::npos) j = query.size();
    const std::string_view pair = query.substr(i, j - i);
    const size_t eq = pair.find('=');
    if (eq != std::string_view::npos && text::EqualsIgnoringAsciiCase(pair.substr(0, eq), name)) {
      return pair.substr(eq + 1);
    }
    i = j + 1;
  }
  return {};
}

bool Append(std::string* out, std::string_view prefix, std::string_view value, bool lower) {
  out->append(prefix);
  AppendDecoded(value, lower, out);
  return true;
}

bool Classify(std::string_view url, std::string* out, bool* personal) {
  *personal = false;
  const size_t scheme = url.find("://");
  if (scheme != std::string_view::npos) url.remove_prefix(scheme + 3);
  size_t host_end = url.find_first_of("/?#");
  if (host_end == std::string_view::npos) host_end = url.size();
  std::string_view host = url.substr(0, host_end);
  if (const size_t at = host.rfind('@'); at != std::string_view::npos) host.remove_prefix(at + 1);
  if (const size_t colon = host.find(':'); colon != std::string_view::npos)
    host = host.substr(0, colon);
  std::string_view rest = url.substr(host_end), query;
  if (const size_t hash = rest.find('#'); hash != std::string_view::npos)
    rest = rest.substr(0, hash);
  if (const size_t q = rest.find('?'); q != std::string_view::npos) {
    query = rest.substr(q + 1);
    rest = rest.substr(0, q);
  }
  std::array<std::string_view, kMaxSegments> seg;
  size_t n = 0;
  for (size_t i = 0; i < rest.size() && n < kMaxSegments;) {
    size_t j = rest.find('/', i);
    if (j == std::string_view::npos) j = rest.size();
    if (j > i) seg[n++] = rest.substr(i, j - i);
    i = j + 1;
  }
  if (IsHost(host, "teams.microsoft.com") || IsHost(host, "teams.live.com") ||
      IsHost(host, "teams.microsoft.us")) {
    if (n >= 3 && text::EqualsIgnoringAsciiCase(seg[0], "l") &&
        text::EqualsIgnoringAsciiCase(seg[1], "meetup-join")) {
      return Append(out, "teams:", seg[2], false);
    }
    if (n >= 2 && text::EqualsIgnoringAsciiCase(seg[0], "meet"))
      return Append(out, "teams:meet:", seg[1], false);
    return false;
  }
  if (text::EqualsIgnoringAsciiCase(host, "meet.google.com")) {
    if (n == 0) return false;
    if (n >= 2 && text::EqualsIgnoringAsciiCase(seg[0], "lookup"))
      return Append(out, "meet:lookup:", seg[1], true);
    return Append(out, "meet:", seg[0], true);
  }
  if (IsHost(host, "zoom.us") || IsHost(host, "zoomgov.com")) {
    for (size_t i = 0; i + 1 < n; ++i) {
      if (text::EqualsIgnoringAsciiCase(seg[i], "my")) {
        *personal = true;
        return Append(out, "zoom:my:", seg[i + 1], true);
      }
      const bool id_follows = text::EqualsIgnoringAsciiCase(seg[i], "j") ||
                              text::EqualsIgnoringAsciiCase(seg[i], "w") ||
                              text::EqualsIgnoringAsciiCase(seg[i], "s") ||
                              text::EqualsIgnoringAsciiCase(seg[i], "join") ||
                              (text::EqualsIgnoringAsciiCase(seg[i], "wc") &&
                               !text::EqualsIgnoringAsciiCase(seg[i + 1], "join"));
      if (id_follows && HasDigit(seg[i + 1])) {
        out->append("zoom:");
        AppendDigits(seg[i + 1], out);
        return true;
      }
    }
    return false;
  }
  if (IsHost(host, "webex.com")) {
    if (const std::string_view mtid = QueryValue(query, "mtid"); !mtid.empty()) {
      return Append(out, "webex:", mtid, true);
    }
    for (size_t i = 0; i + 1 < n; ++i) {
      if (text::EqualsIgnoringAsciiCase(seg[i], "meet") ||
          text::EqualsIgnoringAsciiCase(seg[i], "join")) {
        *personal = true;
        Append(out, "webex:", host, true);
        return Append(out, "/meet/", seg[i + 1], true);
      }
      if (text::EqualsIgnoringAsciiCase(seg[i], "download") && i + 2 == n) {
        return Append(out, "webex:", seg[i + 1], true);
      }
    }
    if (n == 0) return false;
    Append(out, "webex:", host, true);
    for (size_t i = 0; i < n; ++i) Append(out, "/", seg[i], true);
    return true;
  }
  return false;
}

// Characters that end a link inside free text.
constexpr std::array<bool, 256> kDelimiter = [] {
  std::array<bool, 256> t{};
  for (unsigned char c : std::string_view(" \t\r\n\"'<>()[]{}|,")) t[c] = true;
  return t;
}();

bool IsDelimiter(char c) { return kDelimiter[static_cast<unsigned char>(c)]; }

// True when a token can be a link to one of the known hosts.
bool MentionsMeetingHost(std::string_view token) {
  const std::string_view head = token.substr(0, std::min(token.size(), kHostSearchChars));
  return FindIgnoreCase(head, "zoom") != std::string_view::npos ||
         FindIgnoreCase(head, "teams.") != std::string_view::npos ||
         FindIgnoreCase(head, "meet.google.") != std::string_view::npos ||
         FindIgnoreCase(head, "webex.") != std::string_view::npos;
}

}  // namespace

bool AppendMeetingKey(std::string_view text, std::string* out, bool* personal_room) {
  const size_t mark = out->size();
  // A join link alone (the usual case): classify it as a whole.
  if (text.size() > 8 && std::none_of(text.begin(), text.end(), IsDelimiter)) {
    if (Classify(text, out, personal_room)) return true;
    out->resize(mark);
    *personal_room = false;
    return false;
  }
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && IsDelimiter(text[i])) ++i;
    size_t j = i;
    while (j < text.size() && !IsDelimiter(text[j])) ++j;
    const std::string_view token = text.substr(i, j - i);
    // A link has a dot in its host; most words of a description do not.
    if (token.size() > 8 && token.find('.') != std::string_view::npos &&
        MentionsMeetingHost(token)) {
      if (Classify(token, out, personal_room)) return true;
      out->resize(mark);
    }
    i = j;
  }
  *personal_room = false;
  return false;
}

MeetingKey ExtractMeetingKey(std::string_view text) {
  MeetingKey key;
  AppendMeetingKey(text, &key.key, &key.personal_room);
  return key;
}

}  // namespace ensemble::core::calendar
