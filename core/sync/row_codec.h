// Generic reading and writing of synced rows as JSON objects (column -> value),
// so pull, rebase and the parity vectors work for every record kind without
// per-kind code. Integers stay integers, text stays text, NULL is null.
//
// Thread-safety: stateless; as the Database given.

#ifndef ENSEMBLE_CORE_SYNC_ROW_CODEC_H_
#define ENSEMBLE_CORE_SYNC_ROW_CODEC_H_

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

#include "core/base/status.h"
#include "core/store/database.h"

namespace ensemble::core::sync {

nlohmann::json ValueToJson(const store::Value& v);
store::Value JsonToValue(const nlohmann::json& j);

// Row `index` of `rows` as a JSON object.
nlohmann::json RowToJson(const store::Rows& rows, size_t index);

// The row with this id, or nullopt when there is none.
Result<std::optional<nlohmann::json>> ReadRow(store::Database& db, std::string_view table,
                                              const std::string& id);

// Inserts or replaces the row (the object must hold every column it sets and `id`).
Status WriteRow(store::Database& db, std::string_view table, const nlohmann::json& row);

Status DeleteRow(store::Database& db, std::string_view table, const std::string& id);

}  // namespace ensemble::core::sync

#endif  // ENSEMBLE_CORE_SYNC_ROW_CODEC_H_
