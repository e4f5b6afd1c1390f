#include "server/services/spaces_service.h"

#include <optional>
#include <string>
#include <vector>

#include "core/base/id.h"
#include "core/spaces/space_admin.h"
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

// "/api/spaces/:id/members/:accountId": the id is the third segment, the
// account the fifth.
constexpr size_t kSpaceSegment = 2;
constexpr size_t kAccountSegment = 4;

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
  std::optional<std::string> id = http::PathSegment(target.path, kSpaceSegment);
  if (!id || id->empty()) return Status(codes::kNotFound, "no such space");
  return *id;
}

}  // namespace

SpacesService::SpacesService(store::StorePool& pool, core::platform::Env env)
    : pool_(pool), env_(env) {}

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
      co_await pool_.Run([&](core::store::Database& db) -> Result<spaces::SpaceInfo> {
        core::store::Transaction txn(db);
        ENSEMBLE_RETURN_IF_ERROR(txn.status());
        ENSEMBLE_ASSIGN_OR_RETURN(spaces::SpaceInfo s,
                                  spaces::CreateSpace(db, caller.account_id, id, *name));
        ENSEMBLE_RETURN_IF_ERROR(txn.Commit());
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
  Result<std::vector<spaces::Member>> members = co_await pool_.Run(
      [&](core::store::Database& db) { return spaces::MembersOf(db, caller.account_id, *id); });
  if (!members.ok()) co_return FailureResponse(members.status(), "spaces", *env_.logger);
  json out = json::array();
  for (const spaces::Member& m : *members) out.push_back(MemberJson(m));
  co_return http::JsonResponse(bhttp::status::ok, {{"members", std::move(out)}});
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
  Result<spaces::Member> member =
      co_await pool_.Run([&](core::store::Database& db) -> Result<spaces::Member> {
        core::store::Transaction txn(db);
        ENSEMBLE_RETURN_IF_ERROR(txn.status());
        ENSEMBLE_ASSIGN_OR_RETURN(
            spaces::Member m, spaces::SetMemberByEmail(db, caller.account_id, *id, *email, *role));
        ENSEMBLE_RETURN_IF_ERROR(txn.Commit());
        return m;
      });
  if (!member.ok()) co_return FailureResponse(member.status(), "spaces", *env_.logger);
  co_return http::JsonResponse(bhttp::status::ok, {{"member", MemberJson(*member)}});
}

net::awaitable<http::Response> SpacesService::RemoveMember(const http::Target& target,
                                                           const Caller& caller) {
  if (caller.local) co_return http::ErrorResponse(codes::kNotFound, kLocalMode);
  Result<std::string> id = SpaceIdOf(target);
  if (!id.ok()) co_return http::ErrorResponse(id.status());
  std::optional<std::string> account = http::PathSegment(target.path, kAccountSegment);
  if (!account || account->empty()) co_return http::ErrorResponse(codes::kNotFound, "no member");
  Status st = co_await pool_.Run([&](core::store::Database& db) -> Status {
    core::store::Transaction txn(db);
    ENSEMBLE_RETURN_IF_ERROR(txn.status());
    ENSEMBLE_RETURN_IF_ERROR(spaces::RemoveMember(db, caller.account_id, *id, *account));
    return txn.Commit();
  });
  if (!st.ok()) co_return FailureResponse(st, "spaces", *env_.logger);
  co_return http::JsonResponse(bhttp::status::ok, {{"removed", true}});
}

}  // namespace ensemble::server::services
