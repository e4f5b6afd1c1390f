// ApplyService: the person's Apply, Retry and Undo of the assistant's held
// writes (spec 000 §6), over the proposals a turn saved
// (core/assistant/proposal_store.h).
//
//   POST /api/assistant/apply {conversationId, messageId, callIds?}
//     -> {proposalId, state, receipts: [{callId, tool, outcome, summary?,
//         error?: {code, message}, steps?, undone}]}
//   POST /api/assistant/undo  {conversationId, messageId, callIds?} -> the same
//   POST /api/assistant/redo  {conversationId, messageId, callIds?} -> the same
//
// Apply resolves the calls saved on the caller's conversation and message
// (another account's is NOT_FOUND); it never takes a tool call from the
// request, only ids of saved ones (callIds, default all). The claim is one
// conditional UPDATE, so of many concurrent Applies exactly one runs (the
// others: 409 FAILED_PRECONDITION). Each call is checked again and run in
// one store transaction bounded by kApplyTransactionTimeout, as the caller's
// account (its writes are authorized, versioned, pulled by every client and
// poked), with the receipts saved in that same transaction: a cut-off Apply
// leaves neither writes nor receipts. Retry is another Apply: calls that
// succeeded are never sent again. Undo runs the applied calls' reversals in
// reverse order in one transaction; Redo runs the calls again.
//
// A proposal left "applying" by a server that stopped mid-Apply is
// recovered by the next Apply of it once kStaleApplyAfter has passed.
//
// Thread-safety: handlers may run concurrently.

#ifndef ENSEMBLE_SERVER_SERVICES_APPLY_SERVICE_H_
#define ENSEMBLE_SERVER_SERVICES_APPLY_SERVICE_H_

#include "server/boost_prelude.h"

#include <boost/asio/awaitable.hpp>
#include <chrono>
#include <functional>

#include "core/platform/env.h"
#include "server/connectors/link_reader.h"
#include "server/credentials/credential_store.h"
#include "server/events/poke_hub.h"
#include "server/services/json_route.h"
#include "server/store/store_pool.h"

namespace ensemble::server::services {

// Past this, an "applying" proposal is taken to be from an Apply that was cut
// off (twice the transaction bound: no live Apply runs that long).
inline constexpr std::chrono::seconds kStaleApplyAfter{60};

class ApplyService {
 public:
  using OnCommit = std::function<void(const events::Poke& poke)>;

  // `pool` and the Env's members must outlive the service; `on_commit` pokes
  // this process's subscribers after an Apply or Undo wrote something.
  // `app_reader` (may be null: app reads then say so) reads connected apps
  // for the calls that bring their content in, e.g. hub_import_people.
  ApplyService(store::StorePool& pool, const credentials::CredentialStore& credentials,
               core::platform::Env env, OnCommit on_commit,
               connectors::LinkReader* app_reader = nullptr);

  boost::asio::awaitable<core::Result<nlohmann::json>> Apply(RouteCall& call);
  boost::asio::awaitable<core::Result<nlohmann::json>> Undo(RouteCall& call);
  boost::asio::awaitable<core::Result<nlohmann::json>> Redo(RouteCall& call);
  boost::asio::awaitable<core::Result<nlohmann::json>> Discard(RouteCall& call);

 private:
  store::StorePool& pool_;
  const credentials::CredentialStore& credentials_;
  core::platform::Env env_;
  OnCommit on_commit_;
  connectors::LinkReader* app_reader_;
};

}  // namespace ensemble::server::services

#endif  // ENSEMBLE_SERVER_SERVICES_APPLY_SERVICE_H_
