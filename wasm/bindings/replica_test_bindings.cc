// Test-only JS API (ensemble_core_test, wasm/CMakeLists.txt): the replica's
// outbox as it is, which the app never reads (it pushes pushRequest()'s
// batch), kept so the Node tests can check what a write queued.

#include <emscripten/bind.h>

#include <nlohmann/json.hpp>
#include <string>

#include "wasm/bindings/json_edge.h"
#include "wasm/bindings/session.h"

namespace ensemble::wasm {
namespace {

using nlohmann::json;

// outbox() -> {mutations: [{id, name, args, clientTime}]}
std::string Outbox() {
  return Guard([]() -> core::Result<json> {
    Session& s = Session::Get();
    ENSEMBLE_RETURN_IF_ERROR(s.CheckOpen());
    ENSEMBLE_ASSIGN_OR_RETURN(json mutations, s.replica().Outbox());
    return json{{"mutations", std::move(mutations)}};
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(ensemble_replica_test) { emscripten::function("outbox", &Outbox); }

}  // namespace ensemble::wasm
