#include "server/services/spaces_service.h"

#include <optional>
#include <string>
#include <vector>

#include "core/base/id.h"
#include "core/spaces/invitations.h"
#include "core/spaces/space_admin.h"
#include "core/text/json_fields.h"
#include "server/events/poke_channel.h"

namespace ensemble::server::services {
namespace {

namespace net = boost::asio;
namespace bhttp = boost::beast::http;
namespace codes = core::codes;
namespace spaces = core::spaces;
using core::Result;
using core::Status;
using nlohmann::json;

constexpr char kLocalMode[] =
    "spaces are shared between accounts, and accounts are off on this server (single-person "
    "local mode)";

json SpaceJson(const spaces::SpaceInfo& s) {
  return {{"id", s.id},
          {"name", s.name},
          {"role", core::sync::RoleName(s.role)},
          {"members", s.members}};
}

json MemberJson(const spaces::Member& m) {
  return {{"accountId", m.account_id},
          {"email", m.email},
          {"name", m.name},
          {"role", core::sync::RoleName(m.role)}};
}

// The invitee sees the space and who asked; the owner sees whom they asked.
json InvitationJson(const spaces::Invitation& i) {
  return {{"id", i.id},
          {"spaceId", i.space_id},
          {"spaceName", i.space_name},
          {"role", core::sync::RoleName(i.role)},
          {"email", i.email},
          {"from", i.from_email},
          {"fromName", i.from_name}};
}

json InvitationsJson(const std::vector<spaces::Invitation>& list) {
  json out = json::array();
  for (const spaces::Invitation& i : list) out.push_back(InvitationJson(i));
  return out;
}

// The name of a body {name}, or INVALID_ARGUMENT.
Result<std::string> NameOf(const RouteCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(json body, call.ObjectBody({"name"}));
  std::string name;
  ENSEMBLE_RETURN_IF_ERROR(kBodyFields.ReadText(body, "name", "", {}, &name));
  return name;
}

Result<std::string> SpaceIdOf(const RouteCall& call) { return call.Param("id", "no such space"); }

// Sharing is between accounts; a local-mode caller has none.
Status CheckAccounts(const RouteCall& call) {
  if (call.caller.local) return Status(codes::kNotFound, kLocalMode);
  return Status::Ok();
}

}  // namespace

SpacesService::SpacesService(store::StorePool& pool, core::platform::Env env, OnCommit on_commit)
    : pool_(pool), env_(env), on_commit_(std::move(on_commit)) {}

Result<events::Poke> SpacesService::AccessPoke(core::store::Database& db,
                                               const std::string& account_id) {
  events::Poke poke;
  ENSEMBLE_ASSIGN_OR_RETURN(poke.version, core::sync::AccessChangedAt(db, account_id));
  poke.readers = std::make_shared<const std::vector<std::string>>(1, account_id);
  ENSEMBLE_RETURN_IF_ERROR(events::NotifyPoke(db, poke));
  return poke;
}

void SpacesService::Publish(const events::Poke& poke) const {
  if (poke.version > 0 && on_commit_) on_commit_(poke);
}

net::awaitable<Result<json>> SpacesService::List(RouteCall& call) {
  ENSEMBLE_CO_RETURN_IF_ERROR(CheckAccounts(call));
  ENSEMBLE_CO_ASSIGN_OR_RETURN(std::vector<spaces::SpaceInfo> list,
                               co_await pool_.Run([&call](core::store::Database& db) {
                                 return spaces::SpacesOf(db, call.caller.account_id);
                               }));
  json out = json::array();
  for (const spaces::SpaceInfo& s : list) out.push_back(SpaceJson(s));
  co_return json{{"spaces", std::move(out)}};
}

net::awaitable<Result<json>> SpacesService::Create(RouteCall& call) {
  ENSEMBLE_CO_RETURN_IF_ERROR(CheckAccounts(call));
  ENSEMBLE_CO_ASSIGN_OR_RETURN(std::string name, NameOf(call));
  const std::string id = core::NewId(*env_.clock, *env_.random);
  ENSEMBLE_CO_ASSIGN_OR_RETURN(spaces::SpaceInfo made,
                               co_await pool_.RunInTransaction([&](core::store::Database& db) {
                                 return spaces::CreateSpace(db, call.caller.account_id, id, name);
                               }));
  call.status = boost::beast::http::status::created;
  co_return json{{"space", SpaceJson(made)}};
}

net::awaitable<Result<json>> SpacesService::Rename(RouteCall& call) {
  ENSEMBLE_CO_RETURN_IF_ERROR(CheckAccounts(call));
  ENSEMBLE_CO_ASSIGN_OR_RETURN(std::string id, SpaceIdOf(call));
  ENSEMBLE_CO_ASSIGN_OR_RETURN(std::string name, NameOf(call));
  ENSEMBLE_CO_ASSIGN_OR_RETURN(
      std::vector<spaces::SpaceInfo> after,
      co_await pool_.Run([&](core::store::Database& db) -> Result<std::vector<spaces::SpaceInfo>> {
        ENSEMBLE_RETURN_IF_ERROR(spaces::RenameSpace(db, call.caller.account_id, id, name));
        return spaces::SpacesOf(db, call.caller.account_id);
      }));
  for (const spaces::SpaceInfo& s : after) {
    if (s.id == id) co_return json{{"space", SpaceJson(s)}};
  }
  co_return Status(codes::kNotFound, "no space " + id);
}

net::awaitable<Result<json>> SpacesService::Members(RouteCall& call) {
  ENSEMBLE_CO_RETURN_IF_ERROR(CheckAccounts(call));
  ENSEMBLE_CO_ASSIGN_OR_RETURN(std::string id, SpaceIdOf(call));
  co_return co_await pool_.Run([&](core::store::Database& db) -> Result<json> {
    ENSEMBLE_ASSIGN_OR_RETURN(std::vector<spaces::Member> members,
                              spaces::MembersOf(db, call.caller.account_id, id));
    ENSEMBLE_ASSIGN_OR_RETURN(std::vector<spaces::Invitation> invited,
                              spaces::InvitationsOf(db, call.caller.account_id, id));
    json out = json::array();
    for (const spaces::Member& m : members) out.push_back(MemberJson(m));
    return json{{"members", std::move(out)}, {"invitations", InvitationsJson(invited)}};
  });
}

net::awaitable<Result<json>> SpacesService::PutMember(RouteCall& call) {
  ENSEMBLE_CO_RETURN_IF_ERROR(CheckAccounts(call));
  ENSEMBLE_CO_ASSIGN_OR_RETURN(std::string id, SpaceIdOf(call));
  ENSEMBLE_CO_ASSIGN_OR_RETURN(json body, call.ObjectBody({"email", "role"}));
  std::string email, role_name;
  ENSEMBLE_CO_RETURN_IF_ERROR(kBodyFields.ReadText(body, "email", "", {}, &email));
  ENSEMBLE_CO_RETURN_IF_ERROR(kBodyFields.ReadText(body, "role", "", {}, &role_name));
  std::optional<core::sync::Role> role = core::sync::ParseRole(role_name);
  if (!role)
    co_return Status(codes::kInvalidArgument, "role must be owner, editor, guest or viewer");
  const std::string invitation_id = core::NewId(*env_.clock, *env_.random);
  const int64_t now = env_.clock->NowMillis();
  events::Poke poke;
  ENSEMBLE_CO_ASSIGN_OR_RETURN(
      spaces::Shared shared,
      co_await pool_.RunInTransaction([&](core::store::Database& db) -> Result<spaces::Shared> {
        ENSEMBLE_ASSIGN_OR_RETURN(
            spaces::Shared done,
            spaces::Share(db, call.caller.account_id, id, email, *role, invitation_id, now));
        if (done.member) {
          ENSEMBLE_ASSIGN_OR_RETURN(poke, AccessPoke(db, done.member->account_id));
        }
        return done;
      }));
  Publish(poke);
  if (shared.member) co_return json{{"member", MemberJson(*shared.member)}};
  call.status = boost::beast::http::status::accepted;
  co_return json{{"invitation", InvitationJson(*shared.invitation)}};
}

net::awaitable<Result<json>> SpacesService::RemoveMember(RouteCall& call) {
  ENSEMBLE_CO_RETURN_IF_ERROR(CheckAccounts(call));
  ENSEMBLE_CO_ASSIGN_OR_RETURN(std::string id, SpaceIdOf(call));
  ENSEMBLE_CO_ASSIGN_OR_RETURN(std::string account, call.Param("account", "no member"));
  events::Poke poke;
  ENSEMBLE_CO_RETURN_IF_ERROR(
      co_await pool_.RunInTransaction([&](core::store::Database& db) -> Status {
        ENSEMBLE_RETURN_IF_ERROR(spaces::RemoveMember(db, call.caller.account_id, id, account));
        ENSEMBLE_ASSIGN_OR_RETURN(poke, AccessPoke(db, account));
        return Status::Ok();
      }));
  Publish(poke);
  co_return json{{"removed", true}};
}

net::awaitable<Result<json>> SpacesService::Withdraw(RouteCall& call) {
  ENSEMBLE_CO_RETURN_IF_ERROR(CheckAccounts(call));
  ENSEMBLE_CO_ASSIGN_OR_RETURN(std::string id, SpaceIdOf(call));
  ENSEMBLE_CO_ASSIGN_OR_RETURN(std::string invitation,
                               call.Param("invitation", "no such invitation"));
  ENSEMBLE_CO_RETURN_IF_ERROR(co_await pool_.RunInTransaction([&](core::store::Database& db) {
    return spaces::WithdrawInvitation(db, call.caller.account_id, id, invitation);
  }));
  co_return json{{"withdrawn", true}};
}

net::awaitable<Result<json>> SpacesService::Invitations(RouteCall& call) {
  ENSEMBLE_CO_RETURN_IF_ERROR(CheckAccounts(call));
  ENSEMBLE_CO_ASSIGN_OR_RETURN(std::vector<spaces::Invitation> list,
                               co_await pool_.Run([&call](core::store::Database& db) {
                                 return spaces::InvitationsFor(db, call.caller.account_id);
                               }));
  co_return json{{"invitations", InvitationsJson(list)}};
}

net::awaitable<Result<json>> SpacesService::Accept(RouteCall& call) {
  ENSEMBLE_CO_RETURN_IF_ERROR(CheckAccounts(call));
  ENSEMBLE_CO_ASSIGN_OR_RETURN(std::string id, call.Param("id", "no such invitation"));
  events::Poke poke;
  ENSEMBLE_CO_ASSIGN_OR_RETURN(
      spaces::SpaceInfo joined,
      co_await pool_.RunInTransaction([&](core::store::Database& db) -> Result<spaces::SpaceInfo> {
        ENSEMBLE_ASSIGN_OR_RETURN(spaces::SpaceInfo s,
                                  spaces::AcceptInvitation(db, call.caller.account_id, id));
        ENSEMBLE_ASSIGN_OR_RETURN(poke, AccessPoke(db, call.caller.account_id));
        return s;
      }));
  Publish(poke);
  co_return json{{"space", SpaceJson(joined)}};
}

net::awaitable<Result<json>> SpacesService::Decline(RouteCall& call) {
  ENSEMBLE_CO_RETURN_IF_ERROR(CheckAccounts(call));
  ENSEMBLE_CO_ASSIGN_OR_RETURN(std::string id, call.Param("id", "no such invitation"));
  ENSEMBLE_CO_RETURN_IF_ERROR(co_await pool_.RunInTransaction([&](core::store::Database& db) {
    return spaces::DeclineInvitation(db, call.caller.account_id, id);
  }));
  co_return json{{"declined", true}};
}

}  // namespace ensemble::server::services
