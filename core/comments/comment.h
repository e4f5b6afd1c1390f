// A comment: internal discussion on one record of a space (spec 002 §2,
// Comments: read, add, edit, resolve, delete). Its mutators are the generic
// record ones ("comment.create", ".update", ".delete", ".restore", from
// core/records), with two rules of its own:
//   - create: the target must be a live record of the comment's space, so a
//     comment never reaches, or confirms, a record of another space (an id of
//     another space, of nothing, or in Trash is NOT_FOUND "no task with id").
//   - update: a comment stays on its record; target and target_kind do not
//     change (INVALID_ARGUMENT). Editing the body and resolving are updates.
// Delete is soft (Trash), like every record.
//
// A comment carries its author: the account that wrote it, stamped by the
// server (StampCommentAuthor; a device's own copy has it empty until the
// server's row arrives). Only the author edits a comment's body, and only
// the author or the space's owner deletes or restores one; anyone who may
// write comments resolves or reopens it (CheckCommentWriter). A comment
// from before authors belongs, for these rules, to the space's owner.
//
// Thread-safety: constants and stateless functions; as the context given.

#ifndef ENSEMBLE_CORE_COMMENTS_COMMENT_H_
#define ENSEMBLE_CORE_COMMENTS_COMMENT_H_

#include <algorithm>
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/records/record_kind.h"
#include "core/store/database.h"
#include "core/store/migrations.h"
#include "core/sync/mutator.h"

namespace ensemble::core::comments {

inline constexpr std::string_view kKind = "comment";
inline constexpr std::string_view kTable = "comments";

// The spec names no cap; a comment is a few paragraphs (a longer text
// belongs in a page), and the same cap as a task's description.
inline constexpr size_t kMaxBodyChars = 10000;

// The kinds a comment can be on: the records people discuss.
inline constexpr std::string_view kTargetKinds[] = {"task", "project", "page", "person", "board"};

// (std::find, not std::ranges: the wasm build's libc++ 14 lacks ranges.)
inline bool IsTargetKind(std::string_view kind) {
  return std::find(std::begin(kTargetKinds), std::end(kTargetKinds), kind) !=
         std::end(kTargetKinds);
}

// The table of `kind` when it is one of kTargetKinds and one of `kinds` (the
// build's, core/hub's); empty otherwise.
std::string_view TargetTable(records::RecordKinds kinds, std::string_view kind);

// OK when `id` is a live record of `kind` (one of kTargetKinds) in
// `space_id`; INVALID_ARGUMENT for another kind, and NOT_FOUND as
// records::CheckLiveRecord answers. Watchers (core/reminders) watch the same
// kinds.
Status CheckLiveTarget(store::Database& db, records::RecordKinds kinds, std::string_view kind,
                       const std::string& id, const std::string& space_id);

// Fields: target_kind (one of kTargetKinds, required), target (record id,
// required), body (required text), resolved (0 open, 1 resolved; default 0).
extern const records::RecordKind kCommentKind;

// The comments table, for the hub's migration 15 (with the task fields).
inline constexpr std::string_view kCreateCommentsTableSql =
    "CREATE TABLE comments ("
    " id TEXT PRIMARY KEY,"
    " space_id TEXT NOT NULL,"
    " target_kind TEXT NOT NULL,"
    " target TEXT NOT NULL,"
    " body TEXT NOT NULL,"
    " resolved BIGINT NOT NULL DEFAULT 0,"
    " version BIGINT NOT NULL,"
    " deleted BIGINT NOT NULL DEFAULT 0,"
    " created_at BIGINT NOT NULL,"
    " updated_at BIGINT NOT NULL,"
    " row_version BIGINT NOT NULL DEFAULT 0);"
    "CREATE INDEX comments_target ON comments (space_id, target, id);"
    "CREATE INDEX comments_row_version ON comments (row_version);";

// {id, spaceId, target_kind, target, body, resolved?}; NOT_FOUND when the
// target is not a live record of spaceId (its table found in `kinds`).
Status CreateComment(sync::MutationContext& ctx, records::RecordKinds kinds,
                     const nlohmann::json& args);
// {id, fields: {body?, resolved?}, base?, expectedVersion?}
Status UpdateComment(sync::MutationContext& ctx, const nlohmann::json& args);

// Registers comment.* (create, update, delete, restore); `kinds` (the
// build's, outliving the registry) gives each target kind's table.
void RegisterMutators(sync::MutatorRegistry& registry, records::RecordKinds kinds);

// Migration 30: comments get an author.
extern const store::Migration kAddCommentAuthors;

// The author rules above, for `account_id` running `mutation` (any
// mutation; only comment ones are checked). FORBIDDEN when they refuse.
Status CheckCommentWriter(store::Database& db, const std::string& account_id,
                          std::string_view mutation, const nlohmann::json& args);

// After comment.create applies on the server: the writer is its author.
Status StampCommentAuthor(store::Database& db, const std::string& account_id,
                          std::string_view mutation, const nlohmann::json& args);

// The live comments on `target` in the space, oldest first, each
// {id, target_kind, target, body, resolved, version}.
Result<std::vector<nlohmann::json>> ListComments(store::Database& db, const std::string& space_id,
                                                 const std::string& target);

}  // namespace ensemble::core::comments

#endif  // ENSEMBLE_CORE_COMMENTS_COMMENT_H_
