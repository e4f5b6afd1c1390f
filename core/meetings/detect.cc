#include "core/meetings/detect.h"

#include <array>

#include "core/meetings/dates.h"
#include "core/meetings/extract.h"
#include "core/meetings/scan.h"
#include "core/meetings/transcript.h"

namespace ensemble::core::meetings::internal {
namespace {

using scan::IsAsciiAlpha;
using scan::IsDigit;
using scan::Trim;

bool IsUpperStart(std::string_view word) {
  if (word.empty()) return false;
  unsigned char c = static_cast<unsigned char>(word[0]);
  return (c >= 'A' && c <= 'Z') || c >= 0x80 || IsDigit(word[0]) || c == '(';
}

// Lower-case particles of family names ("Ana de Souza", "Jan van der Berg").
bool IsParticle(std::string_view word) {
  static constexpr std::array<std::string_view, 16> kParticles = {
      "de", "da", "do", "dos", "das", "del", "della", "di", "du", "van", "von", "der", "den",
      "la", "le", "bin"};
  for (std::string_view p : kParticles) {
    if (word == p) return true;
  }
  return false;
}

bool IsNameByte(unsigned char c) {
  return c >= 0x80 || IsAsciiAlpha(static_cast<char>(c)) || IsDigit(static_cast<char>(c)) ||
         c == ' ' || c == '.' || c == '-' || c == '\'' || c == '(' || c == ')' || c == '@' ||
         c == '_';
}

}  // namespace

bool IsPlausibleName(std::string_view name) {
  if (name.empty() || name.size() > kMaxNameBytes) return false;
  bool email = false;
  for (char ch : name) {
    if (!IsNameByte(static_cast<unsigned char>(ch))) return false;
    if (ch == '@') email = true;
  }
  if (email) return name.find(' ') == std::string_view::npos;
  size_t words = 0;
  size_t i = 0;
  while (i < name.size()) {
    while (i < name.size() && name[i] == ' ') ++i;
    if (i >= name.size()) break;
    size_t start = i;
    while (i < name.size() && name[i] != ' ') ++i;
    std::string_view word = name.substr(start, i - start);
    ++words;
    if (words > kMaxNameWords) return false;
    if (words == 1) {
      if (IsDigit(word[0]) || word[0] == '(' || !IsUpperStart(word)) return false;
    } else if (!IsUpperStart(word) && !IsParticle(word)) {
      return false;
    }
  }
  return words > 0;
}

bool MatchTimedHeader(std::string_view line, std::string_view* name, int64_t* ms,
                      std::string_view* rest) {
  line = Trim(line);
  const size_t limit = std::min(line.size(), kMaxNameBytes + 8);
  for (size_t i = 1; i < limit; ++i) {
    if (!IsDigit(line[i]) || !scan::IsSpace(line[i - 1])) continue;
    int64_t value = 0;
    size_t n = scan::ClockPrefix(line.substr(i), &value);
    if (n == 0) continue;
    std::string_view candidate = Trim(line.substr(0, i));
    if (!IsPlausibleName(candidate)) return false;
    *name = candidate;
    *ms = value;
    *rest = Trim(line.substr(i + n));
    return true;
  }
  return false;
}

bool MatchZoomHeader(std::string_view line, std::string_view* name, int64_t* ms,
                     std::string_view* rest) {
  line = Trim(line);
  if (line.size() < 8 || line[0] != '[') return false;
  size_t close = line.find(']', 1);
  if (close == std::string_view::npos || close > kMaxNameBytes + 1) return false;
  std::string_view candidate = Trim(line.substr(1, close - 1));
  size_t i = close + 1;
  while (i < line.size() && line[i] == ' ') ++i;
  if (i == close + 1 || i >= line.size()) return false;
  int64_t value = 0;
  size_t n = scan::ClockPrefix(line.substr(i), &value);
  if (n == 0 || candidate.empty() || candidate.size() > kMaxNameBytes) return false;
  // Zoom keeps whatever display name people chose: accept any short name.
  for (char c : candidate) {
    if (c == '[' || c == ']' || c == ':') return false;
  }
  *name = candidate;
  *ms = value;
  *rest = Trim(line.substr(i + n));
  return true;
}

namespace {

// A leading "[00:01]", "(00:01)" or "00:01 " stamp: its length (with the
// space after), 0 if none.
size_t LeadingStamp(std::string_view line, int64_t* ms) {
  if (line.empty()) return 0;
  if (line[0] == '[' || line[0] == '(') {
    char close = line[0] == '[' ? ']' : ')';
    size_t end = line.find(close);
    if (end == std::string_view::npos || end > 16) return 0;
    if (!scan::ParseClock(Trim(line.substr(1, end - 1)), ms)) return 0;
    size_t i = end + 1;
    while (i < line.size() && line[i] == ' ') ++i;
    return i;
  }
  if (!IsDigit(line[0])) return 0;
  size_t n = scan::ClockPrefix(line, ms);
  if (n == 0) return 0;
  size_t i = n;
  while (i < line.size() && line[i] == ' ') ++i;
  if (i < line.size() && (line[i] == '-' || line[i] == '|')) {
    ++i;
    while (i < line.size() && line[i] == ' ') ++i;
  }
  return i;
}

}  // namespace

bool MatchSpeakerLine(std::string_view line, std::string_view* name, int64_t* ms,
                      std::string_view* rest) {
  line = Trim(line);
  int64_t stamp = kNoTime;
  size_t at = LeadingStamp(line, &stamp);
  std::string_view body = line.substr(at);
  const size_t limit = std::min(body.size(), kMaxNameBytes + 1);
  size_t colon = std::string_view::npos;
  for (size_t i = 1; i < limit; ++i) {
    if (body[i] == ':') {
      colon = i;
      break;
    }
  }
  if (colon == std::string_view::npos) return false;
  if (colon + 1 < body.size() && body[colon + 1] != ' ' && body[colon + 1] != '\t') return false;
  std::string_view candidate = Trim(body.substr(0, colon));
  // Markdown bold names: "**Ana Silva**: text".
  if (candidate.size() > 4 && candidate.substr(0, 2) == "**" &&
      candidate.substr(candidate.size() - 2) == "**") {
    candidate = Trim(candidate.substr(2, candidate.size() - 4));
  }
  if (!IsPlausibleName(candidate)) return false;
  std::string_view key, value;
  if (MatchMetaKey(line, &key, &value)) return false;
  *name = candidate;
  *ms = stamp;
  *rest = Trim(body.substr(colon + 1));
  return true;
}

bool MatchTimeLine(std::string_view line, int64_t* ms) {
  line = Trim(line);
  if (line.size() < 4 || line.size() > 16) return false;
  if ((line.front() == '[' && line.back() == ']') || (line.front() == '(' && line.back() == ')')) {
    line = Trim(line.substr(1, line.size() - 2));
  }
  return scan::ParseClock(line, ms);
}

bool MatchMetaKey(std::string_view line, std::string_view* key, std::string_view* value) {
  static constexpr std::array<std::string_view, 18> kKeys = {
      "title", "meeting title", "meeting", "subject", "date", "time", "start time", "when",
      "duration", "length", "attendees", "participants", "invitees", "location", "organizer",
      "organiser", "recorded", "recorded on"};
  line = Trim(line);
  size_t colon = line.find(':');
  if (colon == std::string_view::npos || colon > 16) return false;
  std::string_view k = Trim(line.substr(0, colon));
  for (std::string_view candidate : kKeys) {
    if (scan::EqualsIgnoreCase(k, candidate)) {
      *key = candidate;
      *value = Trim(line.substr(colon + 1));
      return true;
    }
  }
  return false;
}

namespace {

bool HasMarker(std::string_view head, std::string_view tail, std::string_view needle) {
  return scan::FindIgnoreCase(head, needle) != std::string_view::npos ||
         scan::FindIgnoreCase(tail, needle) != std::string_view::npos;
}

}  // namespace

std::string_view DetectTextFormat(std::string_view text, bool from_docx) {
  size_t zoom = 0, timed = 0, speaker = 0, time_lines = 0, nonempty = 0, durations = 0;
  bool otter_heading = false, attendees_heading = false;
  scan::LineReader lines(text);
  std::string_view line;
  while (nonempty < kDetectLines && lines.Next(&line)) {
    line = Trim(line);
    if (line.empty()) continue;
    ++nonempty;
    std::string_view name, rest;
    int64_t ms = 0;
    if (line[0] == '[' && MatchZoomHeader(line, &name, &ms, &rest)) {
      ++zoom;
    } else if (MatchTimedHeader(line, &name, &ms, &rest)) {
      ++timed;
    } else if (MatchTimeLine(line, &ms)) {
      ++time_lines;
    } else if (MatchSpeakerLine(line, &name, &ms, &rest)) {
      ++speaker;
    } else {
      int64_t seconds = 0;
      if (ParseDurationText(line, &seconds)) ++durations;
      if (line == "SPEAKERS" || line == "SUMMARY KEYWORDS") otter_heading = true;
      if (scan::EqualsIgnoreCase(line, "attendees")) attendees_heading = true;
    }
  }
  std::string_view head = text.substr(0, std::min(text.size(), kMarkerWindowBytes));
  std::string_view tail =
      text.size() > kMarkerWindowBytes ? text.substr(text.size() - kMarkerWindowBytes) : "";

  if (zoom >= 2 || (zoom >= 1 && zoom >= speaker && zoom >= timed)) return formats::kZoomTxt;
  if (timed >= 2 || (timed >= 1 && timed >= speaker)) {
    if (otter_heading || HasMarker(head, tail, "otter.ai")) return formats::kOtter;
    if (from_docx || durations > 0 || HasMarker(head, tail, "started transcription")) {
      return formats::kTeamsDocx;
    }
    return formats::kTeamsCopy;
  }
  if (speaker >= 3 || (speaker >= 1 && speaker * 5 >= nonempty)) {
    if (HasMarker(head, tail, "This editable transcript was computer generated") ||
        HasMarker(head, tail, "Notes by Gemini") || (attendees_heading && time_lines > 0)) {
      return formats::kGoogleMeet;
    }
    return formats::kSpeakerLines;
  }
  return formats::kPlain;
}

}  // namespace ensemble::core::meetings::internal
