// Runs a mutation test vector (tests/vectors/*.json) on a fresh in-memory
// database and reports what happened, so the native and the wasm builds can
// be checked to write byte-identical rows from the same mutations.
//
// A case is {"mutations": [{"name", "args", "clientTime"}]}; the report is
// {"results": ["ok" | error code, ...], "rows": {"<table>": [row, ...]}} with
// rows ordered by id, for the table of each kind a mutation name starts with
// ("task.update" -> "tasks").
//
// Thread-safety: stateless.

#ifndef ENSEMBLE_CORE_SYNC_VECTOR_RUNNER_H_
#define ENSEMBLE_CORE_SYNC_VECTOR_RUNNER_H_

#include <nlohmann/json.hpp>

#include "core/base/status.h"
#include "core/sync/sync_config.h"

namespace ensemble::core::sync {

// `migrate` brings the fresh database to the schema `config`'s tables live in.
Result<nlohmann::json> RunMutationVector(const nlohmann::json& vector_case, SyncConfig config,
                                         Status (*migrate)(store::Database&));

}  // namespace ensemble::core::sync

#endif  // ENSEMBLE_CORE_SYNC_VECTOR_RUNNER_H_
