#include "server/services/sync_service.h"

#include <charconv>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/hub/hub.h"
#include "core/sync/authorization.h"
#include "server/events/poke_channel.h"

namespace ensemble::server::services {

using core::Status;
using nlohmann::json;
namespace codes = core::codes;

SyncService::SyncService(store::StorePool& pool, core::platform::Env env, OnCommit on_commit)
    : pool_(pool), sync_(core::hub::Config(), env.clock), on_commit_(std::move(on_commit)) {}

namespace {

// Local mode's caller is trusted with every space (no account); an account's
// push is authorized and its pull filtered for it.
const std::string* AccountOf(const RouteCall& call) {
  return call.caller.local ? nullptr : &call.caller.account_id;
}

}  // namespace

boost::asio::awaitable<core::Result<json>> SyncService::Push(RouteCall& call) {
  ENSEMBLE_CO_ASSIGN_OR_RETURN(json body, call.Body());
  const std::string* account_id = AccountOf(call);
  // The poke is NOTIFY'd in the push's own transaction: PostgreSQL delivers
  // it only if the writes commit, and in the same round trip as COMMIT.
  events::Poke poke;
  core::Result<core::sync::PushOutcome> pushed = co_await pool_.RunInTransaction(
      [this, &body, account_id,
       &poke](core::store::Database& db) -> core::Result<core::sync::PushOutcome> {
        ENSEMBLE_ASSIGN_OR_RETURN(core::sync::PushOutcome done, sync_.Apply(db, body, account_id));
        if (done.version > 0) {
          poke.version = done.version;
          // An account's push pokes only who can read what it wrote; the
          // local person's (no accounts) pokes everyone, which is them.
          if (account_id) {
            ENSEMBLE_ASSIGN_OR_RETURN(
                std::vector<std::string> readers,
                core::sync::ReadersOfChanges(db, core::hub::Config(), done.first_version,
                                             done.version));
            poke.readers = std::make_shared<const std::vector<std::string>>(std::move(readers));
          }
          ENSEMBLE_RETURN_IF_ERROR(events::NotifyPoke(db, poke));
        }
        return done;
      });
  CountPush(pushed);
  ENSEMBLE_CO_RETURN_IF_ERROR(pushed.status());
  if (poke.version > 0 && on_commit_) on_commit_(poke);
  co_return std::move(pushed->response);
}

void SyncService::set_metrics(metrics::Registry& registry) {
  constexpr std::string_view kPushes = "ensemble_sync_pushes_total";
  constexpr std::string_view kPushesHelp = "Sync pushes, by whether the push was taken";
  constexpr std::string_view kMutations = "ensemble_sync_mutations_total";
  constexpr std::string_view kMutationsHelp = "Mutations of taken pushes, by their result";
  counters_.ok = &registry.GetCounter(kPushes, kPushesHelp, {{"result", "ok"}});
  counters_.failed = &registry.GetCounter(kPushes, kPushesHelp, {{"result", "error"}});
  counters_.applied = &registry.GetCounter(kMutations, kMutationsHelp, {{"status", "applied"}});
  counters_.skipped = &registry.GetCounter(kMutations, kMutationsHelp, {{"status", "skipped"}});
  counters_.rejected = &registry.GetCounter(kMutations, kMutationsHelp, {{"status", "rejected"}});
}

void SyncService::CountPush(const core::Result<core::sync::PushOutcome>& outcome) const {
  if (!counters_.ok) return;
  if (!outcome.ok()) {
    counters_.failed->Add();
    return;
  }
  counters_.ok->Add();
  const auto results = outcome->response.find("results");
  if (results == outcome->response.end() || !results->is_array()) return;
  for (const json& r : *results) {
    const std::string_view status =
        r.is_object() && r.contains("status") && r["status"].is_string()
            ? std::string_view(r["status"].get_ref<const std::string&>())
            : std::string_view();
    if (status == "applied") counters_.applied->Add();
    if (status == "skipped") counters_.skipped->Add();
    if (status == "rejected") counters_.rejected->Add();
  }
}

boost::asio::awaitable<core::Result<json>> SyncService::Pull(RouteCall& call) {
  std::string client_id(call.target.Param("clientId").value_or(""));
  int64_t cursor = 0;
  if (auto text = call.target.Param("cursor")) {
    auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), cursor);
    if (ec != std::errc() || end != text->data() + text->size()) {
      co_return core::InvalidArgument("cursor must be an integer");
    }
  }
  const std::string* account_id = AccountOf(call);
  co_return co_await pool_.Run([this, &client_id, cursor, account_id](core::store::Database& db) {
    return account_id ? sync_.Pull(db, *account_id, client_id, cursor)
                      : sync_.Pull(db, client_id, cursor);
  });
}

}  // namespace ensemble::server::services
