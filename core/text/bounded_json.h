// JSON read from outside (a request body, a model's tool arguments and
// answers) with a bound on nesting: what nests deeper than the bound is
// refused before any value of it is built, so no later walk of the value (a
// dump, a schema check, a copy) can recurse that deep. The parser keeps its
// own stack on the heap, so 200,000 open brackets cost memory, not the stack.
//
// Thread-safety: a pure function.

#ifndef ENSEMBLE_CORE_TEXT_BOUNDED_JSON_H_
#define ENSEMBLE_CORE_TEXT_BOUNDED_JSON_H_

#include <nlohmann/json.hpp>
#include <string_view>

#include "core/base/status.h"

namespace ensemble::core::text {

// Deeper JSON than this is refused; the deepest document the hub sends or
// takes (a push: request, mutations, a mutation, args, fields, a value)
// nests under ten.
inline constexpr int kMaxJsonDepth = 64;

// `text` parsed. MALFORMED_JSON otherwise, with a message that names the
// problem and never quotes the text: "nests deeper than 64 levels" or "is
// not valid JSON" (callers put what it is in front).
Result<nlohmann::json> ParseBoundedJson(std::string_view text, int max_depth = kMaxJsonDepth);

}  // namespace ensemble::core::text

#endif  // ENSEMBLE_CORE_TEXT_BOUNDED_JSON_H_
