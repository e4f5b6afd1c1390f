// Desk lists: the person's own short lists on their desk (spec 002 §2
// "Today, recap, profile lists": desk lists list, add, change, remove), such
// as "Waiting on" or "Reading". A list and each of its lines are synced
// records, so two devices ticking different lines offline both keep their
// tick (one record each) instead of conflicting over one array:
//
//   desk_list.create {id, spaceId, title}: a desk holds fewer than
//     kMaxDeskLists live lists (else LIMIT_REACHED).
//   desk_list.update {id, fields: {title?}, base?}
//   desk_list.delete / desk_list.restore {id}: soft; a list's lines stay
//     records and come back with it.
//   desk_list_item.create {id, spaceId, list, text, done?, position?}
//     the list is a live desk list of spaceId (else NOT_FOUND, or
//     FAILED_PRECONDITION when it is in Trash) holding fewer than
//     kMaxDeskListItems live lines (else LIMIT_REACHED).
//   desk_list_item.update {id, fields: {text?, done?, position?}, base?}:
//     a line keeps its list (INVALID_ARGUMENT).
//   desk_list_item.delete / .restore {id}: soft, as every kind.
//
// Only the space's owner writes them (sync::AuthorizeMutation), as
// reminders.
//
// Thread-safety: constants and stateless functions; as the context given.

#ifndef ENSEMBLE_CORE_DESK_DESK_LIST_H_
#define ENSEMBLE_CORE_DESK_DESK_LIST_H_

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/records/record_kind.h"
#include "core/store/database.h"
#include "core/store/migrations.h"
#include "core/sync/mutator.h"

namespace ensemble::core::desk {

inline constexpr std::string_view kListKind = "desk_list";
inline constexpr std::string_view kListTable = "desk_lists";
inline constexpr std::string_view kItemKind = "desk_list_item";
inline constexpr std::string_view kItemTable = "desk_list_items";

// The spec names no caps: a list's title is a heading, a line is a line,
// and a list longer than this belongs in a page or a board.
inline constexpr size_t kMaxDeskListTitleChars = 200;
inline constexpr size_t kMaxDeskItemChars = 500;
inline constexpr size_t kMaxDeskListItems = 200;
inline constexpr size_t kMaxDeskLists = 50;
// Positions order a list's lines (lower first); clients leave gaps.
inline constexpr int64_t kMaxDeskItemPosition = 1'000'000'000;

// Fields: title (required, trimmed).
extern const records::RecordKind kListRecordKind;
// Fields: list (id, required), text (required, trimmed), done (0 or 1),
// position (0..kMaxDeskItemPosition).
extern const records::RecordKind kItemRecordKind;

// Migration 23: the desk_lists and desk_list_items tables.
extern const store::Migration kCreateDeskListTables;

Status CreateList(sync::MutationContext& ctx, const nlohmann::json& args);
Status CreateItem(sync::MutationContext& ctx, const nlohmann::json& args);
Status UpdateItem(sync::MutationContext& ctx, const nlohmann::json& args);

// Registers desk_list.* and desk_list_item.* (create, update, delete,
// restore).
void RegisterMutators(sync::MutatorRegistry& registry);

// The live lists of `space_id`, oldest first, each with its live lines in
// position order (then oldest first): [{id, title, items: [{id, text, done,
// position}]}].
Result<nlohmann::json> ReadDeskLists(store::Database& db, const std::string& space_id);

// The live lines of list `list_id` in `space_id`, shaped and ordered as
// ReadDeskLists gives them; empty for a list not there.
Result<nlohmann::json> ReadDeskLines(store::Database& db, const std::string& space_id,
                                     const std::string& list_id);

}  // namespace ensemble::core::desk

#endif  // ENSEMBLE_CORE_DESK_DESK_LIST_H_
