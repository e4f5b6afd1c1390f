#include "core/assistant/synced_mutation_sink.h"

#include <nlohmann/json.hpp>
#include <utility>

namespace ensemble::core::assistant {

using nlohmann::json;

tools::MutationSink SyncedMutationSink(store::Database& db, sync::SyncConfig config,
                                       const std::string* account_id, int64_t now_ms,
                                       SyncedWrites* writes) {
  return [&db, server = sync::ServerSync(config), account_id, now_ms,
          writes](const std::vector<tools::Mutation>& mutations) mutable -> Status {
    json batch = json::array();
    for (const tools::Mutation& m : mutations)
      batch.push_back({{"name", m.name}, {"args", m.args}});
    ENSEMBLE_ASSIGN_OR_RETURN(sync::PushOutcome outcome,
                              server.ApplyServerWrites(db, batch, account_id, now_ms));
    if (writes && outcome.version > 0) {
      if (writes->first_version == 0) writes->first_version = outcome.first_version;
      writes->last_version = outcome.version;
    }
    return Status::Ok();
  };
}

}  // namespace ensemble::core::assistant
