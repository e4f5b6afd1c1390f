#include "core/meetings/captions.h"

#include "core/meetings/detect.h"
#include "core/meetings/scan.h"

namespace ensemble::core::meetings::internal {
namespace {

using scan::IsDigit;
using scan::Trim;

bool IsAllDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!IsDigit(c)) return false;
  }
  return true;
}

// "00:00:01.000 --> 00:00:04.000 align:start" (vtt) or with commas (srt).
bool ParseTiming(std::string_view line, int64_t* start, int64_t* end) {
  size_t arrow = line.find("-->");
  if (arrow == std::string_view::npos) return false;
  std::string_view left = Trim(line.substr(0, arrow));
  std::string_view right = Trim(line.substr(arrow + 3));
  size_t space = right.find_first_of(" \t");
  if (space != std::string_view::npos) right = right.substr(0, space);
  return scan::ParseClock(left, start) && scan::ParseClock(right, end);
}

// Appends cue text with tags removed and the common entities decoded; the
// first <v Name> voice tag is returned in *voice.
void AppendCueText(std::string_view line, std::string* out, std::string* voice) {
  size_t i = 0;
  while (i < line.size()) {
    char c = line[i];
    if (c == '<') {
      size_t close = line.find('>', i);
      if (close == std::string_view::npos) {
        out->append(line.substr(i));
        break;
      }
      std::string_view tag = line.substr(i + 1, close - i - 1);
      if (!tag.empty() && tag[0] == 'v' && (tag.size() == 1 || tag[1] == ' ' || tag[1] == '.')) {
        size_t space = tag.find(' ');
        if (space != std::string_view::npos && voice->empty()) *voice = std::string(Trim(tag.substr(space + 1)));
      }
      i = close + 1;
      continue;
    }
    if (c == '&') {
      struct Entity {
        std::string_view name, text;
      };
      static constexpr Entity kEntities[] = {{"&amp;", "&"}, {"&lt;", "<"},  {"&gt;", ">"},
                                             {"&nbsp;", " "}, {"&quot;", "\""}, {"&apos;", "'"},
                                             {"&#39;", "'"}, {"&lrm;", ""}, {"&rlm;", ""}};
      bool matched = false;
      for (const Entity& e : kEntities) {
        if (line.substr(i, e.name.size()) == e.name) {
          out->append(e.text);
          i += e.name.size();
          matched = true;
          break;
        }
      }
      if (matched) continue;
    }
    size_t next = line.find_first_of("<&", i + 1);
    if (next == std::string_view::npos) next = line.size();
    out->append(line.substr(i, next - i));
    i = next;
  }
}

}  // namespace

bool LooksLikeCaptions(std::string_view text) {
  text = scan::StripBom(text);
  size_t i = 0;
  while (i < text.size() && scan::IsSpace(text[i])) ++i;
  text.remove_prefix(i);
  if (text.substr(0, 6) == "WEBVTT") return true;
  scan::LineReader lines(text);
  std::string_view first, second;
  if (!lines.Next(&first) || !IsAllDigits(Trim(first))) return false;
  if (!lines.Next(&second)) return false;
  int64_t a = 0, b = 0;
  return ParseTiming(second, &a, &b);
}

CaptionFile ReadCaptions(std::string_view text) {
  text = scan::StripBom(text);
  CaptionFile file;
  size_t i = 0;
  while (i < text.size() && scan::IsSpace(text[i])) ++i;
  text.remove_prefix(i);
  const bool vtt = text.substr(0, 6) == "WEBVTT";
  scan::LineReader lines(text);
  std::string_view line;
  if (vtt) {  // The header block runs to the first blank line.
    while (lines.Next(&line) && !Trim(line).empty()) {
    }
  }
  size_t voiced = 0, named = 0, numbered = 0;
  // One block at a time: [identifier] timing text...
  bool in_block = false, skipping = false, have_timing = false, id_numeric = false;
  Cue cue;
  auto finish = [&]() {
    if (have_timing) {
      std::string& t = cue.text;
      scan::CollapseSpacesInPlace(&t);
      if (!t.empty()) {
        if (!cue.voice.empty()) {
          ++voiced;
        } else {
          std::string_view name, rest;
          int64_t ms = 0;
          if (MatchSpeakerLine(t, &name, &ms, &rest) && ms == kNoTime) {
            cue.voice = std::string(name);
            t = std::string(rest);  // A copy first: `rest` points into `t`.
            ++named;
          }
        }
        if (id_numeric) ++numbered;
        if (!cue.text.empty()) file.cues.push_back(std::move(cue));
      }
    }
    cue = Cue();
    in_block = skipping = have_timing = id_numeric = false;
  };
  while (lines.Next(&line)) {
    std::string_view trimmed = Trim(line);
    if (trimmed.empty()) {
      if (in_block) finish();
      continue;
    }
    if (!in_block) {
      in_block = true;
      if (vtt && (trimmed.substr(0, 4) == "NOTE" || trimmed == "STYLE" || trimmed == "REGION")) {
        skipping = true;
        continue;
      }
      if (trimmed.find("-->") == std::string_view::npos) {
        id_numeric = IsAllDigits(trimmed);  // An identifier line.
        continue;
      }
    }
    if (skipping) continue;
    if (!have_timing) {
      if (!ParseTiming(trimmed, &cue.start_ms, &cue.end_ms)) {
        ++file.unreadable;
        skipping = true;
        continue;
      }
      have_timing = true;
      continue;
    }
    // A second timing line without a blank line before it starts a new cue.
    int64_t a = 0, b = 0;
    if (scan::IsDigit(trimmed[0]) && trimmed.find("-->") != std::string_view::npos &&
        ParseTiming(trimmed, &a, &b)) {
      finish();
      in_block = have_timing = true;
      cue.start_ms = a;
      cue.end_ms = b;
      continue;
    }
    if (!cue.text.empty()) cue.text += ' ';
    AppendCueText(trimmed, &cue.text, &cue.voice);
  }
  if (in_block) finish();
  if (!vtt) {
    file.format = formats::kSrt;
  } else if (voiced > 0) {
    file.format = formats::kTeamsVtt;
  } else if (named > 0 && numbered * 2 >= file.cues.size() && named * 2 >= file.cues.size()) {
    file.format = formats::kZoomVtt;
  } else {
    file.format = formats::kVtt;
  }
  return file;
}

}  // namespace ensemble::core::meetings::internal
