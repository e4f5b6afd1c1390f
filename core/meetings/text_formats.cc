#include "core/meetings/text_formats.h"

#include <vector>

#include "core/meetings/detect.h"
#include "core/meetings/extract.h"
#include "core/meetings/scan.h"

namespace ensemble::core::meetings::internal {
namespace {

using scan::Trim;

enum class Shape { kTimedHeader, kZoomHeader, kSpeakerLines, kPlain };

Shape ShapeOf(std::string_view format) {
  if (format == formats::kTeamsCopy || format == formats::kTeamsDocx || format == formats::kOtter) {
    return Shape::kTimedHeader;
  }
  if (format == formats::kZoomTxt) return Shape::kZoomHeader;
  if (format == formats::kSpeakerLines || format == formats::kGoogleMeet) return Shape::kSpeakerLines;
  return Shape::kPlain;
}

bool IsBullet(std::string_view line) {
  if (line.empty()) return false;
  char c = line[0];
  return c == '-' || c == '*' || c == '+' || c == '[' || scan::IsDigit(c) ||
         line.substr(0, 3) == "\xE2\x80\xA2" || line.substr(0, 3) == "\xE2\x98\x90";
}

// Lines the meeting apps add that are not speech.
bool IsNoise(std::string_view line, std::string_view format) {
  if (format == formats::kOtter && scan::FindIgnoreCase(line, "otter.ai") != std::string_view::npos) {
    return true;
  }
  if (line.size() < 120 && (line.ends_with("started transcription") ||
                            line.ends_with("stopped transcription"))) {
    return true;
  }
  if (format == formats::kGoogleMeet &&
      (scan::StartsWithIgnoreCase(line, "This editable transcript was computer generated") ||
       scan::StartsWithIgnoreCase(line, "Transcription ended after") ||
       scan::StartsWithIgnoreCase(line, "You should review Gemini") ||
       scan::StartsWithIgnoreCase(line, "Meeting records") ||
       scan::StartsWithIgnoreCase(line, "Please provide feedback"))) {
    return true;
  }
  return false;
}

class TextReader {
 public:
  TextReader(std::string_view format, Transcript* t) : format_(format), shape_(ShapeOf(format)), t_(t) {}

  void Line(std::string_view raw) {
    std::string_view line = Trim(raw);
    if (line.empty()) {
      blank_ = true;
      if (shape_ == Shape::kPlain) EndTurn();
      return;
    }
    const bool after_blank = blank_;
    blank_ = false;
    if (IsNoise(line, format_)) return;
    SectionKind heading = line.size() <= kMaxHeadingBytes ? HeadingKind(line) : SectionKind::kNone;
    if (heading != SectionKind::kNone) {
      EndTurn();
      EndSection();
      if (heading == SectionKind::kTranscript || heading == SectionKind::kDropLine) return;
      section_ = heading;
      return;
    }
    if (section_ != SectionKind::kNone) {
      if (!EndsSection(line, after_blank)) {
        section_lines_.push_back(line);
        return;
      }
      EndSection();
    }
    if (Turn(line)) {
      started_ = true;
      return;
    }
    if (!started_ && shape_ != Shape::kPlain) {
      ReadPreambleLine(line, t_);
      return;
    }
    // A continuation of the current turn (wrapped text), or plain text.
    if (shape_ == Shape::kPlain && !open_) Open("", kNoTime);
    if (!open_) {
      // Text before any speaker once turns have begun: keep it, unnamed.
      Open("", pending_ms_);
    }
    Append(line);
  }

  void Finish() {
    EndTurn();
    EndSection();
  }

 private:
  bool EndsSection(std::string_view line, bool after_blank) {
    std::string_view name, rest;
    int64_t ms = 0;
    switch (shape_) {
      case Shape::kTimedHeader:
        if (MatchTimedHeader(line, &name, &ms, &rest)) return true;
        break;
      case Shape::kZoomHeader:
        if (line[0] == '[' && MatchZoomHeader(line, &name, &ms, &rest)) return true;
        break;
      case Shape::kSpeakerLines:
        if (MatchTimeLine(line, &ms)) return true;
        if (after_blank && MatchSpeakerLine(line, &name, &ms, &rest)) return true;
        break;
      case Shape::kPlain:
        break;
    }
    return after_blank && !IsBullet(line) && section_ != SectionKind::kAttendees;
  }

  // Starts a turn when `line` is a turn header of this shape.
  bool Turn(std::string_view line) {
    std::string_view name, rest;
    int64_t ms = kNoTime;
    switch (shape_) {
      case Shape::kTimedHeader:
        if (!MatchTimedHeader(line, &name, &ms, &rest)) return false;
        break;
      case Shape::kZoomHeader:
        if (line[0] != '[' || !MatchZoomHeader(line, &name, &ms, &rest)) return false;
        break;
      case Shape::kSpeakerLines:
        if (MatchTimeLine(line, &ms)) {
          EndTurn();
          pending_ms_ = ms;
          started_ = true;
          return true;
        }
        if (!MatchSpeakerLine(line, &name, &ms, &rest)) return false;
        if (ms == kNoTime) ms = pending_ms_;
        break;
      case Shape::kPlain:
        return false;
    }
    EndTurn();
    Open(name, ms);
    if (!rest.empty()) Append(rest);
    return true;
  }

  void Open(std::string_view speaker, int64_t ms) {
    current_ = meetings::Turn();
    current_.speaker = std::string(speaker);
    current_.start_ms = ms;
    open_ = true;
  }

  void Append(std::string_view text) {
    if (!current_.text.empty()) current_.text += ' ';
    current_.text.append(text);
  }

  void EndTurn() {
    if (!open_) return;
    open_ = false;
    if (!current_.text.empty()) t_->turns.push_back(std::move(current_));
    current_ = meetings::Turn();
  }

  void EndSection() {
    if (section_ == SectionKind::kNone) return;
    switch (section_) {
      case SectionKind::kSummary: {
        std::string summary;
        for (std::string_view l : section_lines_) {
          if (!summary.empty()) summary += '\n';
          summary.append(l);
        }
        if (!summary.empty()) {
          if (!t_->summary.empty()) t_->summary += '\n';
          t_->summary += summary;
        }
        break;
      }
      case SectionKind::kDecisions:
        ParseWrittenItems(section_lines_, &t_->decisions);
        break;
      case SectionKind::kActions:
        ParseWrittenItems(section_lines_, &t_->action_items);
        break;
      case SectionKind::kAttendees:
        for (std::string_view l : section_lines_) {
          for (std::string& name : SplitNames(l)) t_->attendees.push_back(std::move(name));
        }
        break;
      default:
        break;
    }
    section_ = SectionKind::kNone;
    section_lines_.clear();
  }

  std::string_view format_;
  Shape shape_;
  Transcript* t_;
  SectionKind section_ = SectionKind::kNone;
  std::vector<std::string_view> section_lines_;
  meetings::Turn current_;
  bool open_ = false;
  bool started_ = false;
  bool blank_ = false;
  int64_t pending_ms_ = kNoTime;
};

}  // namespace

void ReadTextTranscript(std::string_view text, std::string_view format, Transcript* transcript) {
  TextReader reader(format, transcript);
  scan::LineReader lines(text);
  std::string_view line;
  while (lines.Next(&line)) reader.Line(line);
  reader.Finish();
}

}  // namespace ensemble::core::meetings::internal
