#include "server/services/apply_service.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/accounts/account.h"
#include "core/accounts/account_settings.h"
#include "core/assistant/apply_calls.h"
#include "core/assistant/conversation_store.h"
#include "core/assistant/hub_tools.h"
#include "core/assistant/proposal_store.h"
#include "core/assistant/synced_mutation_sink.h"
#include "core/calendar/week_date.h"
#include "core/hub/hub.h"
#include "core/hub/hub_tools.h"
#include "core/model/model_catalog.h"
#include "core/sync/authorization.h"
#include "server/events/poke_channel.h"
#include "server/http/json_response.h"
#include "server/services/assistant_json.h"
#include "server/services/json_body.h"

namespace ensemble::server::services {
namespace {

namespace net = boost::asio;
namespace bhttp = boost::beast::http;
namespace codes = core::codes;
namespace hub = core::hub;
using core::Result;
using core::Status;
using nlohmann::json;
using CallIds = std::optional<std::vector<std::string>>;

struct Target {
  std::string conversation_id;
  std::string message_id;
  CallIds call_ids;
};

Result<Target> ReadTarget(const RouteCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(json body, call.ObjectBody({"conversationId", "messageId", "callIds"}));
  Target t;
  ENSEMBLE_RETURN_IF_ERROR(
      kBodyFields.ReadText(body, "conversationId", "", {.allow_empty = false}, &t.conversation_id));
  ENSEMBLE_RETURN_IF_ERROR(
      kBodyFields.ReadText(body, "messageId", "", {.allow_empty = false}, &t.message_id));
  std::vector<std::string> ids;
  ENSEMBLE_RETURN_IF_ERROR(kBodyFields.ReadTextList(body, "callIds", "", 1,
                                                    core::assistant::kMaxProposalCalls,
                                                    {.required = false, .allow_null = true}, &ids));
  if (!ids.empty()) t.call_ids = std::move(ids);
  return t;
}

// The work of one request on one store connection; members live for the
// request only.
class ApplyRun {
 public:
  ApplyRun(core::store::Database& db, core::platform::Env env,
           const credentials::CredentialStore& credentials, const Caller& caller,
           connectors::LinkReader* app_reader)
      : db_(db),
        env_(env),
        credentials_(credentials),
        caller_(caller),
        app_reader_(app_reader),
        now_(env.clock->NowMillis()) {}

  // The caller's proposal for the target message.
  Result<core::assistant::Proposal> Find(const Target& t) {
    ENSEMBLE_RETURN_IF_ERROR(
        core::assistant::GetConversation(db_, caller_.account_id, t.conversation_id).status());
    return core::assistant::GetMessageProposal(db_, caller_.account_id, t.conversation_id,
                                               t.message_id);
  }

  Result<core::assistant::Proposal> Apply(const Target& t) {
    ENSEMBLE_ASSIGN_OR_RETURN(core::assistant::Proposal found, Find(t));
    if (found.state == core::assistant::ProposalState::kApplying &&
        now_ - found.updated_at > std::chrono::milliseconds(kStaleApplyAfter).count()) {
      ENSEMBLE_RETURN_IF_ERROR(core::assistant::RecoverInterrupted(db_, found.id, now_).status());
    }
    ENSEMBLE_ASSIGN_OR_RETURN(
        core::assistant::ApplyClaim claim,
        core::assistant::ClaimForApply(db_, caller_.account_id, found.id, t.call_ids, now_));
    Result<core::assistant::Proposal> done = RunClaim(claim);
    if (!done.ok()) {
      // The transaction rolled back: nothing ran. Leave the proposal ready
      // for Retry rather than stuck applying.
      std::vector<core::assistant::CallReceipt> none;
      for (const core::assistant::ProposedCall& call : claim.to_run) {
        core::assistant::CallReceipt r;
        r.call_id = call.call_id;
        r.outcome = core::assistant::CallOutcome::kUnattempted;
        r.error_code = done.status().code();
        r.error_message = "Apply could not finish; nothing of this change was made.";
        none.push_back(std::move(r));
      }
      (void)core::assistant::RecordReceipts(db_, found.id, none, now_);
      return done.status();
    }
    return done;
  }

  // Sets a waiting proposal aside unapplied: it leaves Needs me and runs
  // nothing; FAILED_PRECONDITION once it is applying or applied.
  Result<core::assistant::Proposal> Discard(const Target& t) {
    ENSEMBLE_ASSIGN_OR_RETURN(core::assistant::Proposal found, Find(t));
    ENSEMBLE_RETURN_IF_ERROR(
        core::assistant::DiscardProposal(db_, caller_.account_id, found.id, now_));
    return core::assistant::GetProposal(db_, caller_.account_id, found.id);
  }

  Result<core::assistant::Proposal> Undo(const Target& t, bool redo) {
    ENSEMBLE_ASSIGN_OR_RETURN(core::assistant::Proposal found, Find(t));
    ENSEMBLE_RETURN_IF_ERROR(core::store::RunInTransaction(
        db_, [&](core::store::Database&) { return UndoIn(found, t.call_ids, redo); }));
    return core::assistant::GetProposal(db_, caller_.account_id, found.id);
  }

  const events::Poke& poke() const { return poke_; }

 private:
  // Undoes (or redoes) `call_ids` of `found` inside the caller's transaction.
  Status UndoIn(const core::assistant::Proposal& found, const CallIds& call_ids, bool redo) {
    core::tools::ToolContext ctx = Context(found);
    if (redo) {
      ENSEMBLE_ASSIGN_OR_RETURN(
          std::vector<core::assistant::UndoItem> items,
          core::assistant::MarkRedone(db_, caller_.account_id, found.id, call_ids, now_));
      ENSEMBLE_ASSIGN_OR_RETURN(std::vector<core::assistant::CallReceipt> receipts,
                                core::assistant::RunRedo(hub::HubToolRegistry(), items, ctx));
      for (const core::assistant::CallReceipt& r : receipts) {
        ENSEMBLE_RETURN_IF_ERROR(
            core::assistant::SetUndoEntry(db_, found.id, r.call_id, r.undo, now_));
      }
    } else {
      ENSEMBLE_ASSIGN_OR_RETURN(
          std::vector<core::assistant::UndoItem> items,
          core::assistant::MarkUndone(db_, caller_.account_id, found.id, call_ids, now_));
      ENSEMBLE_RETURN_IF_ERROR(core::assistant::RunUndo(items, ctx));
    }
    return Poke();
  }

  Result<core::assistant::Proposal> RunClaim(const core::assistant::ApplyClaim& claim) {
    return core::store::RunInTransaction(db_,
                                         [&](core::store::Database&) { return RunClaimIn(claim); });
  }

  // Runs a claimed proposal's calls inside RunClaim's transaction.
  Result<core::assistant::Proposal> RunClaimIn(const core::assistant::ApplyClaim& claim) {
    const auto deadline =
        std::chrono::steady_clock::now() + core::assistant::kApplyTransactionTimeout;
    if (db_.dialect() == core::store::Dialect::kPostgres) {
      // The same bound on any one statement, so a lock wait cannot outlast it.
      ENSEMBLE_RETURN_IF_ERROR(db_.Exec(
          "SET LOCAL statement_timeout = " +
          std::to_string(
              std::chrono::milliseconds(core::assistant::kApplyTransactionTimeout).count())));
    }
    core::tools::ToolContext ctx = Context(claim.proposal);
    std::vector<core::assistant::CallReceipt> receipts = core::assistant::RunClaimedCalls(
        hub::HubToolRegistry(), claim, ctx,
        [deadline] { return std::chrono::steady_clock::now() >= deadline; });
    // Outside writes (none can run yet: no connected-app tool has a run
    // hook) would follow the commit, one at a time.
    std::vector<core::assistant::CallReceipt> outside =
        core::assistant::RunOutsideCalls(hub::HubToolRegistry(), claim.to_run, receipts, ctx);
    receipts.insert(receipts.end(), outside.begin(), outside.end());
    for (const core::assistant::CallReceipt& r : receipts) {
      // Roll back what ran: all of it runs again once the app is read.
      if (r.error_code == codes::kAppReadPending)
        return Status(codes::kAppReadPending, "not read yet");
    }
    ENSEMBLE_ASSIGN_OR_RETURN(
        core::assistant::Proposal done,
        core::assistant::RecordReceipts(db_, claim.proposal.id, receipts, now_));
    ENSEMBLE_RETURN_IF_ERROR(Poke());
    return done;
  }

  core::tools::ToolContext Context(const core::assistant::Proposal& proposal) {
    core::tools::ToolContext ctx = core::hub::NewToolContext();
    ctx.db = &db_;
    ctx.space_id = proposal.space_id;
    ctx.account_id = caller_.local ? std::string() : caller_.account_id;
    ctx.now_ms = now_;
    // Dates the calls name were fixed when proposed; today only matters to
    // a call that reads it, in the person's zone as the turn had it.
    Result<core::accounts::AccountSettings> settings =
        core::accounts::GetAccountSettings(db_, caller_.account_id);
    ctx.time_zone =
        settings.ok() ? settings->general.time_zone : std::string(core::accounts::kDefaultTimeZone);
    ctx.today = core::calendar::TodayIn(now_, ctx.time_zone);
    ctx.settings_account = caller_.account_id;
    // An effort change is checked against the model again, as it is now.
    Result<std::optional<credentials::ModelCredentialsView>> model =
        credentials_.Describe(db_, caller_.account_id);
    if (model.ok() && *model) {
      ctx.model = core::model::ChooseModel((*model)->settings.provider, (*model)->settings.model);
    }
    ctx.random = env_.random;
    ctx.app_reader = app_reader_;
    if (!caller_.local) {
      Result<std::optional<core::accounts::Account>> account =
          core::accounts::FindAccount(db_, caller_.account_id);
      if (account.ok() && *account) ctx.own_email = (*account)->email;
    }
    // The receipts keep Retry from sending a call twice.
    ctx.write = core::assistant::SyncedMutationSink(
        db_, core::hub::Config(), caller_.local ? nullptr : &caller_.account_id, now_, &writes_);
    return ctx;
  }

  // Inside the transaction: NOTIFY the other processes of what was written.
  Status Poke() {
    if (writes_.last_version == 0) return Status::Ok();
    poke_.version = writes_.last_version;
    if (!caller_.local) {
      ENSEMBLE_ASSIGN_OR_RETURN(
          std::vector<std::string> readers,
          core::sync::ReadersOfChanges(db_, core::hub::Config(), writes_.first_version,
                                       writes_.last_version));
      poke_.readers = std::make_shared<const std::vector<std::string>>(std::move(readers));
    }
    return events::NotifyPoke(db_, poke_);
  }

  core::store::Database& db_;
  core::platform::Env env_;
  const credentials::CredentialStore& credentials_;
  const Caller& caller_;
  connectors::LinkReader* app_reader_;
  const int64_t now_;
  core::assistant::SyncedWrites writes_;
  events::Poke poke_;
};

enum class Action { kApply, kUndo, kRedo, kDiscard };

}  // namespace

ApplyService::ApplyService(store::StorePool& pool, const credentials::CredentialStore& credentials,
                           core::platform::Env env, OnCommit on_commit,
                           connectors::LinkReader* app_reader)
    : pool_(pool),
      credentials_(credentials),
      env_(env),
      on_commit_(std::move(on_commit)),
      app_reader_(app_reader) {}

namespace {

net::awaitable<Result<json>> Serve(store::StorePool& pool,
                                   const credentials::CredentialStore& credentials,
                                   core::platform::Env env, const ApplyService::OnCommit& on_commit,
                                   connectors::LinkReader* app_reader, const RouteCall& call,
                                   Action action) {
  ENSEMBLE_CO_ASSIGN_OR_RETURN(Target target, ReadTarget(call));
  events::Poke poke;
  auto work = [&](core::store::Database& db) -> Result<core::assistant::Proposal> {
    ApplyRun run(db, env, credentials, call.caller, app_reader);
    Result<core::assistant::Proposal> out = action == Action::kApply ? run.Apply(target)
                                            : action == Action::kDiscard
                                                ? run.Discard(target)
                                                : run.Undo(target, action == Action::kRedo);
    poke = run.poke();
    return out;
  };
  // A call that reads an app rolls back, the app is read off the store, and
  // the Apply runs again.
  ENSEMBLE_CO_ASSIGN_OR_RETURN(
      core::assistant::Proposal done,
      co_await connectors::RunWithAppReads(app_reader, [&] { return pool.Run(work); }));
  if (poke.version > 0 && on_commit) on_commit(poke);
  co_return ProposalJson(done);
}

}  // namespace

net::awaitable<Result<json>> ApplyService::Apply(RouteCall& call) {
  return Serve(pool_, credentials_, env_, on_commit_, app_reader_, call, Action::kApply);
}

net::awaitable<Result<json>> ApplyService::Undo(RouteCall& call) {
  return Serve(pool_, credentials_, env_, on_commit_, app_reader_, call, Action::kUndo);
}

net::awaitable<Result<json>> ApplyService::Redo(RouteCall& call) {
  return Serve(pool_, credentials_, env_, on_commit_, app_reader_, call, Action::kRedo);
}

net::awaitable<Result<json>> ApplyService::Discard(RouteCall& call) {
  return Serve(pool_, credentials_, env_, on_commit_, app_reader_, call, Action::kDiscard);
}

}  // namespace ensemble::server::services
