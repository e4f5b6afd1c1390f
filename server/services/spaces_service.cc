#include "server/services/spaces_service.h"

#include <optional>
#include <string>
#include <vector>

#include "core/base/id.h"
#include "core/spaces/invitations.h"
#include "core/spaces/space_admin.h"
#include "server/events/poke_channel.h"
#include "server/http/json_response.h"
#include "server/http/router.h"
#include "server/services/json_body.h"

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

// The string `key` of an object body, or INVALID_ARGUMENT naming it.
Result<std::string> StringMember(const json& body, const char* key) {
  if (!body.is_object()) return Status(codes::kInvalidArgument, "the body must be an object");
  auto it = body.find(key);
  if (it == body.end() || !it->is_string()) {
    return Status(codes::kInvalidArgument, std::string(key) + " must be a string");
  }
  return it->get<std::string>();
}

Result<std::string> SpaceIdOf(const http::Target& target) {
  std::optional<std::string> id = target.PathParam("id");
  if (!id || id->empty()) return Status(codes::kNotFound, "no such space");
  return *id;
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

net::awaitable<http::Response> SpacesService::List(const Caller& caller) {
  if (caller.local) co_return http::ErrorResponse(codes::kNotFound, kLocalMode);
  Result<std::vector<spaces::SpaceInfo>> list = co_await pool_.Run(
      [&caller](core::store::Database& db) { return spaces::SpacesOf(db, caller.account_id); });
  if (!list.ok()) co_return FailureResponse(list.status(), "spaces", *env_.logger);
  json out = json::array();
  for (const spaces::SpaceInfo& s : *list) out.push_back(SpaceJson(s));
  co_return http::JsonResponse(bhttp::status::ok, {{"spaces", std::move(out)}});
}

net::awaitable<http::Response> SpacesService::Create(const http::Request& request,
                                                     const Caller& caller) {
  if (caller.local) co_return http::ErrorResponse(codes::kNotFound, kLocalMode);
  auto body = ParseJsonBody(request.body());
  if (!body.ok()) co_return http::ErrorResponse(body.status());
  Result<std::string> name = StringMember(*body, "name");
  if (!name.ok()) co_return http::ErrorResponse(name.status());
  const std::string id = core::NewId(*env_.clock, *env_.random);
  Result<spaces::SpaceInfo> made =
      co_await pool_.RunInTransaction([&](core::store::Database& db) -> Result<spaces::SpaceInfo> {
        ENSEMBLE_ASSIGN_OR_RETURN(spaces::SpaceInfo s,
                                  spaces::CreateSpace(db, caller.account_id, id, *name));
        return s;
      });
  if (!made.ok()) co_return FailureResponse(made.status(), "spaces", *env_.logger);
  co_return http::JsonResponse(bhttp::status::created, {{"space", SpaceJson(*made)}});
}

net::awaitable<http::Response> SpacesService::Rename(const http::Request& request,
                                                     const http::Target& target,
                                                     const Caller& caller) {
  if (caller.local) co_return http::ErrorResponse(codes::kNotFound, kLocalMode);
  Result<std::string> id = SpaceIdOf(target);
  if (!id.ok()) co_return http::ErrorResponse(id.status());
  auto body = ParseJsonBody(request.body());
  if (!body.ok()) co_return http::ErrorResponse(body.status());
  Result<std::string> name = StringMember(*body, "name");
  if (!name.ok()) co_return http::ErrorResponse(name.status());
  Result<std::vector<spaces::SpaceInfo>> after =
      co_await pool_.Run([&](core::store::Database& db) -> Result<std::vector<spaces::SpaceInfo>> {
        ENSEMBLE_RETURN_IF_ERROR(spaces::RenameSpace(db, caller.account_id, *id, *name));
        return spaces::SpacesOf(db, caller.account_id);
      });
  if (!after.ok()) co_return FailureResponse(after.status(), "spaces", *env_.logger);
  for (const spaces::SpaceInfo& s : *after) {
    if (s.id == *id) co_return http::JsonResponse(bhttp::status::ok, {{"space", SpaceJson(s)}});
  }
  co_return http::ErrorResponse(codes::kNotFound, "no space " + *id);
}

net::awaitable<http::Response> SpacesService::Members(const http::Target& target,
                                                      const Caller& caller) {
  if (caller.local) co_return http::ErrorResponse(codes::kNotFound, kLocalMode);
  Result<std::string> id = SpaceIdOf(target);
  if (!id.ok()) co_return http::ErrorResponse(id.status());
  Result<json> listed = co_await pool_.Run([&](core::store::Database& db) -> Result<json> {
    ENSEMBLE_ASSIGN_OR_RETURN(std::vector<spaces::Member> members,
                              spaces::MembersOf(db, caller.account_id, *id));
    ENSEMBLE_ASSIGN_OR_RETURN(std::vector<spaces::Invitation> invited,
                              spaces::InvitationsOf(db, caller.account_id, *id));
    json out = json::array();
    for (const spaces::Member& m : members) out.push_back(MemberJson(m));
    return json{{"members", std::move(out)}, {"invitations", InvitationsJson(invited)}};
  });
  if (!listed.ok()) co_return FailureResponse(listed.status(), "spaces", *env_.logger);
  co_return http::JsonResponse(bhttp::status::ok, std::move(*listed));
}

net::awaitable<http::Response> SpacesService::PutMember(const http::Request& request,
                                                        const http::Target& target,
                                                        const Caller& caller) {
  if (caller.local) co_return http::ErrorResponse(codes::kNotFound, kLocalMode);
  Result<std::string> id = SpaceIdOf(target);
  if (!id.ok()) co_return http::ErrorResponse(id.status());
  auto body = ParseJsonBody(request.body());
  if (!body.ok()) co_return http::ErrorResponse(body.status());
  Result<std::string> email = StringMember(*body, "email");
  if (!email.ok()) co_return http::ErrorResponse(email.status());
  Result<std::string> role_name = StringMember(*body, "role");
  if (!role_name.ok()) co_return http::ErrorResponse(role_name.status());
  std::optional<core::sync::Role> role = core::sync::ParseRole(*role_name);
  if (!role) {
    co_return http::ErrorResponse(codes::kInvalidArgument,
                                  "role must be owner, editor, guest or viewer");
  }
  const std::string invitation_id = core::NewId(*env_.clock, *env_.random);
  const int64_t now = env_.clock->NowMillis();
  events::Poke poke;
  Result<spaces::Shared> shared =
      co_await pool_.RunInTransaction([&](core::store::Database& db) -> Result<spaces::Shared> {
        ENSEMBLE_ASSIGN_OR_RETURN(
            spaces::Shared done,
            spaces::Share(db, caller.account_id, *id, *email, *role, invitation_id, now));
        if (done.member) {
          ENSEMBLE_ASSIGN_OR_RETURN(poke, AccessPoke(db, done.member->account_id));
        }
        return done;
      });
  if (!shared.ok()) co_return FailureResponse(shared.status(), "spaces", *env_.logger);
  Publish(poke);
  if (shared->member) {
    co_return http::JsonResponse(bhttp::status::ok, {{"member", MemberJson(*shared->member)}});
  }
  co_return http::JsonResponse(bhttp::status::accepted,
                               {{"invitation", InvitationJson(*shared->invitation)}});
}

net::awaitable<http::Response> SpacesService::RemoveMember(const http::Target& target,
                                                           const Caller& caller) {
  if (caller.local) co_return http::ErrorResponse(codes::kNotFound, kLocalMode);
  Result<std::string> id = SpaceIdOf(target);
  if (!id.ok()) co_return http::ErrorResponse(id.status());
  std::optional<std::string> account = target.PathParam("account");
  if (!account || account->empty()) co_return http::ErrorResponse(codes::kNotFound, "no member");
  events::Poke poke;
  Status st = co_await pool_.RunInTransaction([&](core::store::Database& db) -> Status {
    ENSEMBLE_RETURN_IF_ERROR(spaces::RemoveMember(db, caller.account_id, *id, *account));
    ENSEMBLE_ASSIGN_OR_RETURN(poke, AccessPoke(db, *account));
    return Status::Ok();
  });
  if (!st.ok()) co_return FailureResponse(st, "spaces", *env_.logger);
  Publish(poke);
  co_return http::JsonResponse(bhttp::status::ok, {{"removed", true}});
}

net::awaitable<http::Response> SpacesService::Withdraw(const http::Target& target,
                                                       const Caller& caller) {
  if (caller.local) co_return http::ErrorResponse(codes::kNotFound, kLocalMode);
  Result<std::string> id = SpaceIdOf(target);
  if (!id.ok()) co_return http::ErrorResponse(id.status());
  std::optional<std::string> invitation = target.PathParam("invitation");
  if (!invitation || invitation->empty()) {
    co_return http::ErrorResponse(codes::kNotFound, "no such invitation");
  }
  Status st = co_await pool_.RunInTransaction([&](core::store::Database& db) -> Status {
    ENSEMBLE_RETURN_IF_ERROR(spaces::WithdrawInvitation(db, caller.account_id, *id, *invitation));
    return Status::Ok();
  });
  if (!st.ok()) co_return FailureResponse(st, "spaces", *env_.logger);
  co_return http::JsonResponse(bhttp::status::ok, {{"withdrawn", true}});
}

net::awaitable<http::Response> SpacesService::Invitations(const Caller& caller) {
  if (caller.local) co_return http::ErrorResponse(codes::kNotFound, kLocalMode);
  Result<std::vector<spaces::Invitation>> list =
      co_await pool_.Run([&caller](core::store::Database& db) {
        return spaces::InvitationsFor(db, caller.account_id);
      });
  if (!list.ok()) co_return FailureResponse(list.status(), "spaces", *env_.logger);
  co_return http::JsonResponse(bhttp::status::ok, {{"invitations", InvitationsJson(*list)}});
}

net::awaitable<http::Response> SpacesService::Accept(const http::Target& target,
                                                     const Caller& caller) {
  if (caller.local) co_return http::ErrorResponse(codes::kNotFound, kLocalMode);
  std::optional<std::string> id = target.PathParam("id");
  if (!id || id->empty()) co_return http::ErrorResponse(codes::kNotFound, "no such invitation");
  events::Poke poke;
  Result<spaces::SpaceInfo> joined =
      co_await pool_.RunInTransaction([&](core::store::Database& db) -> Result<spaces::SpaceInfo> {
        ENSEMBLE_ASSIGN_OR_RETURN(spaces::SpaceInfo s,
                                  spaces::AcceptInvitation(db, caller.account_id, *id));
        ENSEMBLE_ASSIGN_OR_RETURN(poke, AccessPoke(db, caller.account_id));
        return s;
      });
  if (!joined.ok()) co_return FailureResponse(joined.status(), "spaces", *env_.logger);
  Publish(poke);
  co_return http::JsonResponse(bhttp::status::ok, {{"space", SpaceJson(*joined)}});
}

net::awaitable<http::Response> SpacesService::Decline(const http::Target& target,
                                                      const Caller& caller) {
  if (caller.local) co_return http::ErrorResponse(codes::kNotFound, kLocalMode);
  std::optional<std::string> id = target.PathParam("id");
  if (!id || id->empty()) co_return http::ErrorResponse(codes::kNotFound, "no such invitation");
  Status st = co_await pool_.RunInTransaction([&](core::store::Database& db) -> Status {
    ENSEMBLE_RETURN_IF_ERROR(spaces::DeclineInvitation(db, caller.account_id, *id));
    return Status::Ok();
  });
  if (!st.ok()) co_return FailureResponse(st, "spaces", *env_.logger);
  co_return http::JsonResponse(bhttp::status::ok, {{"declined", true}});
}

}  // namespace ensemble::server::services
