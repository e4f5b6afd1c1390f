// JS API for playbook routing (spec 000 §3): which guides and tools a draft
// message gets, over the playbooks compiled into the module
// (ensemble::playbooks_embedded), exactly as the native core routes them.
// Test-only until the app calls it (ensemble_core_test, wasm/CMakeLists.txt):
// tests/wasm/route.test.mjs and the core benchmark use it.
//
// routeMessage(requestJson) -> {guides, tools, simpleTodo, recipe} is defined
// in JS by route_pre.js (linked with --pre-js) over the two C functions below,
// not through Embind: Embind's std::string conversions are JS loops over every
// byte, which cost more than routing itself. route_pre.js writes the request
// as UTF-8 (TextEncoder.encodeInto) into the buffer
// ensemble_route_request_buffer returns, calls ensemble_route_message, and
// reads the answer with TextDecoder.
//
// Thread-safety: the module is single-threaded; the buffers are per module.

#include <emscripten/emscripten.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "core/assistant/hub_tools.h"
#include "core/assistant/route_turn.h"
#include "core/hub/hub_tools.h"
#include "core/playbooks/embedded.h"
#include "core/playbooks/router.h"
#include "wasm/bindings/json_edge.h"

namespace ensemble::wasm {
namespace {

namespace pb = core::playbooks;

// A request buffer larger than this is released after its call, so one huge
// request does not hold memory for the module's lifetime.
constexpr std::size_t kKeptRequestBufferBytes = 64 * 1024;

// Built once: the embedded playbooks and the hub's registry never change
// while the module runs.
const core::Result<core::assistant::TurnRouter>& EmbeddedTurnRouter() {
  using core::assistant::TurnRouter;
  static const auto* router = new core::Result<TurnRouter>([]() -> core::Result<TurnRouter> {
    ENSEMBLE_ASSIGN_OR_RETURN(pb::PlaybookSet set, pb::PlaybookSet::Build(pb::EmbeddedPlaybooks()));
    return TurnRouter(pb::Router(std::move(set)), core::hub::HubToolRegistry());
  }());
  return *router;
}

// The answer text for request text; the request is core/assistant/
// route_turn.h's (the allowed tools default to what the hub's registry allows
// the request's role). The text is TurnRouter's, with the edge's "ok" member
// (what Guard and OkJson would write, byte for byte, without building a json
// tree).
std::string RouteMessageText(std::string_view request_json) {
  try {
    const core::Result<core::assistant::TurnRouter>& router = EmbeddedTurnRouter();
    if (!router.ok()) return ErrorJson(router.status());
    core::Result<std::string> answer = router->RouteText(request_json, /*ok_member=*/true);
    if (answer.ok()) return std::move(answer).value();
    if (answer.status().code() == core::codes::kMalformedJson) {
      return ErrorJson(core::Status(core::codes::kMalformedJson, "requestJson is not valid JSON"));
    }
    return ErrorJson(answer.status());
  } catch (...) {
    // As Guard: nothing throws into JS (memory exhaustion).
    return ErrorJson(core::Status(core::codes::kInternal, "internal error"));
  }
}

std::string& RequestBuffer() {
  static auto* buffer = new std::string();
  return *buffer;
}

}  // namespace

// Where route_pre.js reads the last answer: UTF-8 bytes, not terminated.
struct RouteAnswer {
  const char* data = nullptr;
  std::uint32_t size = 0;
};

}  // namespace ensemble::wasm

extern "C" {

// The request buffer, at least `capacity` bytes; null when memory is
// exhausted. Valid until the next call of either function.
EMSCRIPTEN_KEEPALIVE char* ensemble_route_request_buffer(std::size_t capacity) {
  std::string& buffer = ensemble::wasm::RequestBuffer();
  try {
    if (buffer.size() < capacity) buffer.resize(capacity);
  } catch (...) {
    return nullptr;
  }
  return buffer.data();
}

// Routes the first `size` bytes of the request buffer (UTF-8 JSON text), or,
// when `is_string` is 0, answers that requestJson must be a string. The answer
// stays valid until the next call.
EMSCRIPTEN_KEEPALIVE const ensemble::wasm::RouteAnswer* ensemble_route_message(std::size_t size,
                                                                               int is_string) {
  using ensemble::wasm::RouteAnswer;
  namespace core = ensemble::core;
  // Written when even the answer cannot be stored (memory).
  static constexpr std::string_view kOutOfMemory =
      R"({"ok":false,"code":"INTERNAL","message":"out of memory"})";
  static auto* text = new std::string();
  static RouteAnswer answer;
  std::string& request = ensemble::wasm::RequestBuffer();
  try {
    if (is_string == 0 || size > request.size()) {
      *text = ensemble::wasm::ErrorJson(
          core::Status(core::codes::kMalformedJson, "requestJson must be a JSON string"));
    } else {
      *text = ensemble::wasm::RouteMessageText(std::string_view(request.data(), size));
    }
    answer.data = text->data();
    answer.size = static_cast<std::uint32_t>(text->size());
  } catch (...) {
    answer.data = kOutOfMemory.data();
    answer.size = static_cast<std::uint32_t>(kOutOfMemory.size());
  }
  if (request.size() > ensemble::wasm::kKeptRequestBufferBytes) std::string().swap(request);
  return &answer;
}

}  // extern "C"
