// hub_item_context: one record of the turn's space and the records around
// it, both ways (neighbors.h), so the model can answer "what is going on with
// X" in one step; and the kinds the tools' schemas name that this hub does
// not keep yet.

#include "core/context/item_context.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "core/context/neighbors.h"
#include "core/context/packet.h"
#include "core/context/search_tool_runs.h"
#include "core/tools/tool_runs.h"

namespace ensemble::core::context {
namespace {

using nlohmann::json;
using tools::ToolCall;
using tools::ToolContext;

// The packet hub_item_context gives the model: a coding agent's brief's
// budget (spec §5), a tenth of what one tool result may hold.
constexpr std::size_t kItemContextPacketChars = kDefaultPacketChars;

constexpr std::string_view kUnkept[][2] = {
    {"meeting", "meetings"}, {"file", "files"}, {"skill", "personal skills"}, {"event", "events"}};

}  // namespace

bool IsUnkeptKind(std::string_view kind) {
  return std::any_of(std::begin(kUnkept), std::end(kUnkept),
                     [&](const auto& k) { return k[0] == kind; });
}

std::vector<std::string> UnkeptKinds(const json& kinds) {
  std::vector<std::string> out;
  if (!kinds.is_array()) return out;
  for (const json& k : kinds) {
    if (k.is_string() && IsUnkeptKind(k.get<std::string>())) out.push_back(k);
  }
  return out;
}

std::string UnkeptText(const std::vector<std::string>& kinds) {
  std::string out;
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    std::string_view plural = kinds[i];
    for (const auto& k : kUnkept) {
      if (k[0] == kinds[i]) plural = k[1];
    }
    if (i) out += i + 1 == kinds.size() ? " and " : ", ";
    out += plural;
  }
  if (!out.empty()) out[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(out[0])));
  return out + " are not kept in this hub yet";
}

Result<json> RunItemContext(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, tools::ReadableContext(call));
  NeighborsRequest request;
  request.kind = call.input.value("kind", std::string());
  request.id = call.input.value("id", std::string());
  request.rel = call.input.value("rel", std::string());
  request.limit = static_cast<std::size_t>(
      tools::IntIn(call.input, "limit", static_cast<int>(kDefaultRelationItems)));
  request.offset = static_cast<std::size_t>(tools::IntIn(call.input, "offset", 0));
  if (IsUnkeptKind(request.kind)) {
    return InvalidArgument(UnkeptText({request.kind}) + ", so there is no context to read for it");
  }
  if (request.rel.empty()) request.limit = std::max(request.limit, kPacketRelationItems);
  ENSEMBLE_ASSIGN_OR_RETURN(json neighbors, ItemNeighbors(*ctx, request));
  std::string summary = NeighborsSummary(neighbors);
  if (!request.rel.empty()) {
    return json{{"summary", std::move(summary)}, {"data", std::move(neighbors)}};
  }
  // The whole context goes to the model as its work packet: every row with
  // its handle, in less than the JSON would take.
  json data = {{"record", neighbors["record"]},
               {"packet", PacketOf(neighbors, kItemContextPacketChars)}};
  return json{{"summary", std::move(summary)}, {"data", std::move(data)}};
}

}  // namespace ensemble::core::context
