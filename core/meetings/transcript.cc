// The pipeline: clean and cap the input, detect its format, read it, merge
// turns, then fill what the file name and the phrases can add.

#include "core/meetings/transcript.h"

#include <algorithm>
#include <string_view>
#include <unordered_set>

#include "core/meetings/captions.h"
#include "core/meetings/detect.h"
#include "core/meetings/extract.h"
#include "core/meetings/json_formats.h"
#include "core/meetings/phrases.h"
#include "core/meetings/scan.h"
#include "core/meetings/text_formats.h"
#include "core/meetings/zip/docx.h"
#include "core/meetings/zip/zip_reader.h"
#include "core/text/redact.h"
#include "core/text/utf8.h"

namespace ensemble::core::meetings {
namespace {

// Consecutive turns by one named speaker become one, up to
// kMaxMergedTurnChars; in place, so no second vector of turns is built.
void MergeTurns(std::vector<Turn>* turns) {
  size_t kept = 0;
  size_t last_chars = 0;
  for (size_t r = 0; r < turns->size(); ++r) {
    Turn& turn = (*turns)[r];
    size_t chars = text::CountCodePoints(turn.text);
    if (kept > 0) {
      Turn& last = (*turns)[kept - 1];
      if (!turn.speaker.empty() && last.speaker == turn.speaker &&
          last_chars + 1 + chars <= kMaxMergedTurnChars) {
        last.text += ' ';
        last.text += turn.text;
        if (turn.end_ms != kNoTime) last.end_ms = turn.end_ms;
        if (last.start_ms == kNoTime) last.start_ms = turn.start_ms;
        last_chars += 1 + chars;
        continue;
      }
    }
    last_chars = chars;
    if (kept != r) (*turns)[kept] = std::move(turn);
    ++kept;
  }
  turns->resize(kept);
}

// The secrets people paste into meetings' chats and notes never come in
// (spec 004 §2.4 "Secrets are redacted"); before the items are suggested, so
// none quotes one.
void RedactTranscript(Transcript* t) {
  text::RedactSecretsIn(&t->title);
  text::RedactSecretsIn(&t->summary);
  for (Turn& turn : t->turns) text::RedactSecretsIn(&turn.text);
  for (std::vector<Item>* items : {&t->decisions, &t->action_items}) {
    for (Item& item : *items) text::RedactSecretsIn(&item.text);
  }
}

void Finish(Transcript* t, std::string_view file_name) {
  MergeTurns(&t->turns);
  // Hash sets: a hostile file may name a new speaker on every line.
  std::unordered_set<std::string_view> seen;
  const std::string* previous = nullptr;
  for (const Turn& turn : t->turns) {
    if (turn.speaker.empty() || (previous && *previous == turn.speaker)) continue;
    previous = &turn.speaker;
    if (seen.insert(turn.speaker).second) t->speakers.push_back(turn.speaker);
  }
  // Attendees: unique, in the order written, at most kMaxAttendees.
  std::vector<std::string> attendees;
  std::unordered_set<std::string> names;
  for (std::string& a : t->attendees) {
    if (attendees.size() == kMaxAttendees) break;
    std::string name = scan::CollapseSpaces(a);
    if (!name.empty() && names.insert(name).second) attendees.push_back(std::move(name));
  }
  t->attendees = std::move(attendees);
  if (t->duration_seconds == kNoTime) {
    int64_t first = kNoTime, last = kNoTime;
    for (const Turn& turn : t->turns) {
      if (turn.start_ms != kNoTime && (first == kNoTime || turn.start_ms < first))
        first = turn.start_ms;
      int64_t end = std::max(turn.start_ms, turn.end_ms);
      if (end != kNoTime && end > last) last = end;
    }
    // Elapsed stamps start near zero; Zoom's wall-clock stamps do not.
    int64_t origin = first < 60'000 ? 0 : first;
    if (last != kNoTime && last > origin) {
      t->duration_seconds = (last - origin) / 1000;
    }
  }
  if (!file_name.empty()) internal::ApplyFileName(file_name, t);
  RedactTranscript(t);
  internal::SuggestItems(t);
}

Result<Transcript> Parse(std::string_view input, std::string_view file_name, bool from_docx) {
  input = scan::StripBom(input);
  if (scan::Trim(input).empty()) {
    return Status(codes::kInvalidArgument, "The transcript is empty.");
  }
  Transcript t;
  std::string_view trimmed = scan::Trim(input);
  const char first = trimmed[0];
  // "[Ana Silva] 00:00:01" opens Zoom's text, not a JSON array: a JSON array
  // goes on with a value.
  bool may_be_json = first == '{';
  if (first == '[') {
    std::string_view rest = scan::Trim(trimmed.substr(1));
    char next = rest.empty() ? ']' : rest[0];
    may_be_json = next == '{' || next == '[' || next == '"' || next == ']' || next == '-' ||
                  scan::IsDigit(next) || next == 't' || next == 'f' || next == 'n';
    // "[00:01] Jo: ..." is a stamp, not a number.
    size_t k = 0;
    while (k < rest.size() && scan::IsDigit(rest[k])) ++k;
    if (k > 0 && k < rest.size() && rest[k] == ':') may_be_json = false;
  }
  if (may_be_json) {
    // '[' may also open Zoom's "[Name] 00:00:01": text that is not JSON at all.
    bool not_json = false;
    Status json_status = internal::ReadJsonTranscript(input, &t, &not_json);
    if (json_status.ok()) {
      Finish(&t, file_name);
      return t;
    }
    if (first == '{' || !not_json) return json_status;
    t = Transcript();
  }
  // The cap applies to what is read: cut at a line end before 400,000 characters.
  bool truncated = false;
  size_t keep = scan::PrefixBytesForChars(input, kMaxTranscriptChars);
  if (keep < input.size()) {
    size_t newline = input.rfind('\n', keep);
    if (newline != std::string_view::npos && newline > 0) keep = newline;
    input = input.substr(0, keep);
    truncated = true;
  }
  // Only damaged text is copied to be cleaned.
  std::string cleaned;
  std::string_view text = input;
  if (!scan::IsCleanUtf8(input)) {
    scan::AppendCleanUtf8(input, &cleaned);
    text = cleaned;
  }
  if (internal::LooksLikeCaptions(text)) {
    internal::CaptionFile captions = internal::ReadCaptions(text);
    t.format = std::string(captions.format);
    for (Cue& cue : captions.cues) {
      t.turns.push_back(Turn{std::move(cue.voice), cue.start_ms, cue.end_ms, std::move(cue.text)});
    }
    if (captions.unreadable > 0) t.warnings.emplace_back(kUnreadableCuesWarning);
    if (t.turns.empty())
      return Status(codes::kInvalidArgument, "The captions file has no cues with text.");
  } else {
    t.format = std::string(internal::DetectTextFormat(text, from_docx));
    internal::ReadTextTranscript(text, t.format, &t);
    if (t.turns.empty())
      return Status(codes::kInvalidArgument, "The transcript has no text to read.");
    if (t.format == formats::kPlain) t.warnings.emplace_back(kPlainWarning);
  }
  if (truncated) t.warnings.emplace_back(kTruncatedWarning);
  Finish(&t, file_name);
  return t;
}

// Legacy Word (OLE compound file) signature.
bool LooksLikeOle(std::string_view bytes) {
  return bytes.size() >= 8 &&
         bytes.substr(0, 8) == std::string_view("\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1", 8);
}

}  // namespace

Result<Transcript> ParseTranscript(std::string_view text, std::string_view file_name) {
  return Parse(text, file_name, /*from_docx=*/false);
}

Result<Transcript> ParseTranscriptFile(std::string_view bytes, std::string_view file_name) {
  if (bytes.size() > kMaxFileBytes) {
    return Status(codes::kBodyTooLarge, "The file is larger than 10 MB.");
  }
  if (LooksLikeOle(bytes)) {
    return Status(codes::kInvalidArgument,
                  "This is an old Word .doc file; save it as .docx and upload that.");
  }
  if (zip::LooksLikeZip(bytes)) {
    ENSEMBLE_ASSIGN_OR_RETURN(std::string text, zip::DocxText(bytes));
    return Parse(text, file_name, /*from_docx=*/true);
  }
  // Text files never hold NUL bytes; anything that does is some other binary.
  size_t probe = std::min<size_t>(bytes.size(), 8192);
  if (std::string_view(bytes.data(), probe).find('\0') != std::string_view::npos) {
    return Status(
        codes::kInvalidArgument,
        "This file is not text; upload a .vtt, .srt, .txt, .md, .json or .docx transcript.");
  }
  return Parse(bytes, file_name, /*from_docx=*/false);
}

Result<std::vector<Cue>> ParseCaptionCues(std::string_view bytes) {
  if (bytes.size() > kMaxFileBytes) {
    return Status(codes::kBodyTooLarge, "The file is larger than 10 MB.");
  }
  std::string text;
  scan::AppendCleanUtf8(scan::StripBom(bytes), &text);
  if (!internal::LooksLikeCaptions(text)) {
    std::string_view format = "binary data";
    if (zip::LooksLikeZip(bytes)) {
      format = formats::kTeamsDocx;
    } else if (internal::LooksLikeJson(text)) {
      format = formats::kJson;
    } else if (scan::Trim(text).empty()) {
      format = "empty text";
    } else {
      format = internal::DetectTextFormat(text, false);
    }
    return Status(codes::kInvalidArgument,
                  "Not a captions file (vtt or srt): this reads as " + std::string(format) + ".");
  }
  return std::move(internal::ReadCaptions(text).cues);
}

}  // namespace ensemble::core::meetings
