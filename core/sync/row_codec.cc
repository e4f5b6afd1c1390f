#include "core/sync/row_codec.h"

#include <string>
#include <vector>

namespace ensemble::core::sync {

using store::Value;

nlohmann::json ValueToJson(const Value& v) {
  if (const auto* i = std::get_if<int64_t>(&v)) return *i;
  if (const auto* d = std::get_if<double>(&v)) return *d;
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  return nullptr;
}

Value JsonToValue(const nlohmann::json& j) {
  if (j.is_number_integer()) return j.get<int64_t>();
  if (j.is_number()) return j.get<double>();
  if (j.is_string()) return j.get<std::string>();
  if (j.is_boolean()) return static_cast<int64_t>(j.get<bool>());
  if (j.is_null()) return store::Null{};
  return j.dump();  // Nested JSON is stored as text.
}

nlohmann::json RowToJson(const store::Rows& rows, size_t index) {
  nlohmann::json out = nlohmann::json::object();
  const auto& row = rows.rows.at(index);
  for (size_t c = 0; c < rows.columns.size(); ++c) out[rows.columns[c]] = ValueToJson(row[c]);
  return out;
}

Result<std::optional<nlohmann::json>> ReadRow(store::Database& db, std::string_view table,
                                              const std::string& id) {
  // Table names come from the compiled-in SyncedTable list, never from input.
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      db.Query("SELECT * FROM " + std::string(table) + " WHERE id = $1", {Value(id)}));
  if (rows.empty()) return std::optional<nlohmann::json>();
  return std::optional<nlohmann::json>(RowToJson(rows, 0));
}

Status WriteRow(store::Database& db, std::string_view table, const nlohmann::json& row) {
  if (!row.is_object() || !row.contains("id") || !row["id"].is_string()) {
    return Status(codes::kInvalidArgument, "a row needs a string id");
  }
  std::string cols, placeholders, updates;
  std::vector<Value> params;
  for (const auto& [key, value] : row.items()) {
    // Column names are checked to be plain identifiers before use in SQL.
    for (char c : key) {
      if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) {
        return Status(codes::kInvalidArgument, "bad column name '" + key + "'");
      }
    }
    if (!params.empty()) {
      cols += ", ";
      placeholders += ", ";
    }
    params.push_back(JsonToValue(value));
    // Quoted because some field names ("column") are reserved in PostgreSQL.
    const std::string quoted = "\"" + key + "\"";
    cols += quoted;
    placeholders += "$" + std::to_string(params.size());
    if (key != "id") {
      if (!updates.empty()) updates += ", ";
      updates += quoted + " = excluded." + quoted;
    }
  }
  std::string sql = "INSERT INTO " + std::string(table) + " (" + cols + ") VALUES (" +
                    placeholders + ") ON CONFLICT (id) DO " +
                    (updates.empty() ? "NOTHING" : "UPDATE SET " + updates);
  return db.Exec(sql, params);
}

Status DeleteRow(store::Database& db, std::string_view table, const std::string& id) {
  return db.Exec("DELETE FROM " + std::string(table) + " WHERE id = $1", {Value(id)});
}

}  // namespace ensemble::core::sync
