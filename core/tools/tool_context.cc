#include "core/tools/tool_context.h"

#include <utility>

#include "core/sync/authorization.h"
#include "core/sync/client_replica.h"
#include "core/sync/mutator.h"

namespace ensemble::core::tools {

MutationSink DirectMutationSink(store::Database& db, sync::SyncConfig config, int64_t now_ms,
                                std::string account_id) {
  return [&db, config, now_ms,
          account = std::move(account_id)](const std::vector<Mutation>& mutations) -> Status {
    return store::RunInTransaction(db, [&](store::Database& db) -> Status {
      for (const Mutation& m : mutations) {
        const sync::Mutator* mutator = config.mutators ? config.mutators->Find(m.name) : nullptr;
        if (!mutator) return Status(codes::kUnknownMutation, "no mutator called " + m.name);
        if (!account.empty()) {
          ENSEMBLE_RETURN_IF_ERROR(sync::AuthorizeMutation(db, config, account, m.name, m.args));
        }
        sync::MutationContext ctx(db, now_ms);
        ENSEMBLE_RETURN_IF_ERROR((*mutator)(ctx, m.args));
        ENSEMBLE_RETURN_IF_ERROR(sync::NoteWrites(config, ctx));
      }
      return Status::Ok();
    });
  };
}

MutationSink ReplicaMutationSink(sync::ClientReplica& replica) {
  return [&replica](const std::vector<Mutation>& mutations) -> Status {
    // Each Mutate is a savepoint inside this one: all of them or none.
    return store::RunInTransaction(replica.db(), [&](store::Database&) -> Status {
      for (const Mutation& m : mutations) {
        ENSEMBLE_RETURN_IF_ERROR(replica.Mutate(m.name, m.args).status());
      }
      return Status::Ok();
    });
  };
}

}  // namespace ensemble::core::tools
