// What one assistant turn knows (spec §4.1 "What the turn knows"): the refs
// {kind, id, label, detail?} of every record the model is shown by id,
// collected in the spec's order: the message's mentions, the open item and
// the personal skills named in the instructions (StateRefs), records named
// by the last 12 messages (HistoryRefs), extra refs (Ensemble Node's rooms),
// then each tool result (RefsFromResult, at most 50 per call). The turn's
// list holds at most RefSet::kMaxRefs (200); the first ref of an id wins.
//
// Thread-safety: the free functions are pure; a TurnRefs is not safe for
// concurrent AddToolResult, concurrent const use is safe.

#ifndef ENSEMBLE_CORE_REFS_COLLECT_H_
#define ENSEMBLE_CORE_REFS_COLLECT_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/refs/mentions.h"
#include "core/refs/ref_set.h"

namespace ensemble::core::refs {

// Spec §4.1: one tool result adds at most 50 refs.
inline constexpr size_t kMaxRefsPerCall = 50;
// A tool result is walked this many levels deep (the top is level 1), so a
// deeply nested result cannot make the walk unbounded.
inline constexpr size_t kMaxResultDepth = 8;
// Spec §3: history is the conversation's last 12 messages.
inline constexpr size_t kMaxHistoryMessages = 12;

// A string under this key of a tool's result is a work packet
// (core/context/packet.h): Markdown whose rows are [Title](ensemble://kind/id).
inline constexpr std::string_view kPacketKey = "packet";

// The records in a tool's result: every object with a record id ("id",
// IsValidId) and a non-empty "title" or "name", in document order (object
// keys sorted), each id once, at most kMaxRefsPerCall. Its kind comes from
// the row ("kind", or "type" when that names a known kind), else from the
// key holding it ("tasks": [...] -> task, "assignee": {...} -> person), else
// from the tool's name (hub_list_tasks -> task) for rows at the top or in
// plain containers ("items", "results", "data", ...). Detail is "due",
// "dueDate" or "email", the first present. Rows with no kind are skipped.
// The record links of a work packet (kPacketKey) are its records too.
std::vector<Ref> RefsFromResult(std::string_view tool_name, const nlohmann::json& result);

// The kind a tool's name implies: its last word that names a kind
// ("hub_list_tasks" -> "task", "hub_read_board" -> "board"); empty if none.
std::string_view KindFromToolName(std::string_view tool_name);

// A personal skill named in the instructions.
struct EnabledSkill {
  std::string id;
  std::string name;
};

// The refs the turn's state names, in order: mentions, the open item, the
// enabled skills (kind "skill").
std::vector<Ref> StateRefs(const std::vector<Mention>& mentions,
                           const std::optional<Ref>& open_item,
                           const std::vector<EnabledSkill>& skills);

// One message of the conversation as stored.
struct HistoryMessage {
  std::string role;               // "user" or "assistant"
  std::string text;               // as the person or the model wrote it
  std::vector<Mention> mentions;  // assistant_messages.mentions
};

// The records named by the last kMaxHistoryMessages of `messages` (oldest
// first; older ones are ignored), newest message first so a record renamed
// since keeps its latest label: each message's stored mentions, then every
// [Label](ensemble://kind/id) or [@Label](ensemble://kind/id) in its text.
std::vector<Ref> HistoryRefs(const std::vector<HistoryMessage>& messages);

// The record links in `text`: [Label](ensemble://kind/id), the label
// unescaped and without a leading "@". Links with a bad id are skipped.
std::vector<Ref> RecordLinksIn(std::string_view text);

// What the turn knows before the model runs.
struct TurnStart {
  std::vector<Mention> mentions;
  std::optional<Ref> open_item;
  std::vector<EnabledSkill> skills;
  std::vector<HistoryMessage> history;
  std::vector<Ref> extra;  // Ensemble Node's rooms
};

// The turn's refs, built in the spec's order: the start, then each tool
// result as it lands.
class TurnRefs {
 public:
  explicit TurnRefs(const TurnStart& start);

  // Adds one call's refs to the turn and returns that call's own list (its
  // RefsFromResult, kept even when the turn's list is full).
  std::vector<Ref> AddToolResult(std::string_view tool_name, const nlohmann::json& result);

  const RefSet& known() const { return known_; }
  size_t call_count() const { return calls_.size(); }
  // The refs of the i-th AddToolResult, for its tool frame.
  const std::vector<Ref>& call_refs(size_t i) const { return calls_[i]; }

  // The `refs` stream frame's payload: {"refs": [{kind, id, label, detail?}]}.
  nlohmann::json RefsFrameJson() const;

 private:
  void AddAll(const std::vector<Ref>& refs);

  RefSet known_;
  std::vector<std::vector<Ref>> calls_;
};

// [{kind, id, label, detail?}] (detail left out when empty), the shape
// RefSetFromJson reads.
nlohmann::json RefListToJson(const std::vector<Ref>& refs);

}  // namespace ensemble::core::refs

#endif  // ENSEMBLE_CORE_REFS_COLLECT_H_
