// JS API for the shared mutation vectors (tests/vectors/*.json): runs one
// case on a fresh in-memory database, exactly as the native test does, so the
// two builds can be compared byte for byte. Test-only (ensemble_core_test,
// wasm/CMakeLists.txt).

#include <emscripten/bind.h>

#include <nlohmann/json.hpp>
#include <string>

#include "core/hub/hub.h"
#include "core/sync/vector_runner.h"
#include "wasm/bindings/json_edge.h"

namespace ensemble::wasm {
namespace {

using emscripten::val;
using nlohmann::json;

// runMutationVector(caseJson) -> {report: {results, rows}}
std::string RunMutationVector(val case_json) {
  return Guard([&]() -> core::Result<json> {
    ENSEMBLE_ASSIGN_OR_RETURN(json vector_case, JsonArg(case_json, "caseJson"));
    ENSEMBLE_ASSIGN_OR_RETURN(
        json report,
        core::sync::RunMutationVector(vector_case, core::hub::Config(), core::hub::Migrate));
    return json{{"report", std::move(report)}};
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(ensemble_vectors) {
  emscripten::function("runMutationVector", &RunMutationVector);
}

}  // namespace ensemble::wasm
