#include "core/meetings/json_formats.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "core/meetings/dates.h"
#include "core/meetings/extract.h"
#include "core/meetings/scan.h"

namespace ensemble::core::meetings::internal {
namespace {

// Insertion-ordered objects: a vector of a few keys per sentence is much
// cheaper to build than a std::map, and lookups scan at most a handful.
using json = nlohmann::ordered_json;

// Depth of brackets outside strings; false when it passes kMaxJsonDepth.
bool DepthWithinLimit(std::string_view text) {
  size_t depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) return false;
    } else if (c == ']' || c == '}') {
      if (depth > 0) --depth;
    }
  }
  return true;
}

const json* Field(const json& object, std::initializer_list<std::string_view> names) {
  if (!object.is_object()) return nullptr;
  for (std::string_view name : names) {
    auto it = object.find(name);  // Transparent comparator: no key copy.
    if (it != object.end() && !it->is_null()) return &*it;
  }
  return nullptr;
}

std::string StringField(const json& object, std::initializer_list<std::string_view> names) {
  const json* v = Field(object, names);
  if (v && v->is_string()) return v->get<std::string>();
  return "";
}

// Seconds as a number, or a clock string; kNoTime otherwise.
int64_t TimeField(const json& object, std::initializer_list<std::string_view> names) {
  const json* v = Field(object, names);
  if (!v) return kNoTime;
  if (v->is_number()) {
    double seconds = v->get<double>();
    if (!std::isfinite(seconds) || seconds < 0 || seconds > 1e9) return kNoTime;
    return static_cast<int64_t>(std::llround(seconds * 1000));
  }
  if (v->is_string()) {
    int64_t ms = 0;
    if (scan::ParseClock(scan::Trim(v->get_ref<const std::string&>()), &ms)) return ms;
  }
  return kNoTime;
}

std::string SpeakerOf(const json& item) {
  const json* v = Field(item, {"speaker_name", "speaker", "speakerName", "participant", "name"});
  if (!v) return "";
  if (v->is_string()) return v->get<std::string>();
  if (v->is_object()) return StringField(*v, {"name", "displayName", "display_name", "email"});
  return "";
}

// The sentence's text, writable so the reader can move it out of the
// document instead of copying it; null when there is no text string.
std::string* MutableTextOf(json& item) {
  const json* v = Field(item, {"text", "sentence", "raw_text", "content", "words"});
  if (v && v->is_string()) return &const_cast<json*>(v)->get_ref<std::string&>();
  return nullptr;
}

bool IsSentenceArray(const json& value) {
  if (!value.is_array() || value.empty()) return false;
  size_t checked = 0;
  for (const json& item : value) {
    if (checked++ == 8) break;
    if (!item.is_object() || !Field(item, {"text", "sentence", "raw_text", "content", "words"})) {
      return false;
    }
  }
  return true;
}

// The sentence array and the object holding it (for metadata), searched
// through wrappers such as {"data": {"transcript": {"sentences": [...]}}}.
const json* FindSentences(const json& value, int depth, const json** holder) {
  if (IsSentenceArray(value)) return &value;
  if (!value.is_object() || depth >= kMaxWrapperDepth) return nullptr;
  for (std::string_view key : {"sentences", "segments", "data", "entries", "transcript", "results",
                               "utterances", "items"}) {
    auto it = value.find(std::string(key));
    if (it == value.end()) continue;
    if (IsSentenceArray(*it)) {
      *holder = &value;
      return &*it;
    }
    if (it->is_object()) {
      if (const json* found = FindSentences(*it, depth + 1, holder)) {
        if (*holder == nullptr) *holder = &value;
        return found;
      }
    }
  }
  return nullptr;
}

void CollectNames(const json& list, std::vector<std::string>* out) {
  if (list.is_string()) {
    for (std::string& name : SplitNames(list.get_ref<const std::string&>())) out->push_back(std::move(name));
    return;
  }
  if (!list.is_array()) return;
  for (const json& entry : list) {
    if (entry.is_string()) {
      out->push_back(entry.get<std::string>());
    } else if (entry.is_object()) {
      std::string name = StringField(entry, {"name", "displayName", "display_name", "email"});
      if (!name.empty()) out->push_back(std::move(name));
    }
  }
}

void CollectItems(const json& value, std::vector<Item>* out) {
  std::vector<std::string> owned;  // Keeps the text alive for the string_views.
  if (value.is_string()) {
    owned.push_back(value.get<std::string>());
  } else if (value.is_array()) {
    for (const json& entry : value) {
      if (entry.is_string()) {
        owned.push_back(entry.get<std::string>());
      } else if (entry.is_object()) {
        std::string text = StringField(entry, {"text", "description", "title", "content"});
        std::string owner = StringField(entry, {"owner", "assignee", "assignee_name"});
        if (!text.empty()) owned.push_back(owner.empty() ? text : owner + ": " + text);
      }
    }
  }
  std::vector<std::string_view> lines;
  for (const std::string& s : owned) {
    scan::LineReader reader(s);
    std::string_view line;
    while (reader.Next(&line)) lines.push_back(line);
  }
  ParseWrittenItems(lines, out);
}

void ReadMetadata(const json& holder, Transcript* t) {
  if (!holder.is_object()) return;
  if (t->title.empty()) t->title = StringField(holder, {"title", "meeting_title", "name", "topic"});
  std::string when = StringField(holder, {"dateString", "date", "start_time", "startTime",
                                          "happenedAt", "created_at", "createdAt"});
  WhenFound found;
  size_t b = 0, e = 0;
  if (t->date.empty() && FindDateTime(when, &found, &b, &e)) {
    t->date = found.date;
    t->time = found.time;
    t->time_zone = found.zone;
    // ISO 8601 instants: a trailing Z or offset names the zone.
    std::string_view rest(when);
    rest = rest.substr(e);
    size_t k = 0;
    while (k < rest.size() && (scan::IsDigit(rest[k]) || rest[k] == ':' || rest[k] == '.')) ++k;
    if (t->time_zone.empty() && k < rest.size()) {
      if (rest[k] == 'Z') {
        t->time_zone = "UTC";
      } else if (rest[k] == '+' || rest[k] == '-') {
        t->time_zone = "UTC" + std::string(rest.substr(k, 6));
      }
    }
  }
  if (const json* seconds = Field(holder, {"duration_seconds", "durationSeconds"}); seconds && seconds->is_number()) {
    double d = seconds->get<double>();
    if (std::isfinite(d) && d >= 0 && d < 1e9) t->duration_seconds = static_cast<int64_t>(d);
  }
  if (const json* list = Field(holder, {"attendees", "participants", "meeting_attendees", "invitees"})) {
    CollectNames(*list, &t->attendees);
  }
  if (const json* summary = Field(holder, {"summary", "notes"})) {
    if (summary->is_string()) {
      t->summary = summary->get<std::string>();
    } else if (summary->is_object()) {
      t->summary = StringField(*summary, {"overview", "short_summary", "text", "gist"});
      if (const json* items = Field(*summary, {"action_items", "actionItems", "next_steps"})) {
        CollectItems(*items, &t->action_items);
      }
      if (const json* items = Field(*summary, {"decisions"})) CollectItems(*items, &t->decisions);
    }
  }
  if (const json* items = Field(holder, {"action_items", "actionItems", "next_steps", "nextSteps"})) {
    CollectItems(*items, &t->action_items);
  }
  if (const json* items = Field(holder, {"decisions"})) CollectItems(*items, &t->decisions);
}

}  // namespace

bool LooksLikeJson(std::string_view text) {
  text = scan::Trim(scan::StripBom(text));
  if (text.empty() || (text[0] != '{' && text[0] != '[')) return false;
  if (!DepthWithinLimit(text)) return true;  // Refused as JSON, with a reason.
  return json::accept(text.begin(), text.end());
}

Status ReadJsonTranscript(std::string_view text, Transcript* transcript, bool* not_json) {
  *not_json = false;
  text = scan::Trim(scan::StripBom(text));
  if (!DepthWithinLimit(text)) {
    return Status(codes::kMalformedJson, "The JSON is nested too deeply to be a transcript.");
  }
  json doc = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) {
    *not_json = true;
    return Status(codes::kMalformedJson, "The file starts like JSON but is not valid JSON.");
  }
  const json* holder = nullptr;
  const json* sentences = FindSentences(doc, 0, &holder);
  if (!sentences) {
    return Status(codes::kInvalidArgument,
                  "No transcript sentences in this JSON: expected an array of objects with "
                  "text or sentence, speaker and start.");
  }
  bool fireflies = holder && holder->contains("sentences");
  bool tldv = holder && (holder->contains("meetingId") || holder->contains("meeting_id"));
  // The vendor shows in the first items' keys.
  size_t sniffed = 0;
  for (const json& item : *sentences) {
    if (sniffed++ == 8) break;
    if (!item.is_object()) continue;
    fireflies = fireflies || item.contains("speaker_name") || item.contains("raw_text");
    tldv = tldv || item.contains("startTime");
  }
  size_t chars = 0;
  std::string cleaned;
  transcript->turns.reserve(sentences->size());
  // Each sentence's text is read once, so it is moved out of the document
  // (which nothing reads again) rather than copied.
  for (json& item : *const_cast<json*>(sentences)) {
    if (!item.is_object()) continue;
    std::string collapsed;
    std::string* text = MutableTextOf(item);
    if (text == nullptr) {
      // No text: nothing to collapse.
    } else if (!scan::IsCleanUtf8(*text)) {  // Escapes can smuggle in control characters.
      cleaned.clear();
      scan::AppendCleanUtf8(*text, &cleaned);
      collapsed = scan::CollapseSpaces(cleaned);
    } else {
      collapsed = std::move(*text);
      scan::CollapseSpacesInPlace(&collapsed);
    }
    if (collapsed.empty()) continue;
    if (chars + collapsed.size() > kMaxTranscriptChars) {
      size_t left = kMaxTranscriptChars > chars ? kMaxTranscriptChars - chars : 0;
      collapsed.resize(scan::PrefixBytesForChars(collapsed, left));
      transcript->warnings.emplace_back(kTruncatedWarning);
      if (!collapsed.empty()) {
        transcript->turns.push_back(
            Turn{SpeakerOf(item), TimeField(item, {"start_time", "start", "startTime", "start_seconds"}),
                 TimeField(item, {"end_time", "end", "endTime", "end_seconds"}), std::move(collapsed)});
      }
      break;
    }
    chars += collapsed.size();
    std::string speaker = SpeakerOf(item);
    if (!scan::IsCleanUtf8(speaker)) {
      std::string raw_speaker = std::move(speaker);
      speaker.clear();
      scan::AppendCleanUtf8(raw_speaker, &speaker);
    }
    transcript->turns.push_back(
        Turn{scan::CollapseSpaces(speaker), TimeField(item, {"start_time", "start", "startTime", "start_seconds"}),
             TimeField(item, {"end_time", "end", "endTime", "end_seconds"}), std::move(collapsed)});
  }
  if (transcript->turns.empty()) {
    return Status(codes::kInvalidArgument, "The JSON transcript has no sentences with text.");
  }
  transcript->format = std::string(fireflies ? formats::kFirefliesJson
                                   : tldv    ? formats::kTldvJson
                                             : formats::kJson);
  if (holder) ReadMetadata(*holder, transcript);
  if (holder != &doc && doc.is_object()) ReadMetadata(doc, transcript);
  return Status::Ok();
}

}  // namespace ensemble::core::meetings::internal
