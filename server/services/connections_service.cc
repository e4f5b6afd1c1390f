#include "server/services/connections_service.h"

#include <optional>
#include <string>
#include <vector>

#include "core/base/id.h"
#include "core/connections/connection.h"
#include "core/sync/authorization.h"
#include "server/http/router.h"

namespace ensemble::server::services {
namespace {

namespace net = boost::asio;
namespace bhttp = boost::beast::http;
namespace codes = core::codes;
namespace connections = core::connections;
using core::Result;
using core::Status;
using nlohmann::json;

json ConnectionJson(const connections::Connection& c) {
  const connections::AppEntry* app = connections::FindApp(c.app);
  return {{"id", c.id},
          {"app", c.app},
          {"appName", app ? std::string(app->name) : c.app},
          {"name", c.name},
          {"status", c.status},
          {"lastError", c.last_error},
          {"createdAt", c.created_at},
          {"checkedAt", c.checked_at}};
}

// Who owns what is added: the account, or "" for the trusted local person.
std::string OwnerOf(const Caller& caller) { return caller.local ? "" : caller.account_id; }

// Reads {spaceId, app, name, url} from a body of those keys; INVALID_ARGUMENT
// naming the field. The link's own problems are named without repeating it.
Status ReadAddBody(const json& body, connections::Connection& c, std::string& link) {
  for (auto [key, out] : {std::pair{"spaceId", &c.space_id}, std::pair{"app", &c.app},
                          std::pair{"name", &c.name}, std::pair{"url", &link}}) {
    ENSEMBLE_RETURN_IF_ERROR(kBodyFields.ReadText(body, key, "", {}, out));
  }
  if (c.app != connections::kCalendarLinkApp) {
    return core::InvalidArgument("app must be calendar-link: the only app connected by a link");
  }
  ENSEMBLE_RETURN_IF_ERROR(connections::CheckConnectionName(c.name));
  ENSEMBLE_ASSIGN_OR_RETURN(link, connections::NormalizeCalendarLink(link));
  return Status::Ok();
}

}  // namespace

net::awaitable<Result<json>> ConnectionsService::List(RouteCall& call) {
  const std::string space_id(call.target.Param("spaceId").value_or(""));
  if (space_id.empty()) co_return core::InvalidArgument("spaceId names the space to look in");
  const Caller& caller = call.caller;
  co_return co_await pool_.Run([&](core::store::Database& db) -> Result<json> {
    if (!caller.local) {
      ENSEMBLE_ASSIGN_OR_RETURN(auto role, core::sync::RoleIn(db, space_id, caller.account_id));
      if (!role) return Status(codes::kNotFound, "no such space");
    }
    ENSEMBLE_ASSIGN_OR_RETURN(std::vector<connections::Connection> list,
                              connections::ListConnections(db, space_id, OwnerOf(caller)));
    json out = json::array();
    for (const connections::Connection& c : list) out.push_back(ConnectionJson(c));
    json apps = json::array();
    for (const connections::AppEntry& a : connections::AppCatalog()) {
      apps.push_back({{"id", a.id}, {"name", a.name}, {"category", a.category}});
    }
    return json{{"connections", std::move(out)}, {"apps", std::move(apps)}};
  });
}

net::awaitable<Result<json>> ConnectionsService::Add(RouteCall& call) {
  ENSEMBLE_CO_ASSIGN_OR_RETURN(json body, call.ObjectBody({"spaceId", "app", "name", "url"}));
  connections::Connection c;
  std::string link;
  ENSEMBLE_CO_RETURN_IF_ERROR(ReadAddBody(body, c, link));
  const Caller& caller = call.caller;
  c.id = core::NewId(*env_.clock, *env_.random);
  c.account_id = OwnerOf(caller);
  c.created_at = env_.clock->NowMillis();
  c.status = std::string(connections::kStatusNew);
  const std::string sealed = box_.Seal(link);
  ENSEMBLE_CO_ASSIGN_OR_RETURN(
      connections::Connection added,
      co_await pool_.Run([&](core::store::Database& db) -> Result<connections::Connection> {
        if (!caller.local) {
          ENSEMBLE_ASSIGN_OR_RETURN(auto role,
                                    core::sync::RoleIn(db, c.space_id, caller.account_id));
          if (!role) return Status(codes::kNotFound, "no such space");
          if (*role != core::sync::Role::kOwner) {
            return Status(codes::kForbidden,
                          "Connected apps are the space owner's: only the owner of this space can "
                          "connect one.");
          }
        }
        ENSEMBLE_RETURN_IF_ERROR(connections::AddConnection(db, c, sealed));
        return c;
      }));
  call.status = boost::beast::http::status::created;
  co_return json{{"connection", ConnectionJson(added)}};
}

net::awaitable<Result<json>> ConnectionsService::Remove(RouteCall& call) {
  std::optional<std::string> id = call.target.PathParam("id");
  if (!id || !core::IsValidId(*id))
    co_return Status(codes::kNotFound, "no connection with that id");
  ENSEMBLE_CO_ASSIGN_OR_RETURN(bool deleted, co_await pool_.Run([&](core::store::Database& db) {
    return connections::DeleteConnection(db, OwnerOf(call.caller), *id);
  }));
  if (!deleted) co_return Status(codes::kNotFound, "no connection with that id");
  co_return json{{"deleted", true}};
}

}  // namespace ensemble::server::services
