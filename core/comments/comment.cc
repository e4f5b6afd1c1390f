#include "core/comments/comment.h"

#include "core/records/record_mutators.h"
#include "core/sync/authorization.h"

namespace ensemble::core::comments {

using nlohmann::json;
using store::Value;

namespace {

const records::FieldSpec kFields[] = {
    {.name = "target_kind",
     .type = records::FieldType::kEnum,
     .required = true,
     .values = kTargetKinds},
    {.name = "target", .type = records::FieldType::kId, .required = true},
    {.name = "body", .required = true, .max_chars = kMaxBodyChars},
    {.name = "resolved", .type = records::FieldType::kInt, .min = 0, .max = 1},
};

// OK when the target the arguments name is a live record of their space.
// Malformed arguments are left to CreateRecord, which says what is wrong.
Status CheckTarget(store::Database& db, records::RecordKinds kinds, const json& args) {
  if (!args.is_object()) return Status::Ok();
  const json kind = args.value("target_kind", json(nullptr));
  const json target = args.value("target", json(nullptr));
  const json space = args.value("spaceId", json(nullptr));
  if (!kind.is_string() || !target.is_string() || !space.is_string()) return Status::Ok();
  if (!records::CheckField(*kCommentKind.FindField("target_kind"), kind).ok() ||
      !records::CheckField(*kCommentKind.FindField("target"), target).ok()) {
    return Status::Ok();
  }
  return CheckLiveTarget(db, kinds, kind.get<std::string>(), target.get<std::string>(),
                         space.get<std::string>());
}

}  // namespace

std::string_view TargetTable(records::RecordKinds kinds, std::string_view kind) {
  if (!IsTargetKind(kind)) return "";
  const records::RecordKind* found = kinds.Find(kind);
  return found ? found->table : "";
}

Status CheckLiveTarget(store::Database& db, records::RecordKinds kinds, std::string_view kind,
                       const std::string& id, const std::string& space_id) {
  const std::string_view table = TargetTable(kinds, kind);
  if (table.empty())
    return Status(codes::kInvalidArgument, "not a record kind: " + std::string(kind));
  return records::CheckLiveRecord(db, {kind, table}, id, space_id);
}

const records::RecordKind kCommentKind = {kKind, kTable, kFields};

Status CreateComment(sync::MutationContext& ctx, records::RecordKinds kinds, const json& args) {
  ENSEMBLE_RETURN_IF_ERROR(CheckTarget(ctx.db(), kinds, args));
  return records::CreateRecord(kCommentKind, ctx, args);
}

Status UpdateComment(sync::MutationContext& ctx, const json& args) {
  if (args.is_object() && args.contains("fields") && args["fields"].is_object() &&
      (args["fields"].contains("target") || args["fields"].contains("target_kind"))) {
    return Status(codes::kInvalidArgument,
                  "a comment stays on its record: target and target_kind cannot change");
  }
  return records::UpdateRecord(kCommentKind, ctx, args);
}

const store::Migration kAddCommentAuthors = {
    30, "comment authors", "ALTER TABLE comments ADD COLUMN author TEXT NOT NULL DEFAULT '';"};

Status CheckCommentWriter(store::Database& db, const std::string& account_id,
                          std::string_view mutation, const json& args) {
  const bool edit = mutation == "comment.update";
  const bool remove = mutation == "comment.delete" || mutation == "comment.restore";
  if ((!edit && !remove) || !args.is_object() || !args.contains("id") || !args["id"].is_string()) {
    return Status::Ok();
  }
  ENSEMBLE_ASSIGN_OR_RETURN(store::Rows rows,
                            db.Query("SELECT author, space_id FROM comments WHERE id = $1",
                                     {Value(args["id"].get<std::string>())}));
  if (rows.empty()) return Status::Ok();  // The mutator answers NOT_FOUND itself.
  const std::string author = store::AsText(rows.rows[0][0]);
  if (author == account_id) return Status::Ok();
  if (edit) {
    // Resolving or reopening a thread is not editing what someone said.
    const json& fields = args.value("fields", json::object());
    if (fields.is_object() && fields.size() == 1 && fields.contains("resolved")) {
      return Status::Ok();
    }
  }
  ENSEMBLE_ASSIGN_OR_RETURN(std::optional<sync::Role> role,
                            sync::RoleIn(db, store::AsText(rows.rows[0][1]), account_id));
  const bool owner = role == sync::Role::kOwner;
  if (owner && (remove || author.empty())) return Status::Ok();
  return Status(codes::kForbidden, edit ? "only its author edits a comment"
                                        : "only its author or the space's owner deletes a comment");
}

Status StampCommentAuthor(store::Database& db, const std::string& account_id,
                          std::string_view mutation, const json& args) {
  if (mutation != "comment.create" || !args.is_object() || !args.contains("id") ||
      !args["id"].is_string()) {
    return Status::Ok();
  }
  return db.Exec("UPDATE comments SET author = $1 WHERE id = $2",
                 {Value(account_id), Value(args["id"].get<std::string>())});
}

void RegisterMutators(sync::MutatorRegistry& registry, records::RecordKinds kinds) {
  records::RegisterRecordMutators(kCommentKind, registry);
  registry.Register("comment.create", [kinds](sync::MutationContext& ctx, const json& args) {
    return CreateComment(ctx, kinds, args);
  });
  registry.Register("comment.update", UpdateComment);
}

Result<std::vector<json>> ListComments(store::Database& db, const std::string& space_id,
                                       const std::string& target) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      db.Query("SELECT id, target_kind, target, body, resolved, version FROM comments"
               " WHERE space_id = $1 AND target = $2 AND deleted = 0 ORDER BY id",
               {Value(space_id), Value(target)}));
  std::vector<json> out;
  out.reserve(rows.size());
  for (const auto& r : rows.rows) {
    out.push_back({{"id", store::AsText(r[0])},
                   {"target_kind", store::AsText(r[1])},
                   {"target", store::AsText(r[2])},
                   {"body", store::AsText(r[3])},
                   {"resolved", store::AsInt(r[4])},
                   {"version", store::AsInt(r[5])}});
  }
  return out;
}

}  // namespace ensemble::core::comments
