// Refs as JSON, the shape the wire, the CLI and the wasm bindings use:
// [{"kind", "id", "label", "detail"?}].
//
// Thread-safety: pure functions.

#ifndef ENSEMBLE_CORE_REFS_REF_JSON_H_
#define ENSEMBLE_CORE_REFS_REF_JSON_H_

#include <nlohmann/json.hpp>

#include "core/base/status.h"
#include "core/refs/format_entity_text.h"
#include "core/refs/ref_set.h"

namespace ensemble::core::refs {

// The refs of a JSON array; INVALID_ARGUMENT naming the entry for anything
// that is not a ref (a missing field, a bad id, more than RefSet::kMaxRefs).
// A repeated id keeps the first, as RefSet::Add does.
Result<RefSet> RefSetFromJson(const nlohmann::json& refs);

// {"plain"?: bool, "keepIds"?: bool}; other keys are INVALID_ARGUMENT.
Result<FormatOptions> FormatOptionsFromJson(const nlohmann::json& options);

}  // namespace ensemble::core::refs

#endif  // ENSEMBLE_CORE_REFS_REF_JSON_H_
