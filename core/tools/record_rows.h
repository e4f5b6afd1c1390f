// What the hooks of the record tools (projects, pages, people, comments,
// reminders, ...) share, written once over a synced record kind named by a
// Noun. The kind is found by name among the turn's kinds
// (ToolContext::record_kinds), so a domain's tools can name another domain's
// records (a task's people) without including that domain. Reads go to the
// kind's table within the turn's space; an id of another space, or of no
// record, is "no <kind> with id ..." (NOT_FOUND), never evidence of access.
// The turn's context checks, quoting and Undo encoding are every tool's
// (tool_runs.h).
//
// Thread-safety: stateless functions; as the ToolContext given.

#ifndef ENSEMBLE_CORE_TOOLS_RECORD_ROWS_H_
#define ENSEMBLE_CORE_TOOLS_RECORD_ROWS_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/records/record_kind.h"
#include "core/refs/summary.h"
#include "core/tools/tool.h"
#include "core/tools/tool_context.h"
#include "core/tools/tool_runs.h"

namespace ensemble::core::tools::record_rows {

using nlohmann::json;
// What every tool's hooks share (tool_runs.h), for the files that use this
// namespace.
using tools::Mutation;
using tools::Quoted;
using tools::ReadableContext;
using tools::ToolCall;
using tools::ToolContext;
using tools::UndoJson;
using tools::WritableContext;

// How a tool names the records of one kind in its text.
struct Noun {
  std::string_view kind;      // The record kind's name: "project".
  std::string_view singular;  // "project"
  std::string_view plural;    // "projects"
  std::string_view title;     // The field that titles one: "title", "name".
};

// The nouns that more than one domain's tools name.
inline constexpr Noun kProject = {"project", "project", "projects", "title"};
inline constexpr Noun kPerson = {"person", "person", "people", "name"};
inline constexpr Noun kTask = {"task", "task", "tasks", "title"};
inline constexpr Noun kPage = {"page", "page", "pages", "title"};

// The kind `noun` names among the turn's kinds; INTERNAL when the build has
// no such kind.
Result<const records::RecordKind*> KindOf(const ToolContext& ctx, const Noun& noun);

// NOT_FOUND "no <kind> with id <id>".
Status NotFound(const Noun& noun, const std::string& id);

// The record `id` of the turn's space (in Trash or not), as ReadRecord gives
// it (JSON fields parsed), or nullopt.
Result<std::optional<json>> FindInSpace(ToolContext& ctx, const Noun& noun, const std::string& id);
// The same, NOT_FOUND when absent, of another space, or in Trash.
Result<json> LiveInSpace(ToolContext& ctx, const Noun& noun, const std::string& id);
// The live records of the space, oldest first.
Result<std::vector<json>> AllLive(ToolContext& ctx, const Noun& noun);
// NOT_FOUND naming the first of `ids` that is not a live record of the space.
Status CheckLiveIds(ToolContext& ctx, const Noun& noun, const json& ids);

// The record's title, for summaries.
std::string TitleOf(const Noun& noun, const json& row);
std::vector<refs::SummaryItem> ItemsOf(const Noun& noun, const std::vector<json>& rows);

// True when every word of `query` appears in one of `texts` (ASCII case
// folded), so "launch plan" finds "Plan the launch". An empty query matches.
bool MatchesQuery(std::string_view query, const std::vector<std::string>& texts);

// The page of `rows` a list call asks for (limit, offset), and its summary:
// {<plural>: [...rows as `shape` gives them], total, offset, nextOffset?}.
json ListResult(const Noun& noun, const json& in, const std::vector<json>& rows,
                const std::string& query, json (*shape)(const json& row));

// INVALID_ARGUMENT when `object` gives a value (not null, "" or []) to one
// of `unkept`: "<plural> do not keep <name> yet, so <tool> cannot use it;
// leave it out".
Status RefuseUnkept(const Noun& noun, const json& object,
                    std::initializer_list<std::string_view> unkept, std::string_view tool);

// The delete tools (hub_delete_projects, _pages, _people): the live records
// the input's ids mean, in its order, each resolved in the space (one already
// in Trash is left out); prepare fixes them, Apply moves them to Trash with
// <kind>.delete and Undo restores them.
Result<std::vector<json>> DeleteTargets(ToolContext& ctx, const Noun& noun, const json& in);
Status PrepareDelete(const Noun& noun, ToolCall& call);
Result<std::string> PreviewDelete(const Noun& noun, const ToolCall& call);
Result<json> RunDelete(const Noun& noun, ToolCall& call);

// A conflict of an update as the model and the person read it: the record's
// current values of the fields sent, and what to do.
Status ConflictError(ToolContext& ctx, const Noun& noun, const json& before, const json& fields,
                     const Status& refused);

// The Undo of an update: <kind>.update back to `previous`, based on the
// values written (so a later change by someone else is not overwritten).
Mutation UpdateBack(const Noun& noun, const std::string& id, const json& previous,
                    const json& written);

// Pins what an update is based on (spec 000 §7: Apply changes only what was
// previewed): adds to input["base"] each of `current` (the record's values
// of the changed fields, under the input's names) that the base does not
// already give, so a held edit applied after someone else changed one of its
// fields answers SAVE_CONFLICT instead of overwriting their work. Leaves an
// input that gives expectedVersion (the model chose that rule) as it is.
void PinBase(json& input, const json& current);

// A new record id at the turn's time (+ `offset` ms, so ids of one call keep
// their order).
Result<std::string> NewRecordId(ToolContext& ctx, int64_t offset = 0);

}  // namespace ensemble::core::tools::record_rows

#endif  // ENSEMBLE_CORE_TOOLS_RECORD_ROWS_H_
