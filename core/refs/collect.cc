#include "core/refs/collect.h"

#include <algorithm>
#include <utility>

#include "core/base/id.h"
#include "core/refs/format_entity_text.h"
#include "core/refs/text_scan.h"

namespace ensemble::core::refs {
namespace {

using nlohmann::json;

// Keys whose object is a person though the key is a role, not a kind.
constexpr std::string_view kPersonRoleKeys[] = {"assignee", "assignees", "owner",       "author",
                                                "members",  "attendees", "participants"};

// Keys that only hold rows: the kind around them (the key above, the tool's
// name) still applies to what they hold.
constexpr std::string_view kContainerKeys[] = {"items",   "results", "result",  "data",
                                               "records", "rows",    "matches", "list"};

template <size_t N>
bool OneOf(const std::string_view (&words)[N], std::string_view word) {
  return std::find(std::begin(words), std::end(words), word) != std::end(words);
}

// A non-empty string field of `object`, or empty.
std::string_view Text(const json& object, const char* key) {
  auto it = object.find(key);
  if (it == object.end() || !it->is_string()) return {};
  return it->get_ref<const std::string&>();
}

// A row's own kind: "kind" names it (canonical when it is a known alias,
// else as written when it is one lowercase word); "type" counts only when it
// is a known kind, since it often means something else (a file's type).
std::string RowKind(const json& row) {
  std::string_view kind = Text(row, "kind");
  if (!kind.empty()) {
    std::string_view canonical = CanonicalMentionKind(kind);
    if (!canonical.empty()) return std::string(canonical);
    bool word = kind.size() <= 32 && kind[0] >= 'a' && kind[0] <= 'z' &&
                std::all_of(kind.begin(), kind.end(), [](char c) {
                  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
                });
    if (word) return std::string(kind);
  }
  return std::string(CanonicalMentionKind(Text(row, "type")));
}

// The kind hint for what `key` holds, given the hint around it.
std::string KeyHint(std::string_view key, const std::string& around) {
  std::string_view kind = CanonicalMentionKind(key);
  if (!kind.empty()) return std::string(kind);
  if (OneOf(kPersonRoleKeys, key)) return "person";
  if (OneOf(kContainerKeys, key)) return around;
  return {};
}

class ResultWalker {
 public:
  void Walk(const json& node, const std::string& hint, size_t depth) {
    if (out_.size() >= kMaxRefsPerCall || depth >= kMaxResultDepth) return;
    if (node.is_array()) {
      for (const json& element : node) {
        Walk(element, hint, depth + 1);
        if (out_.size() >= kMaxRefsPerCall) return;
      }
      return;
    }
    if (!node.is_object()) return;
    TakeRow(node, hint);
    for (const auto& [key, value] : node.items()) {
      if (value.is_object() || value.is_array()) Walk(value, KeyHint(key, hint), depth + 1);
      if (key == kPacketKey && value.is_string()) TakeLinks(value.get_ref<const std::string&>());
      if (out_.size() >= kMaxRefsPerCall) return;
    }
  }

  std::vector<Ref> Take() && { return std::move(out_); }

 private:
  void TakeLinks(std::string_view text) {
    for (Ref& ref : RecordLinksIn(text)) {
      if (out_.size() >= kMaxRefsPerCall) return;
      if (std::none_of(out_.begin(), out_.end(), [&](const Ref& r) { return r.id == ref.id; }))
        out_.push_back(std::move(ref));
    }
  }

  void TakeRow(const json& row, const std::string& hint) {
    std::string_view id = Text(row, "id");
    if (!IsValidId(id)) return;
    std::string_view label = Text(row, "title");
    if (label.empty()) label = Text(row, "name");
    if (label.empty()) return;
    std::string kind = RowKind(row);
    if (kind.empty()) kind = hint;
    if (kind.empty()) return;
    for (const Ref& r : out_) {
      if (r.id == id) return;
    }
    std::string_view detail;
    for (const char* key : {"due", "dueDate", "email"}) {
      detail = Text(row, key);
      if (!detail.empty()) break;
    }
    out_.push_back(Ref{std::move(kind), std::string(id), std::string(label), std::string(detail)});
  }

  std::vector<Ref> out_;
};

// The link starting at text[i] == '[': fills `ref` and returns its end, or 0.
size_t ParseRecordLinkAt(std::string_view text, size_t i, Ref* ref) {
  const size_t limit = std::min(text.size(), i + internal::kMaxLinkScan);
  std::string label;
  int depth = 1;
  size_t j = i + 1;
  for (; j < limit; ++j) {
    char c = text[j];
    if (c == '\n') return 0;
    if (c == '\\' && j + 1 < limit) {
      label.push_back(text[++j]);
      continue;
    }
    if (c == '[') ++depth;
    if (c == ']' && --depth == 0) break;
    label.push_back(c);
  }
  if (j >= limit) return 0;
  std::string_view rest = text.substr(j + 1);
  if (!internal::StartsWith(rest, "(") || !internal::StartsWith(rest.substr(1), kRecordScheme)) {
    return 0;
  }
  rest.remove_prefix(1 + kRecordScheme.size());
  size_t slash = 0;
  while (slash < rest.size() && (internal::IsWord(rest[slash]) || rest[slash] == '-')) ++slash;
  if (slash == 0 || slash >= rest.size() || rest[slash] != '/') return 0;
  std::string_view id = rest.substr(slash + 1, kIdLength);
  if (!IsValidId(id) || slash + 1 + kIdLength >= rest.size() ||
      rest[slash + 1 + kIdLength] != ')') {
    return 0;
  }
  if (!label.empty() && label[0] == '@') label.erase(0, 1);
  if (label.empty()) return 0;
  std::string_view kind = rest.substr(0, slash);
  std::string_view canonical = CanonicalMentionKind(kind);
  *ref =
      Ref{std::string(canonical.empty() ? kind : canonical), std::string(id), std::move(label), ""};
  return static_cast<size_t>(rest.data() - text.data()) + slash + 1 + kIdLength + 1;
}

Ref FromMention(const Mention& m) { return Ref{m.kind, m.id, m.label, ""}; }

}  // namespace

std::vector<Ref> RefsFromResult(std::string_view tool_name, const json& result) {
  ResultWalker walker;
  walker.Walk(result, std::string(KindFromToolName(tool_name)), 0);
  return std::move(walker).Take();
}

std::string_view KindFromToolName(std::string_view tool_name) {
  size_t end = tool_name.size();
  while (end > 0) {
    size_t start = tool_name.rfind('_', end - 1);
    start = start == std::string_view::npos ? 0 : start + 1;
    std::string_view kind = CanonicalMentionKind(tool_name.substr(start, end - start));
    if (!kind.empty()) return kind;
    if (start == 0) break;
    end = start - 1;
  }
  return {};
}

std::vector<Ref> StateRefs(const std::vector<Mention>& mentions,
                           const std::optional<Ref>& open_item,
                           const std::vector<EnabledSkill>& skills) {
  std::vector<Ref> out;
  for (const Mention& m : mentions) out.push_back(FromMention(m));
  if (open_item) out.push_back(*open_item);
  for (const EnabledSkill& s : skills) out.push_back(Ref{"skill", s.id, s.name, ""});
  return out;
}

std::vector<Ref> RecordLinksIn(std::string_view text) {
  std::vector<Ref> out;
  for (size_t i = text.find('['); i != std::string_view::npos; i = text.find('[', i + 1)) {
    Ref ref;
    size_t end = ParseRecordLinkAt(text, i, &ref);
    if (end == 0) continue;
    out.push_back(std::move(ref));
    i = end - 1;
  }
  return out;
}

std::vector<Ref> HistoryRefs(const std::vector<HistoryMessage>& messages) {
  std::vector<Ref> out;
  size_t oldest = messages.size() > kMaxHistoryMessages ? messages.size() - kMaxHistoryMessages : 0;
  for (size_t i = messages.size(); i > oldest; --i) {
    const HistoryMessage& message = messages[i - 1];
    for (const Mention& m : message.mentions) out.push_back(FromMention(m));
    for (Ref& r : RecordLinksIn(message.text)) out.push_back(std::move(r));
  }
  return out;
}

TurnRefs::TurnRefs(const TurnStart& start) {
  AddAll(StateRefs(start.mentions, start.open_item, start.skills));
  AddAll(HistoryRefs(start.history));
  AddAll(start.extra);
}

std::vector<Ref> TurnRefs::AddToolResult(std::string_view tool_name, const json& result) {
  std::vector<Ref> refs = RefsFromResult(tool_name, result);
  AddAll(refs);
  calls_.push_back(refs);
  return refs;
}

void TurnRefs::AddAll(const std::vector<Ref>& refs) {
  for (const Ref& r : refs) {
    if (known_.size() >= RefSet::kMaxRefs) return;
    known_.Add(r);
  }
}

json TurnRefs::RefsFrameJson() const {
  std::vector<Ref> list;
  list.reserve(known_.size());
  for (size_t i = 0; i < known_.size(); ++i) list.push_back(known_.at(i).ref);
  return json{{"refs", RefListToJson(list)}};
}

json RefListToJson(const std::vector<Ref>& refs) {
  json out = json::array();
  for (const Ref& r : refs) {
    json entry = {{"kind", r.kind}, {"id", r.id}, {"label", r.label}};
    if (!r.detail.empty()) entry["detail"] = r.detail;
    out.push_back(std::move(entry));
  }
  return out;
}

}  // namespace ensemble::core::refs
