#include "core/tools/tool_runs.h"

#include <optional>
#include <utility>

#include "core/records/record_kind.h"
#include "core/refs/summary.h"
#include "core/sync/authorization.h"
#include "core/text/trim.h"
#include "core/text/typography.h"

namespace ensemble::core::tools {

using nlohmann::json;
using text::kCloseQuote;
using text::kOpenQuote;

namespace {

Result<ToolContext*> ContextOf(const ToolCall& call) {
  ToolContext* ctx = call.context;
  if (!ctx || !ctx->db || ctx->space_id.empty()) {
    return Status(codes::kFailedPrecondition, call.name + " needs a turn's store and space");
  }
  // Hooks run after schema validation; a caller that skipped it still gets
  // an error rather than a json exception.
  if (!call.input.is_object()) return InvalidArgument(call.name + " takes an object");
  return ctx;
}

// A named account must be a member of the space to read it; a space it
// cannot open is answered as not found.
Status CheckCanRead(ToolContext& ctx) {
  if (ctx.account_id.empty()) return Status::Ok();
  ENSEMBLE_ASSIGN_OR_RETURN(std::optional<sync::Role> role,
                            sync::RoleIn(*ctx.db, ctx.space_id, ctx.account_id));
  if (!role) return Status(codes::kNotFound, "no space " + ctx.space_id);
  return Status::Ok();
}

}  // namespace

Result<ToolContext*> ReadableContext(const ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, ContextOf(call));
  ENSEMBLE_RETURN_IF_ERROR(CheckCanRead(*ctx));
  return ctx;
}

Result<ToolContext*> WritableContext(const ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, ReadableContext(call));
  if (!ctx->write) return Status(codes::kFailedPrecondition, "this turn cannot make changes");
  return ctx;
}

std::string StringIn(const json& input, const char* key) {
  return records::StringMember(input, key);
}

int IntIn(const json& input, const char* key, int fallback) {
  auto it = input.find(key);
  return it != input.end() && it->is_number_integer() ? it->get<int>() : fallback;
}

bool BoolIn(const json& input, const char* key, bool fallback) {
  auto it = input.find(key);
  return it != input.end() && it->is_boolean() ? it->get<bool>() : fallback;
}

std::string Quoted(std::string_view title) {
  return std::string(kOpenQuote) + text::TruncateChars(title, refs::kMaxSummaryTitleChars) +
         std::string(kCloseQuote);
}

std::string DayText(const std::string& date, const std::string& today) {
  return refs::FormatDueDate(date, today.size() < 4 || date.compare(0, 4, today, 0, 4) != 0);
}

json UndoJson(std::vector<Mutation> mutations) {
  json out = json::array();
  for (Mutation& m : mutations) out.push_back({{"name", m.name}, {"args", std::move(m.args)}});
  return out;
}

}  // namespace ensemble::core::tools
