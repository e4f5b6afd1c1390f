// Mentions as JSON, the shape the wire, the CLI, the wasm bindings and
// assistant_messages.mentions use: [{"kind", "id", "label"}]. Also a
// directory read from JSON, {kind: {name: [ids]}}, for the shared vectors,
// the wasm binding and the CLI (the server looks names up in its store).
//
// Thread-safety: pure functions; a MapMentionDirectory is immutable once
// built, so concurrent lookups are safe.

#ifndef ENSEMBLE_CORE_REFS_MENTION_JSON_H_
#define ENSEMBLE_CORE_REFS_MENTION_JSON_H_

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/base/status.h"
#include "core/refs/mentions.h"

namespace ensemble::core::refs {

// The mentions of a JSON array. A kind may be an alias ("people") and is
// stored canonical. INVALID_ARGUMENT naming the entry for anything else: not
// an array, a missing or non-string field, an unknown kind, a bad id, a label
// that is empty or too long, more than kMaxMentions entries.
Result<std::vector<Mention>> MentionsFromJson(const nlohmann::json& mentions);

// [{"kind", "id", "label"}], in order.
nlohmann::json MentionsToJson(const std::vector<Mention>& mentions);

// {"text": model text, "mentions": [...], "unresolved": [{"kind", "name",
// "matches", "offset", "overLimit"}]}.
nlohmann::json ResolvedMentionsToJson(const ResolvedMentions& resolved);

// Exact names to ids, per canonical kind.
class MapMentionDirectory : public MentionDirectory {
 public:
  void Add(std::string kind, std::string name, std::string id);
  std::vector<std::string> IdsNamed(std::string_view kind, std::string_view name) const override;

 private:
  std::map<std::pair<std::string, std::string>, std::vector<std::string>, std::less<>> ids_;
};

// {kind: {name: [ids]}} (kinds may be aliases); INVALID_ARGUMENT naming
// the entry otherwise. Ids are kept as given: a bad one simply never
// resolves, as a store would never return it.
Result<MapMentionDirectory> MentionDirectoryFromJson(const nlohmann::json& directory);

// The whole resolution from one JSON object, as the wasm binding and the
// shared vectors give it: {"text", "mentions"?: [...], "directory"?: {...}}
// -> ResolvedMentionsToJson. Unknown keys are INVALID_ARGUMENT.
Result<nlohmann::json> ResolveMentionsJson(const nlohmann::json& input);

}  // namespace ensemble::core::refs

#endif  // ENSEMBLE_CORE_REFS_MENTION_JSON_H_
