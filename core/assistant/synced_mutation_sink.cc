#include "core/assistant/synced_mutation_sink.h"

#include <nlohmann/json.hpp>
#include <utility>

namespace ensemble::core::assistant {

using nlohmann::json;

// The client group of every assistant client: they are the server's, not a
// device's.
constexpr char kAssistantClientGroup[] = "assistant";

tools::MutationSink SyncedMutationSink(store::Database& db, sync::SyncConfig config,
                                       const std::string* account_id, std::string client_id,
                                       int64_t now_ms, SyncedWrites* writes) {
  return [&db, server = sync::ServerSync(config), account_id, client = std::move(client_id), now_ms,
          writes,
          next_id = int64_t{1}](const std::vector<tools::Mutation>& mutations) mutable -> Status {
    if (mutations.empty()) return Status::Ok();
    json batch = json::array();
    const int64_t first_id = next_id;
    for (const tools::Mutation& m : mutations) {
      batch.push_back(
          {{"id", next_id++}, {"name", m.name}, {"args", m.args}, {"clientTime", now_ms}});
    }
    const json request = {
        {"clientGroupId", kAssistantClientGroup}, {"clientId", client}, {"mutations", batch}};
    store::Transaction txn(db);
    ENSEMBLE_RETURN_IF_ERROR(txn.status());
    Result<sync::PushOutcome> outcome = server.Apply(db, request, account_id);
    if (!outcome.ok()) {
      next_id = first_id;  // Rolled back: the ids were not consumed.
      return outcome.status();
    }
    for (const json& result : outcome->response["results"]) {
      if (result["status"] != "applied") {
        next_id = first_id;
        // `txn` rolls the whole call back.
        return Status(result.value("code", std::string(codes::kInternal)),
                      result.value("message", std::string("the write was refused")));
      }
    }
    ENSEMBLE_RETURN_IF_ERROR(txn.Commit());
    if (writes && outcome->version > 0) {
      if (writes->first_version == 0) writes->first_version = outcome->first_version;
      writes->last_version = outcome->version;
    }
    return Status::Ok();
  };
}

}  // namespace ensemble::core::assistant
