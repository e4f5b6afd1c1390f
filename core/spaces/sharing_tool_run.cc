#include "core/spaces/sharing_tool_run.h"

#include <string>
#include <vector>

#include "core/spaces/space_admin.h"
#include "core/tasks/task_tool_rows.h"
#include "core/text/trim.h"
#include "core/tools/tool_runs.h"

namespace ensemble::core::spaces {
namespace {

using nlohmann::json;
using tools::Quoted;
using tools::ToolCall;
using tools::ToolContext;

constexpr char kLocalMode[] =
    "This hub keeps one person's work (local mode): the space is not shared with anyone.";

// "Ana (ana@example.com)", or the address alone.
std::string Who(const spaces::Member& m) {
  return m.name.empty() ? m.email : m.name + " (" + m.email + ")";
}

std::string SpaceName(const spaces::SpaceInfo& s) {
  return s.name.empty() ? std::string("Personal") : s.name;
}

}  // namespace

Result<json> RunReadSharing(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, tools::ReadableContext(call));
  if (ctx->account_id.empty()) {
    return json{{"summary", kLocalMode},
                {"data", {{"space", {{"id", ctx->space_id}}}, {"members", json::array()}}}};
  }
  ENSEMBLE_ASSIGN_OR_RETURN(std::vector<spaces::Member> members,
                            spaces::MembersOf(*ctx->db, ctx->account_id, ctx->space_id));
  ENSEMBLE_ASSIGN_OR_RETURN(std::vector<spaces::SpaceInfo> all,
                            spaces::SpacesOf(*ctx->db, ctx->account_id));
  json space = {{"id", ctx->space_id}};
  json others = json::array();
  std::string others_text;
  for (const spaces::SpaceInfo& s : all) {
    if (s.id == ctx->space_id) {
      space = {{"id", s.id}, {"name", SpaceName(s)}, {"yourRole", sync::RoleName(s.role)}};
      continue;
    }
    others.push_back({{"id", s.id}, {"name", SpaceName(s)}, {"role", sync::RoleName(s.role)}});
    others_text += (others_text.empty() ? "" : ", ") + Quoted(SpaceName(s)) + " (" +
                   std::string(sync::RoleName(s.role)) + ")";
  }
  json listed = json::array();
  std::string people;
  for (const spaces::Member& m : members) {
    const bool you = m.account_id == ctx->account_id;
    listed.push_back(
        {{"name", m.name}, {"email", m.email}, {"role", sync::RoleName(m.role)}, {"you", you}});
    people += (people.empty() ? "" : ", ") + (you ? std::string("you") : Who(m)) + " as " +
              std::string(sync::RoleName(m.role));
  }
  std::string summary = Quoted(space.value("name", ctx->space_id)) + " has " +
                        text::CountText(members.size(), "member", "members") + ": " + people + ".";
  if (!others.empty()) summary += " Your other spaces: " + others_text + ".";
  return json{{"summary", summary},
              {"data", {{"space", space}, {"members", listed}, {"otherSpaces", others}}}};
}

}  // namespace ensemble::core::spaces
