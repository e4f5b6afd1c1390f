#include "core/assistant/trash_tool_runs.h"

#include <string>
#include <vector>

#include "core/assistant/tool_context.h"
#include "core/hub/hub.h"
#include "core/sync/authorization.h"

namespace ensemble::core::assistant {
namespace {

using nlohmann::json;
using tools::ToolCall;
using tools::ToolContext;

struct Trashed {
  std::string kind;
  std::string id;
  std::string title;  // Its title or name, for the summary; may be empty.
};

// The record the call names, in Trash in the call's space.
Result<Trashed> FindTrashed(const ToolCall& call, ToolContext& ctx) {
  const std::string kind = call.input.value("kind", std::string());
  const std::string id = call.input.value("id", std::string());
  const sync::SyncedTable* table = hub::Config().FindKind(kind);
  if (!table) {
    return Status(codes::kInvalidArgument,
                  "a " + kind +
                      " cannot be restored here: Trash holds tasks, projects, pages, "
                      "people and boards");
  }
  if (!ctx.account_id.empty()) {
    ENSEMBLE_ASSIGN_OR_RETURN(std::optional<sync::Role> role,
                              sync::RoleIn(*ctx.db, ctx.space_id, ctx.account_id));
    if (!role) return Status(codes::kNotFound, "no space " + ctx.space_id);
  }
  ENSEMBLE_ASSIGN_OR_RETURN(store::Rows rows,
                            ctx.db->Query("SELECT * FROM " + std::string(table->table) +
                                              " WHERE id = $1 AND space_id = $2 AND deleted = 1",
                                          {store::Value(id), store::Value(ctx.space_id)}));
  if (rows.empty()) {
    return Status(codes::kNotFound, "nothing in Trash with id " + id + " (" + kind + ")");
  }
  Trashed out{kind, id, ""};
  for (size_t i = 0; i < rows.columns.size(); ++i) {
    if (rows.columns[i] == "title" || rows.columns[i] == "name") {
      out.title = store::AsText(rows.rows[0][i]);
    }
  }
  return out;
}

std::string Named(const Trashed& t) {
  return t.title.empty() ? "the " + t.kind : "“" + t.title + "”";
}

Result<ToolContext*> ContextOf(const ToolCall& call) {
  if (!call.context || !call.context->db || call.context->space_id.empty()) {
    return Status(codes::kFailedPrecondition, call.name + " needs a turn's store and space");
  }
  if (!call.input.is_object())
    return Status(codes::kInvalidArgument, call.name + " takes an object");
  return call.context;
}

Result<std::string> PreviewRestore(const ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, ContextOf(call));
  ENSEMBLE_ASSIGN_OR_RETURN(Trashed t, FindTrashed(call, *ctx));
  return "Restore " + Named(t) + " from Trash";
}

Result<json> RunRestore(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, ContextOf(call));
  if (!ctx->write) return Status(codes::kFailedPrecondition, "this turn cannot change records");
  ENSEMBLE_ASSIGN_OR_RETURN(Trashed t, FindTrashed(call, *ctx));
  ENSEMBLE_RETURN_IF_ERROR(ctx->write({{t.kind + ".restore", {{"id", t.id}}}}));
  return json{{"summary", "Restored " + Named(t) + " from Trash"},
              {"data", {{"kind", t.kind}, {"id", t.id}}},
              {"undo", json::array({{{"name", t.kind + ".delete"}, {"args", {{"id", t.id}}}}})}};
}

}  // namespace

void AttachTrashToolHooks(tools::ToolDef& def) {
  if (def.name != "hub_restore_from_trash") return;
  def.preview = PreviewRestore;
  def.run = RunRestore;
}

}  // namespace ensemble::core::assistant
