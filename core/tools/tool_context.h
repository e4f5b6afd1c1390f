// ToolContext: what one assistant turn hands a tool's hooks (the struct
// core/tools/tool.h forward-declares): the store to read, the space the turn
// is in, who is asking, the turn's clock and date, and the write sink.
//
// Hooks read through `db`, always within `space_id`, and never write to it
// directly: every write is a list of named sync mutations ("task.create",
// "task.update", ...) handed to `write`, so it runs through the same mutators
// every client runs. The server's sink routes them through ServerSync::Apply
// (authorized for account_id, exactly once, poked to subscribers); the
// browser's through its replica (ClientReplica::Mutate, then the outbox);
// tests and a store nobody syncs from use DirectMutationSink (with the hub's
// mutators, hub::DirectMutationSink).
//
// Thread-safety: a ToolContext belongs to one turn, used from one thread at a
// time; what it points to must outlive the calls made with it.

#ifndef ENSEMBLE_CORE_TOOLS_TOOL_CONTEXT_H_
#define ENSEMBLE_CORE_TOOLS_TOOL_CONTEXT_H_

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/base/status.h"
#include "core/model/model_catalog.h"
#include "core/platform/env.h"
#include "core/records/record_kind.h"
#include "core/store/database.h"
#include "core/sync/sync_config.h"

namespace ensemble::core::sync {
class ClientReplica;
}  // namespace ensemble::core::sync

namespace ensemble::core::connections {
class AppReader;
}  // namespace ensemble::core::connections

namespace ensemble::core::tools {

// One named mutation, as a client queues it: {name: "task.create", args}.
struct Mutation {
  std::string name;
  nlohmann::json args;
};

// Applies `mutations` in order, all or nothing, before it returns: OK when
// every one applied, else the first refusal's Status as its mutator (or the
// authorization check) gave it (SAVE_CONFLICT, RECORD_DELETED, NOT_FOUND,
// FORBIDDEN, ...), with nothing of the list written. The mutations carry the
// turn's now_ms as their client time.
using MutationSink = std::function<Status(const std::vector<Mutation>& mutations)>;

struct ToolContext {
  store::Database* db = nullptr;  // Read by the hooks; required.
  std::string space_id;           // Every id is resolved in this space only.
  // The person asking; empty is the trusted local person (the embedded
  // single-person store, the browser's own replica). When set, reads first
  // check the account is a member of space_id (space_members).
  std::string account_id;
  int64_t now_ms = 0;                  // The turn's time: new ids and the mutations' client time.
  std::string today;                   // The person's today, YYYY-MM-DD, in time_zone.
  std::string time_zone;               // IANA name; carried for the record, dates are civil.
  platform::Random* random = nullptr;  // For new record ids; required by creates.
  MutationSink write;                  // Empty: the turn cannot write (writes fail).
  // Whose own settings the settings tools read and change (core/accounts/
  // account_settings.h): the caller's account, also in local mode. Empty
  // where settings are not kept (the browser's replica): those tools say so.
  // Settings are the account's, not synced records, so hub_update_settings
  // writes them in the caller's transaction rather than through `write`.
  std::string settings_account;
  // The model this person's turns call, as the server resolved it (their own
  // settings, else the operator's in local mode); nullopt when none is set up
  // (the built-in planner answers) or not known here. hub_list_model_choices
  // lists it, and an effort is checked against it before it is saved.
  std::optional<model::ModelChoice> model;
  // The view open beside the chat, as CheckSurface (surface_tool_run.h)
  // normalized it; null when none was described. hub_read_surface reads it.
  nlohmann::json surface;
  // Reads connected apps' content (the server's); null where there is none
  // (the browser), and app reads say they need the server.
  connections::AppReader* app_reader = nullptr;
  // The asking person's own address, left out of the people an app brings
  // in; empty when not known (the local person).
  std::string own_email;
  // The build's synced kinds (core/hub's; hub::NewToolContext sets them):
  // what Trash lists and restores, and where a linked record lives.
  records::RecordKinds record_kinds;
};

// A sink that runs each mutation with config.mutators directly on `db`, in
// one transaction (a savepoint inside the caller's), stamped with `now_ms`
// and row_version 0, as a client replica's optimistic write. With an
// `account_id` each mutation first passes sync::AuthorizeMutation. It keeps
// no outbox and no change log: for tests and a store nobody syncs from; a
// synced store takes its writes through ServerSync or ClientReplica.
// `db` must outlive the sink.
MutationSink DirectMutationSink(store::Database& db, sync::SyncConfig config, int64_t now_ms,
                                std::string account_id = {});

// The browser's sink: each mutation runs on `replica` optimistically and
// waits in its outbox (ClientReplica::Mutate), all of the list or none.
// `replica` must outlive the sink.
MutationSink ReplicaMutationSink(sync::ClientReplica& replica);

}  // namespace ensemble::core::tools

#endif  // ENSEMBLE_CORE_TOOLS_TOOL_CONTEXT_H_
