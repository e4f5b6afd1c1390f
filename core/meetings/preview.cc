#include "core/meetings/preview.h"

#include <string_view>
#include <unordered_map>

#include "core/meetings/scan.h"

namespace ensemble::core::meetings {
namespace {

using nlohmann::json;

json OrNull(const std::string& s) { return s.empty() ? json(nullptr) : json(s); }

json Seconds(int64_t ms) {
  if (ms == kNoTime) return nullptr;
  if (ms % 1000 == 0) return ms / 1000;
  return static_cast<double>(ms) / 1000.0;
}

json Items(const std::vector<Item>& items) {
  json out = json::array();
  for (const Item& item : items) {
    out.push_back({{"text", item.text}, {"owner", OrNull(item.owner)}, {"suggested", item.suggested}});
  }
  return out;
}

json Metadata(const Transcript& t) {
  return {{"format", t.format},
          {"title", OrNull(t.title)},
          {"date", OrNull(t.date)},
          {"time", OrNull(t.time)},
          {"timeZone", OrNull(t.time_zone)},
          {"durationSeconds", t.duration_seconds == kNoTime ? json(nullptr) : json(t.duration_seconds)},
          {"attendees", t.attendees},
          {"lineCount", t.turns.size()},
          {"suggested", t.suggested},
          {"warnings", t.warnings}};
}

}  // namespace

std::string RenderLine(const Turn& turn) {
  std::string line;
  if (turn.start_ms != kNoTime) {
    line = scan::FormatStamp(turn.start_ms);
    line += ' ';
  }
  if (!turn.speaker.empty()) {
    line += turn.speaker;
    line += ": ";
  }
  line += turn.text;
  return line;
}

json PreviewJson(const Transcript& t) {
  json preview = Metadata(t);
  std::unordered_map<std::string_view, size_t> lines;
  for (const Turn& turn : t.turns) ++lines[turn.speaker];
  json speakers = json::array();
  for (const std::string& name : t.speakers) {
    speakers.push_back({{"name", name}, {"lines", lines[name]}});
  }
  preview["speakers"] = std::move(speakers);
  json first = json::array();
  for (size_t i = 0; i < t.turns.size() && i < kPreviewLines; ++i) {
    std::string line = RenderLine(t.turns[i]);
    size_t keep = scan::PrefixBytesForChars(line, kPreviewLineChars);
    if (keep < line.size()) {
      line.resize(keep);
      line += "\xE2\x80\xA6";
    }
    first.push_back(std::move(line));
  }
  preview["firstLines"] = std::move(first);
  preview["decisions"] = t.decisions.size();
  preview["actionItems"] = t.action_items.size();
  preview["hasSummary"] = !t.summary.empty();
  return preview;
}

json TranscriptJson(const Transcript& t) {
  json out = Metadata(t);
  out["speakers"] = t.speakers;
  json turns = json::array();
  for (const Turn& turn : t.turns) {
    turns.push_back({{"speaker", OrNull(turn.speaker)},
                     {"start", Seconds(turn.start_ms)},
                     {"end", Seconds(turn.end_ms)},
                     {"text", turn.text}});
  }
  out["turns"] = std::move(turns);
  out["summary"] = OrNull(t.summary);
  out["decisions"] = Items(t.decisions);
  out["actionItems"] = Items(t.action_items);
  return out;
}

json CuesJson(const std::vector<Cue>& cues) {
  json out = json::array();
  for (const Cue& cue : cues) {
    out.push_back({{"start", Seconds(cue.start_ms)},
                   {"end", Seconds(cue.end_ms)},
                   {"voice", OrNull(cue.voice)},
                   {"text", cue.text}});
  }
  return out;
}

}  // namespace ensemble::core::meetings
