// Routing requests and results as JSON: the shape the wasm binding
// (routeMessage), the CLI (tools/ensemble route) and the shared vectors
// (tests/vectors/route/route.json) use, so all three route identically.
//
// Request (keys camelCase; any other key is INVALID_ARGUMENT):
//   message        string, required
//   mentions       [{kind, id?, label?}]   the message's @ mentions
//   mentionKinds   [string]                kinds alone (joined with mentions)
//   surface        {path?, customBoard?, surface?: {kind?, filters?: {customBoard?}}}
//                  the screen (AssistantPageContext): a custom board is a
//                  customBoard of true or a non-empty id at either level
//   path           string                  the open path (overrides surface.path)
//   apps           [{catalogName?, id?, vendor?, meetingNotes?}]  connected apps
//   allowedTools   [string]  default: router.known_tools() (KnownToolNames)
//   buildTools     [string]  default: router.known_tools()
//   appTools       [string]  allowed app tools not named apps_*
//   loaded         [string]  playbooks hub_how_to loaded in this loop
//   toolsetsOff    bool      ENSEMBLE_ASSISTANT_TOOLSETS=off
//   enabledModules [string]  default: every module a playbook names
// Result: {"guides": [..], "tools": [..], "simpleTodo": bool, "recipe": ""}.
//
// Thread-safety: pure functions.

#ifndef ENSEMBLE_CORE_PLAYBOOKS_ROUTE_JSON_H_
#define ENSEMBLE_CORE_PLAYBOOKS_ROUTE_JSON_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "core/base/status.h"
#include "core/playbooks/playbook_set.h"
#include "core/playbooks/router.h"

namespace ensemble::core::playbooks {

// Bounds on one request, so a hostile one cannot make routing slow.
inline constexpr std::size_t kMaxRouteListItems = 1024;
inline constexpr std::size_t kMaxRouteMessageBytes = 256 * 1024;

// The request described by `json`; INVALID_ARGUMENT naming the field for a
// wrong type, an unknown key or a list over kMaxRouteListItems.
// Defaults come from `router` (its playbooks' modules and tool names).
// With `default_tools` false, allowedTools and buildTools stay empty when the
// request leaves them out (a caller with a tool registry fills them).
Result<RouteRequest> RouteRequestFromJson(const nlohmann::json& json, const Router& router,
                                          bool default_tools = true);

nlohmann::json RouteResultToJson(const RouteResult& result);

// Appends RouteResultToJson(result).dump() to `out`, written directly rather
// than through a json tree (the names must be valid UTF-8, as every name
// routing returns is). With `ok_member`, also "ok":true, placed where the wasm
// edge's OkJson puts it (keys in sorted order), so the text is byte for byte
// what OkJson gives.
void AppendRouteResultJson(const RouteResultView& result, bool ok_member, std::string* out);

// Appends `text` as a JSON string exactly as nlohmann's dump() writes it
// (ensure_ascii off): quotes, backslashes and control characters escaped.
void AppendJsonString(std::string_view text, std::string* out);

}  // namespace ensemble::core::playbooks

#endif  // ENSEMBLE_CORE_PLAYBOOKS_ROUTE_JSON_H_
