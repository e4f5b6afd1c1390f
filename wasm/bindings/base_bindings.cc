// JS API of core/base: record ids, made in the browser so records can be
// created offline.

#include <emscripten/bind.h>

#include <nlohmann/json.hpp>
#include <string>

#include "core/base/id.h"
#include "wasm/bindings/json_edge.h"
#include "wasm/bindings/session.h"

namespace ensemble::wasm {
namespace {

using nlohmann::json;

// newId() -> {id}: time-ordered, collision-safe; needs no open database.
std::string NewId() {
  return Guard([]() -> core::Result<json> {
    core::platform::Env env = Session::Get().env();
    return json{{"id", core::NewId(*env.clock, *env.random)}};
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(ensemble_base) { emscripten::function("newId", &NewId); }

}  // namespace ensemble::wasm
