// Routing one assistant turn against the hub's tool registry: the playbook
// router (core/playbooks/router.h) decides what the model is shown, and the
// registry's ToolsFor decides what this account may run, so a routed tool is
// always one the settings, modules and role allow (spec 000 §3, §4, §7). The
// browser (routeMessage), the CLI (tools/ensemble route) and the server call
// this same function.
//
// Request: core/playbooks/route_json.h's, plus
//   role               "owner" | "editor" | "guest" | "viewer" (default owner)
//   allowedWriteAreas  [area]   settings.assistant.allowedWriteAreas
//                               (default: every area)
// When the request names no allowedTools, the allowed tools are the
// registry's ToolsFor under that role, those areas and the request's
// enabledModules, plus the request's appTools (the connected apps' tools of
// this turn); buildTools defaults to every registered tool plus appTools.
//
// TurnRouter does the same for request text, built once: request text in,
// answer text out, without a json tree either way.
//
// Thread-safety: the functions are pure functions of their arguments; a
// TurnRouter is immutable after construction and may be shared.

#ifndef ENSEMBLE_CORE_ASSISTANT_ROUTE_TURN_H_
#define ENSEMBLE_CORE_ASSISTANT_ROUTE_TURN_H_

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/playbooks/route_json.h"
#include "core/playbooks/router.h"
#include "core/tools/tool_registry.h"

namespace ensemble::core::assistant {

// The RouteRequest `request` describes, with its tools resolved against
// `registry`; INVALID_ARGUMENT naming the field for bad input.
Result<playbooks::RouteRequest> TurnRouteRequest(const playbooks::Router& router,
                                                 const tools::ToolRegistry& registry,
                                                 nlohmann::json request);

// Routes `request` and returns RouteResultToJson of the result.
Result<nlohmann::json> RouteTurnJson(const playbooks::Router& router,
                                     const tools::ToolRegistry& registry, nlohmann::json request);

// Routes request text to answer text: RouteTurnJson(parse(text)).dump(),
// byte for byte, for any text. The registry's tools, the playbooks' default
// modules and tool names are worked out once at construction; a request is
// read in place (core/text/json_reader.h), routed on views and its
// answer written directly. A request the fast reader declines (invalid,
// unusual) goes the json-tree way, so errors are worded in one place.
class TurnRouter {
 public:
  // `registry` must outlive the TurnRouter.
  TurnRouter(playbooks::Router router, const tools::ToolRegistry& registry);

  // The answer text; MALFORMED_JSON for text that is not JSON, else
  // RouteTurnJson's error. With `ok_member`, the answer also holds "ok":true
  // where the wasm edge's OkJson puts it (route_json.h).
  Result<std::string> RouteText(std::string_view request_text, bool ok_member = false) const;

  const playbooks::Router& router() const { return router_; }

 private:
  struct RegisteredTool {
    std::string_view name;
    std::string_view module;
    std::string_view area;
    bool is_write = false;
    const tools::ToolDef* def = nullptr;  // The registry's; outlives the router.
  };
  // Routes a request the fast reader accepted; false when it declined.
  bool RouteFast(std::string_view request_text, bool ok_member, std::string* out) const;

  playbooks::Router router_;
  const tools::ToolRegistry& registry_;
  std::vector<RegisteredTool> registered_;          // In name order (ToolsFor's).
  std::vector<std::string_view> registered_names_;  // The same names.
  std::vector<std::string_view> default_modules_;   // Every module a playbook names.
};

}  // namespace ensemble::core::assistant

#endif  // ENSEMBLE_CORE_ASSISTANT_ROUTE_TURN_H_
