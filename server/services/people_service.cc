#include "server/services/people_service.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/base/id.h"
#include "core/hub/hub.h"
#include "core/people/merge.h"
#include "core/people/person.h"
#include "core/records/record_mutators.h"
#include "core/store/database.h"
#include "core/sync/authorization.h"
#include "core/sync/server_sync.h"
#include "server/http/router.h"

namespace ensemble::server::services {
namespace {

namespace net = boost::asio;
namespace bhttp = boost::beast::http;
namespace codes = core::codes;
namespace people = core::people;
using core::Result;
using core::Status;
using nlohmann::json;

Status NoSpace() { return Status(codes::kNotFound, "no such space"); }

// {id, name, email} of each live person of `space_id`, by id.
Result<std::map<std::string, json>> Cards(core::store::Database& db, const std::string& space_id) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      core::store::Rows rows,
      db.Query("SELECT id, name, email FROM people WHERE space_id = $1 AND deleted = 0",
               {core::store::Value(space_id)}));
  std::map<std::string, json> out;
  for (const auto& row : rows.rows) {
    const std::string id = core::store::AsText(row[0]);
    out[id] = {
        {"id", id},
        {"name", core::store::AsText(row[1])},
        {"email", core::store::IsNull(row[2]) ? json(nullptr) : json(core::store::AsText(row[2]))}};
  }
  return out;
}

}  // namespace

PeopleService::PeopleService(store::StorePool& pool, core::platform::Env env, OnCommit on_commit)
    : pool_(pool), env_(env), on_commit_(std::move(on_commit)) {}

net::awaitable<Result<json>> PeopleService::MergeSuggestions(RouteCall& call) {
  const std::string space_id(call.target.Param("spaceId").value_or(""));
  if (space_id.empty()) co_return core::InvalidArgument("spaceId names the space to look in");
  const Caller& caller = call.caller;
  co_return co_await pool_.Run([&](core::store::Database& db) -> Result<json> {
    if (!caller.local) {
      ENSEMBLE_ASSIGN_OR_RETURN(auto role, core::sync::RoleIn(db, space_id, caller.account_id));
      if (!role) return NoSpace();
    }
    ENSEMBLE_ASSIGN_OR_RETURN(auto suggestions, people::FindMergeSuggestions(db, space_id));
    ENSEMBLE_ASSIGN_OR_RETURN(auto cards, Cards(db, space_id));
    json out = json::array();
    for (const people::MergeSuggestion& s : suggestions) {
      out.push_back({{"personId", s.person},
                     {"intoId", s.into},
                     {"reason", s.reason},
                     {"person", cards[s.person]},
                     {"into", cards[s.into]}});
    }
    return json{{"suggestions", out}};
  });
}

net::awaitable<Result<json>> PeopleService::Merge(RouteCall& call) {
  std::optional<std::string> id = call.target.PathParam("id");
  if (!id || !core::IsValidId(*id)) co_return Status(codes::kNotFound, "no person with that id");
  ENSEMBLE_CO_ASSIGN_OR_RETURN(json body, call.ObjectBody({"into"}));
  std::string into;  // The id of the person to keep.
  ENSEMBLE_CO_RETURN_IF_ERROR(kBodyFields.ReadText(body, "into", "", {}, &into));
  const json mutation =
      json::array({{{"name", "person.merge"}, {"args", {{"id", *id}, {"into", into}}}}});
  const int64_t now = env_.clock->NowMillis();
  const Caller& caller = call.caller;
  events::Poke poke;
  ENSEMBLE_CO_ASSIGN_OR_RETURN(
      json merged, co_await pool_.RunInTransaction([&](core::store::Database& db) -> Result<json> {
        core::sync::ServerSync server(core::hub::Config());
        const std::string* account = caller.local ? nullptr : &caller.account_id;
        ENSEMBLE_ASSIGN_OR_RETURN(core::sync::PushOutcome done,
                                  server.ApplyServerWrites(db, mutation, account, now));
        poke.version = done.version;
        if (account) {
          ENSEMBLE_ASSIGN_OR_RETURN(std::vector<std::string> readers,
                                    core::sync::ReadersOfChanges(db, core::hub::Config(),
                                                                 done.first_version, done.version));
          poke.readers = std::make_shared<const std::vector<std::string>>(std::move(readers));
        }
        ENSEMBLE_RETURN_IF_ERROR(events::NotifyPoke(db, poke));
        ENSEMBLE_ASSIGN_OR_RETURN(auto row,
                                  core::records::ReadRecord(people::kPersonKind, db, into));
        if (!row) return Status(codes::kInternal, "the kept person vanished during the merge");
        json person = core::records::FieldsOf(people::kPersonKind, *row);
        person["id"] = into;
        return json{{"merged", *id}, {"person", person}};
      }));
  if (poke.version > 0 && on_commit_) on_commit_(poke);
  co_return merged;
}

}  // namespace ensemble::server::services
