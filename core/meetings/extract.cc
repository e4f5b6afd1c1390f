#include "core/meetings/extract.h"

#include <array>

#include "core/meetings/dates.h"
#include "core/meetings/detect.h"
#include "core/meetings/scan.h"
#include "core/text/utf8.h"

namespace ensemble::core::meetings::internal {
namespace {

using scan::IsAsciiAlpha;
using scan::IsDigit;
using scan::IsWordByte;
using scan::Lower;
using scan::Trim;

bool IsSeparatorToken(std::string_view t) {
  return t == "-" || t == "|" || t == ":" || t == "\xE2\x80\x93" || t == "\xE2\x80\x94" ||
         t == "\xE2\x80\xA2" || t == "," || t == "@";
}

bool IsWeekday(std::string_view t) {
  static constexpr std::array<std::string_view, 7> kDays = {
      "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"};
  std::string_view bare = t;
  while (!bare.empty() && (bare.back() == ',' || bare.back() == '.')) bare.remove_suffix(1);
  for (std::string_view day : kDays) {
    if (scan::EqualsIgnoreCase(bare, day) || scan::EqualsIgnoreCase(bare, day.substr(0, 3))) {
      return true;
    }
  }
  return false;
}

bool IsGenericWord(std::string_view t) {
  static constexpr std::array<std::string_view, 16> kGeneric = {
      "meeting", "saved", "closed", "caption", "captions", "audio", "video", "zoom", "teams",
      "call", "recording", "transcript", "transcription", "chat", "notes", "gemini"};
  for (std::string_view g : kGeneric) {
    if (scan::EqualsIgnoreCase(t, g)) return true;
  }
  return false;
}

}  // namespace

std::string CleanTitle(std::string_view s) {
  s = Trim(s);
  while (!s.empty() && (s[0] == '#' || s[0] == '*' || s[0] == '>')) s = Trim(s.substr(1));
  std::string text(s);
  for (char& c : text) {
    if (c == '_' || c == '\t') c = ' ';
  }
  // Tokens: words, with separators kept apart from them.
  std::vector<std::string_view> tokens;
  std::string_view rest = text;
  while (!rest.empty()) {
    size_t i = 0;
    while (i < rest.size() && rest[i] == ' ') ++i;
    rest.remove_prefix(i);
    if (rest.empty()) break;
    size_t j = rest.find(' ');
    std::string_view token = rest.substr(0, j);
    rest.remove_prefix(j == std::string_view::npos ? rest.size() : j);
    // "sync-" and "-Meeting" came from removed stamps; "Stand-up" stays whole.
    while (token.size() > 1 && (token.front() == '-' || token.front() == '(' || token.front() == '[')) token.remove_prefix(1);
    while (token.size() > 1 && (token.back() == '-' || token.back() == ')' || token.back() == ']' || token.back() == ',')) token.remove_suffix(1);
    tokens.push_back(token);
  }
  std::vector<std::string_view> kept;
  for (size_t i = 0; i < tokens.size(); ++i) {
    std::string_view t = tokens[i];
    int64_t ms = 0;
    if (IsWeekday(t) || scan::ParseClock(t, &ms)) continue;
    if (scan::EqualsIgnoreCase(t, "transcript") || scan::EqualsIgnoreCase(t, "transcription") ||
        scan::EqualsIgnoreCase(t, "recording") || t == "()" || t == "[]") {
      if (!kept.empty() && scan::EqualsIgnoreCase(kept.back(), "meeting")) kept.pop_back();
      continue;
    }
    if (scan::EqualsIgnoreCase(t, "notes") && i + 2 < tokens.size() &&
        scan::EqualsIgnoreCase(tokens[i + 1], "by") && scan::EqualsIgnoreCase(tokens[i + 2], "gemini")) {
      i += 2;
      continue;
    }
    if (IsSeparatorToken(t) && (kept.empty() || IsSeparatorToken(kept.back()))) continue;
    kept.push_back(t);
  }
  while (!kept.empty() && IsSeparatorToken(kept.back())) kept.pop_back();
  bool specific = false;
  for (std::string_view t : kept) {
    if (!IsSeparatorToken(t) && !IsGenericWord(t)) {
      bool letters = false;
      for (char c : t) letters = letters || IsAsciiAlpha(c) || static_cast<unsigned char>(c) >= 0x80;
      specific = specific || letters;
    }
  }
  if (!specific) return "";
  std::string out;
  for (std::string_view t : kept) {
    if (!out.empty()) out += ' ';
    out.append(t);
  }
  return out;
}

void ApplyFileName(std::string_view file_name, Transcript* transcript) {
  size_t slash = file_name.find_last_of("/\\");
  std::string_view stem = slash == std::string_view::npos ? file_name : file_name.substr(slash + 1);
  // Up to two extensions ("x.transcript.vtt").
  for (int k = 0; k < 2; ++k) {
    size_t dot = stem.rfind('.');
    if (dot == std::string_view::npos || dot == 0 || stem.size() - dot > 11) break;
    std::string_view ext = stem.substr(dot + 1);
    bool known = false;
    for (std::string_view e : {"vtt", "srt", "txt", "text", "md", "docx", "doc", "json", "transcript"}) {
      known = known || scan::EqualsIgnoreCase(ext, e);
    }
    if (!known) break;
    stem = stem.substr(0, dot);
  }
  if (stem.empty()) return;
  WhenFound when;
  size_t begin = 0, end = 0;
  std::string title_source(stem);
  if (FindDateTime(stem, &when, &begin, &end)) {
    if (transcript->date.empty()) {
      transcript->date = when.date;
      transcript->time = when.time;
      transcript->time_zone = when.zone;
    }
    title_source = std::string(stem.substr(0, begin)) + " - " + std::string(stem.substr(end));
  }
  if (transcript->title.empty()) transcript->title = CleanTitle(title_source);
}

bool ReadPreambleLine(std::string_view line, Transcript* transcript) {
  line = Trim(line);
  if (line.empty()) return false;
  std::string_view key, value;
  if (MatchMetaKey(line, &key, &value)) {
    if (key == "title" || key == "meeting title" || key == "meeting" || key == "subject") {
      if (transcript->title.empty()) transcript->title = std::string(value);
    } else if (key == "duration" || key == "length") {
      int64_t seconds = 0, ms = 0;
      if (ParseDurationText(value, &seconds)) {
        transcript->duration_seconds = seconds;
      } else if (scan::ParseClock(value, &ms)) {
        transcript->duration_seconds = ms / 1000;
      }
    } else if (key == "attendees" || key == "participants" || key == "invitees") {
      for (std::string& name : SplitNames(value)) transcript->attendees.push_back(std::move(name));
    } else {
      WhenFound when;
      size_t b = 0, e = 0;
      if (transcript->date.empty() && FindDateTime(value, &when, &b, &e)) {
        transcript->date = when.date;
        transcript->time = when.time;
        transcript->time_zone = when.zone;
      }
    }
    return true;
  }
  if (line.size() > kMaxTitleBytes) return false;
  int64_t seconds = 0;
  if (ParseDurationText(line, &seconds)) {
    if (transcript->duration_seconds == kNoTime) transcript->duration_seconds = seconds;
    return true;
  }
  WhenFound when;
  size_t begin = 0, end = 0;
  std::string title_source(line);
  if (FindDateTime(line, &when, &begin, &end)) {
    if (transcript->date.empty()) {
      transcript->date = when.date;
      transcript->time = when.time;
      transcript->time_zone = when.zone;
    }
    // Otter: "Fri, Mar 14, 2025 9:01AM • 42:10".
    std::string_view after = Trim(line.substr(end));
    if (after.substr(0, 3) == "\xE2\x80\xA2") {
      int64_t ms = 0;
      if (scan::ParseClock(Trim(after.substr(3)), &ms) && transcript->duration_seconds == kNoTime) {
        transcript->duration_seconds = ms / 1000;
      }
      after = "";
    }
    title_source = std::string(line.substr(0, begin)) + " - " + std::string(after);
  }
  if (transcript->title.empty()) {
    std::string title = CleanTitle(title_source);
    if (!title.empty()) {
      transcript->title = std::move(title);
      return true;
    }
  }
  return begin != end;
}

SectionKind HeadingKind(std::string_view line) {
  line = Trim(line);
  if (line.empty() || line.size() > kMaxHeadingBytes) return SectionKind::kNone;
  // Leading Markdown marks and emoji; trailing colon and bold marks.
  while (!line.empty() && (line[0] == '#' || line[0] == '*' || line[0] == '_' || line[0] == ' ' ||
                           static_cast<unsigned char>(line[0]) >= 0xE2)) {
    if (static_cast<unsigned char>(line[0]) >= 0xE2) {
      // Skip one multi-byte character (emoji, symbols) and any variation selector.
      line.remove_prefix(text::DecodeUtf8Step(line, 0).length);
    } else {
      line.remove_prefix(1);
    }
  }
  while (!line.empty() && (line.back() == ':' || line.back() == '*' || line.back() == '_' || line.back() == ' ')) {
    line.remove_suffix(1);
  }
  if (line.empty() || !IsAsciiAlpha(line[0])) return SectionKind::kNone;
  struct Heading {
    std::string_view text;
    SectionKind kind;
  };
  static constexpr std::array<Heading, 40> kHeadings = {{
      {"summary", SectionKind::kSummary},
      {"meeting summary", SectionKind::kSummary},
      {"overview", SectionKind::kSummary},
      {"decisions", SectionKind::kDecisions},
      {"key decisions", SectionKind::kDecisions},
      {"decisions made", SectionKind::kDecisions},
      {"agreed", SectionKind::kDecisions},
      {"agreements", SectionKind::kDecisions},
      {"what we agreed", SectionKind::kDecisions},
      {"action items", SectionKind::kActions},
      {"action item", SectionKind::kActions},
      {"actions", SectionKind::kActions},
      {"next steps", SectionKind::kActions},
      {"suggested next steps", SectionKind::kActions},
      {"follow-ups", SectionKind::kActions},
      {"follow ups", SectionKind::kActions},
      {"follow-up items", SectionKind::kActions},
      {"to do", SectionKind::kActions},
      {"to-dos", SectionKind::kActions},
      {"todos", SectionKind::kActions},
      {"tasks", SectionKind::kActions},
      {"action items and next steps", SectionKind::kActions},
      {"attendees", SectionKind::kAttendees},
      {"participants", SectionKind::kAttendees},
      {"speakers", SectionKind::kAttendees},
      {"summary keywords", SectionKind::kIgnored},
      {"keywords", SectionKind::kIgnored},
      {"details", SectionKind::kIgnored},
      {"outline", SectionKind::kIgnored},
      {"chapters", SectionKind::kIgnored},
      {"topics", SectionKind::kIgnored},
      {"key points", SectionKind::kIgnored},
      {"transcript", SectionKind::kTranscript},
      {"meeting transcript", SectionKind::kTranscript},
      {"full transcript", SectionKind::kTranscript},
      {"notes", SectionKind::kDropLine},
      {"meeting notes", SectionKind::kDropLine},
      {"invited", SectionKind::kAttendees},
      {"decisions and agreements", SectionKind::kDecisions},
      {"open questions", SectionKind::kIgnored},
  }};
  for (const Heading& h : kHeadings) {
    if (scan::EqualsIgnoreCase(line, h.text)) return h.kind;
  }
  return SectionKind::kNone;
}

namespace {

// Removes list markers: "-", "*", "•", "1.", "1)", "[ ]", "[x]", "☐".
std::string_view StripBullet(std::string_view line) {
  line = Trim(line);
  for (int pass = 0; pass < 3; ++pass) {
    if (line.empty()) break;
    if (line[0] == '-' || line[0] == '*' || line[0] == '+') {
      if (line.size() > 1 && line[1] == '*') break;  // "**Name**"
      line = Trim(line.substr(1));
    } else if (line.substr(0, 3) == "\xE2\x80\xA2" || line.substr(0, 3) == "\xE2\x98\x90" ||
               line.substr(0, 3) == "\xE2\x80\x93") {
      line = Trim(line.substr(3));
    } else if (line.size() >= 3 && line[0] == '[' && line[2] == ']' &&
               (line[1] == ' ' || line[1] == 'x' || line[1] == 'X')) {
      line = Trim(line.substr(3));
    } else if (IsDigit(line[0])) {
      size_t i = 0;
      while (i < line.size() && i < 3 && IsDigit(line[i])) ++i;
      if (i < line.size() && (line[i] == '.' || line[i] == ')') && i + 1 < line.size() && line[i + 1] == ' ') {
        line = Trim(line.substr(i + 1));
      } else {
        break;
      }
    } else {
      break;
    }
  }
  return line;
}

// A trailing "(05:12)" or "(1:02:03)" stamp, as Fireflies writes them.
std::string_view StripTrailingStamp(std::string_view s) {
  s = Trim(s);
  if (s.size() > 6 && s.back() == ')') {
    size_t open = s.rfind('(');
    int64_t ms = 0;
    if (open != std::string_view::npos && scan::ParseClock(s.substr(open + 1, s.size() - open - 2), &ms)) {
      return Trim(s.substr(0, open));
    }
  }
  return s;
}

}  // namespace

void ParseWrittenItems(const std::vector<std::string_view>& lines, std::vector<Item>* out) {
  std::string group_owner;
  for (std::string_view raw : lines) {
    std::string_view line = StripBullet(raw);
    if (line.empty()) continue;
    // "**Ana Silva**" alone: the owner of the items below (Fireflies).
    if (line.size() > 4 && line.substr(0, 2) == "**" && line.substr(line.size() - 2) == "**" &&
        IsPlausibleName(Trim(line.substr(2, line.size() - 4)))) {
      group_owner = std::string(Trim(line.substr(2, line.size() - 4)));
      continue;
    }
    if (line.back() == ':' && IsPlausibleName(Trim(line.substr(0, line.size() - 1)))) {
      group_owner = std::string(Trim(line.substr(0, line.size() - 1)));
      continue;
    }
    Item item;
    item.owner = group_owner;
    std::string_view text = line;
    std::string_view name, rest;
    int64_t ms = 0;
    if (text[0] == '[') {
      size_t close = text.find(']');
      if (close != std::string_view::npos && IsPlausibleName(Trim(text.substr(1, close - 1)))) {
        item.owner = std::string(Trim(text.substr(1, close - 1)));
        text = Trim(text.substr(close + 1));
      }
    } else if (MatchSpeakerLine(text, &name, &ms, &rest) && !rest.empty()) {
      item.owner = std::string(name);
      text = rest;
    } else {
      // "Ana Silva will send ..." (Gemini's next steps).
      size_t will = text.find(" will ");
      if (will != std::string_view::npos && will <= kMaxNameBytes && IsPlausibleName(text.substr(0, will))) {
        item.owner = std::string(text.substr(0, will));
      }
    }
    text = StripTrailingStamp(text);
    if (text.empty()) continue;
    item.text = scan::BoundedText(text, kMaxItemChars);
    out->push_back(std::move(item));
  }
}

std::vector<std::string> SplitNames(std::string_view list) {
  std::vector<std::string> names;
  std::string_view rest = list;
  while (!rest.empty()) {
    size_t cut = rest.find_first_of(",;");
    std::string_view part = rest.substr(0, cut);
    rest.remove_prefix(cut == std::string_view::npos ? rest.size() : cut + 1);
    part = Trim(part);
    if (scan::StartsWithIgnoreCase(part, "and ")) part = Trim(part.substr(4));
    size_t and_at = part.find(" and ");
    if (and_at != std::string_view::npos) {
      rest = std::string_view(part.data() + and_at + 5, rest.data() + rest.size() - (part.data() + and_at + 5));
      part = Trim(part.substr(0, and_at));
    }
    if (!part.empty() && part.size() <= kMaxNameBytes * 2) names.emplace_back(part);
  }
  return names;
}

}  // namespace ensemble::core::meetings::internal
