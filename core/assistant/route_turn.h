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
// Thread-safety: pure function of its arguments.

#ifndef ENSEMBLE_CORE_ASSISTANT_ROUTE_TURN_H_
#define ENSEMBLE_CORE_ASSISTANT_ROUTE_TURN_H_

#include <nlohmann/json.hpp>

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
                                     const tools::ToolRegistry& registry,
                                     nlohmann::json request);

}  // namespace ensemble::core::assistant

#endif  // ENSEMBLE_CORE_ASSISTANT_ROUTE_TURN_H_
