// The JSON form of a ranking (core/context/search_rank.h), as the shared
// vectors (tests/vectors/context/search_rank.json) write it and the wasm test
// build takes it, so both builds run the very same cases.
//
// Thread-safety: stateless.

#ifndef ENSEMBLE_CORE_CONTEXT_SEARCH_RANK_JSON_H_
#define ENSEMBLE_CORE_CONTEXT_SEARCH_RANK_JSON_H_

#include <nlohmann/json.hpp>

#include "core/base/status.h"

namespace ensemble::core::context {

// {words: ["launch plan", ...], phrase: "..."} of a query: each word's tokens
// joined by one space.
nlohmann::json SplitQueryJson(std::string_view query);

// {results: [{ref: "kind:id", score}]} of {query, now, limit?, near?:
// {links, relations, project}, records: [{kind, id, title, body?: [{text,
// weight}], updatedAt?, open?, project?}]}; INVALID_ARGUMENT names what is
// missing or of the wrong type.
Result<nlohmann::json> RankJson(const nlohmann::json& in);

}  // namespace ensemble::core::context

#endif  // ENSEMBLE_CORE_CONTEXT_SEARCH_RANK_JSON_H_
