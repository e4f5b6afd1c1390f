#include "core/assistant/tool_context.h"

#include <utility>

#include "core/hub/hub.h"
#include "core/sync/authorization.h"
#include "core/sync/client_replica.h"
#include "core/sync/mutator.h"

namespace ensemble::core::tools {

MutationSink DirectMutationSink(store::Database& db, sync::SyncConfig config, int64_t now_ms,
                                std::string account_id) {
  return [&db, config, now_ms,
          account = std::move(account_id)](const std::vector<Mutation>& mutations) -> Status {
    store::Transaction txn(db);
    ENSEMBLE_RETURN_IF_ERROR(txn.status());
    for (const Mutation& m : mutations) {
      const sync::Mutator* mutator = config.mutators ? config.mutators->Find(m.name) : nullptr;
      if (!mutator) return Status(codes::kUnknownMutation, "no mutator called " + m.name);
      if (!account.empty()) {
        ENSEMBLE_RETURN_IF_ERROR(sync::AuthorizeMutation(db, config, account, m.name, m.args));
      }
      sync::MutationContext ctx(db, now_ms);
      ENSEMBLE_RETURN_IF_ERROR((*mutator)(ctx, m.args));
    }
    return txn.Commit();
  };
}

MutationSink DirectMutationSink(store::Database& db, int64_t now_ms, std::string account_id) {
  return DirectMutationSink(db, hub::Config(), now_ms, std::move(account_id));
}

MutationSink ReplicaMutationSink(sync::ClientReplica& replica) {
  return [&replica](const std::vector<Mutation>& mutations) -> Status {
    // Each Mutate is a savepoint inside this one: all of them or none.
    store::Transaction txn(replica.db());
    ENSEMBLE_RETURN_IF_ERROR(txn.status());
    for (const Mutation& m : mutations) {
      ENSEMBLE_RETURN_IF_ERROR(replica.Mutate(m.name, m.args).status());
    }
    return txn.Commit();
  };
}

}  // namespace ensemble::core::tools
