// JS API for the limits the core enforces, so the app bounds what a person
// types or sends with the core's own numbers instead of copies that drift:
// the server refuses anything past them with the same constants.
//
// limits() -> {ok, <name>: N, ..., fields: {<kind>: {<field>: {...}}}}
//   The named numbers are the constants in the headers each line names
//   (tests/wasm/limits.test.mjs reads those headers and compares). `fields`
//   holds every synced kind's field bounds from its descriptor
//   (core/records/record_kind.h): text {maxChars}; a list of text {maxChars
//   (each item), maxItems}; a list of ids {maxItems}; JSON {maxBytes}; an
//   integer {min, max}. A field without bounds (a date, an enum, an id) is
//   left out. Characters are code points; a JS string's length counts UTF-16
//   units, never fewer, so a maxLength of maxChars never lets too much through.

#include <emscripten/bind.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "core/assistant/conversation_store.h"
#include "core/assistant/local_planner.h"
#include "core/assistant/offline_exchanges.h"
#include "core/boards/board.h"
#include "core/connections/connection.h"
#include "core/context/surface_tool_run.h"
#include "core/hub/hub.h"
#include "core/projects/project.h"
#include "core/records/record_kind.h"
#include "core/refs/mentions.h"
#include "core/refs/ref_set.h"
#include "core/spaces/space_admin.h"
#include "wasm/bindings/json_edge.h"

namespace ensemble::wasm {
namespace {

using core::records::FieldSpec;
using core::records::FieldType;
using nlohmann::json;

// One field's bounds; null when it has none.
json FieldBounds(const FieldSpec& field) {
  switch (field.type) {
    case FieldType::kText:
      return json{{"maxChars", field.max_chars}};
    case FieldType::kTextList:
      return json{{"maxChars", field.max_chars}, {"maxItems", field.max_items}};
    case FieldType::kIdList:
      return json{{"maxItems", field.max_items}};
    case FieldType::kJson:
      return json{{"maxBytes", field.max_chars}};
    case FieldType::kInt:
      return json{{"min", field.min}, {"max", field.max}};
    case FieldType::kEnum:
    case FieldType::kDate:
    case FieldType::kId:
      break;
  }
  return nullptr;
}

json FieldLimits() {
  json kinds = json::object();
  for (const core::records::RecordKind* kind : core::hub::RecordKinds().all) {
    json fields = json::object();
    for (const FieldSpec& field : kind->fields) {
      json bounds = FieldBounds(field);
      if (!bounds.is_null()) fields[std::string(field.name)] = std::move(bounds);
    }
    kinds[std::string(kind->kind)] = std::move(fields);
  }
  return kinds;
}

// The app asks once, at start; nothing to cache.
std::string LimitsJs() {
  return Guard([]() -> core::Result<json> {
    namespace assistant = core::assistant;
    return json{
        // A chat message or reply (core/assistant/conversation_store.h).
        {"maxMessageChars", assistant::kMaxMessageChars},
        {"maxConversationTitleChars", assistant::kMaxConversationTitleChars},
        // An upload of offline exchanges (core/assistant/offline_exchanges.h).
        {"maxOfflineExchanges", assistant::kMaxOfflineExchanges},
        {"maxOfflineExchangeCalls", assistant::kMaxOfflineExchangeCalls},
        {"maxOfflineCallTextChars", assistant::kMaxOfflineCallTextChars},
        // The open view sent with a message (core/context/surface_tool_run.h).
        {"maxSurfaceIds", core::context::kMaxSurfaceIds},
        // A message's mentions (core/refs/mentions.h).
        {"maxMentions", core::refs::kMaxMentions},
        {"maxMentionLabelBytes", core::refs::kMaxMentionLabelBytes},
        // Mentions the local planner reads (core/assistant/local_planner.h).
        {"maxLocalMentions", assistant::kMaxLocalMentions},
        // Refs a reply is formatted with (core/refs/ref_set.h).
        {"maxRefs", core::refs::RefSet::kMaxRefs},
        // Text inside JSON fields, which their descriptors cannot say.
        {"maxBoardColumnTitleChars", core::boards::kMaxColumnTitleChars},
        {"maxDeliverableTitleChars", core::projects::kMaxTitleChars},
        // Server-side records (core/spaces, core/connections).
        {"maxSpaceNameChars", core::spaces::kMaxSpaceNameChars},
        {"maxConnectionNameChars", core::connections::kMaxConnectionNameChars},
        {"fields", FieldLimits()},
    };
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(ensemble_limits) { emscripten::function("limits", &LimitsJs); }

}  // namespace ensemble::wasm
