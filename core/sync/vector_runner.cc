#include "core/sync/vector_runner.h"

#include <set>
#include <string>

#include "core/store/sqlite_database.h"
#include "core/sync/row_codec.h"

namespace ensemble::core::sync {

using nlohmann::json;

Result<json> RunMutationVector(const json& vector_case, SyncConfig config,
                               Status (*migrate)(store::Database&)) {
  if (!vector_case.is_object() || !vector_case.contains("mutations") ||
      !vector_case["mutations"].is_array()) {
    return Status(codes::kInvalidArgument, "a vector case needs a mutations array");
  }
  ENSEMBLE_ASSIGN_OR_RETURN(auto db, store::SqliteDatabase::Open(":memory:"));
  ENSEMBLE_RETURN_IF_ERROR(migrate(*db));

  json results = json::array();
  for (const json& m : vector_case["mutations"]) {
    if (!m.is_object() || !m.contains("name") || !m["name"].is_string() ||
        !m.contains("clientTime") || !m["clientTime"].is_number_integer()) {
      return Status(codes::kInvalidArgument, "a vector mutation needs name and clientTime");
    }
    const Mutator* mutator = config.mutators->Find(m["name"].get<std::string>());
    if (!mutator) {
      results.push_back(codes::kUnknownMutation);
      continue;
    }
    store::Transaction txn(*db);
    ENSEMBLE_RETURN_IF_ERROR(txn.status());
    MutationContext ctx(*db, m["clientTime"].get<int64_t>());
    Status st = (*mutator)(ctx, m.contains("args") ? m["args"] : json());
    if (st.ok()) {
      ENSEMBLE_RETURN_IF_ERROR(txn.Commit());
      results.push_back("ok");
    } else {
      results.push_back(st.code());
    }
  }

  // Only the tables of kinds the case names, so adding a kind to the hub
  // leaves every existing case's report as it was.
  std::set<std::string, std::less<>> named;
  for (const json& m : vector_case["mutations"]) {
    const std::string& name = m["name"].get_ref<const std::string&>();
    named.insert(name.substr(0, name.find('.')));
  }
  json rows = json::object();
  for (const SyncedTable& table : config.tables) {
    if (!named.contains(table.kind)) continue;
    ENSEMBLE_ASSIGN_OR_RETURN(store::Rows r,
                              db->Query("SELECT * FROM " + std::string(table.table) + " ORDER BY id"));
    json list = json::array();
    for (size_t i = 0; i < r.size(); ++i) list.push_back(RowToJson(r, i));
    rows[std::string(table.table)] = std::move(list);
  }
  return json{{"results", std::move(results)}, {"rows", std::move(rows)}};
}

}  // namespace ensemble::core::sync
