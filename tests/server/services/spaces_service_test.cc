// /api/spaces end to end, on both stores: making and renaming a space,
// sharing it by email in a role, the shared member then reading and writing
// its records through sync as that role allows, leaving, the last owner
// kept, strangers answered 404, bad input answered with stable codes, and
// the routes off in local mode.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "core/base/status.h"
#include "tests/server/accounts_fixture.h"

namespace ensemble::testing {
namespace {

using nlohmann::json;
namespace bhttp = boost::beast::http;
namespace codes = core::codes;

class SpacesRoutes : public AccountsServerTest {
 protected:
  void Configure(server::Config& config) override {
    config.accounts = true;
    config.open_signup = true;
  }

  HttpReply PushTask(const Member& p, const std::string& space, const std::string& id) {
    json body = {{"clientGroupId", p.account_id + "-g"},
                 {"clientId", p.account_id + "-c"},
                 {"mutations",
                  {{{"id", ++mutation_id_},
                    {"name", "task.create"},
                    {"args", {{"id", id}, {"spaceId", space}, {"title", "Shared"}}},
                    {"clientTime", 1'764'000'000'000}}}}};
    return Call(p, bhttp::verb::post, "/api/sync/push", body);
  }
  int64_t mutation_id_ = 0;
};

TEST_P(SpacesRoutes, MakeRenameAndList) {
  Member ana = SignedUp("ana@example.org");
  const std::string id = MakeSpace(ana, "  Launch  ");
  HttpReply list = Call(ana, bhttp::verb::get, "/api/spaces");
  ASSERT_EQ(list.status, 200) << list.body();
  ASSERT_EQ(list.json()["spaces"].size(), 2u);  // Her own, and Launch.
  HttpReply renamed = Call(ana, bhttp::verb::patch, "/api/spaces/" + id, {{"name", "Lift-off"}});
  ASSERT_EQ(renamed.status, 200) << renamed.body();
  EXPECT_EQ(renamed.json()["space"]["name"], "Lift-off");
  EXPECT_EQ(renamed.json()["space"]["role"], "owner");
  // /api/auth/me names it too.
  HttpReply me = Send(bhttp::verb::get, "/api/auth/me", "", WithCookie(ana.cookie));
  bool named = false;
  const json body = me.json();
  for (const json& s : body["spaces"]) named |= s["name"] == "Lift-off";
  EXPECT_TRUE(named) << me.body();
}

TEST_P(SpacesRoutes, SharedAsAViewerReadsButCannotWriteUntilMadeAnEditor) {
  Member ana = SignedUp("ana@example.org");
  Member bo = SignedUp("bo@example.org");
  const std::string space = MakeSpace(ana, "Team");
  // Before sharing, Bo cannot see it at all.
  EXPECT_EQ(Call(bo, bhttp::verb::get, "/api/spaces/" + space + "/members").status, 404);
  EXPECT_EQ(PushTask(bo, space, "01J00000000000000000000001").json()["results"][0]["code"],
            codes::kForbidden);

  HttpReply shared = Call(ana, bhttp::verb::put, "/api/spaces/" + space + "/members",
                          {{"email", "BO@example.org"}, {"role", "viewer"}});
  ASSERT_EQ(shared.status, 202) << shared.body();
  const std::string invitation = shared.json()["invitation"]["id"];
  ASSERT_EQ(
      Call(bo, bhttp::verb::post, "/api/invitations/" + invitation + "/accept", json::object())
          .status,
      200);
  HttpReply members = Call(bo, bhttp::verb::get, "/api/spaces/" + space + "/members");
  ASSERT_EQ(members.status, 200);
  ASSERT_EQ(members.json()["members"].size(), 2u);
  EXPECT_EQ(members.json()["members"][1]["role"], "viewer");
  EXPECT_EQ(PushTask(bo, space, "01J00000000000000000000002").json()["results"][0]["code"],
            codes::kForbidden);
  // A viewer cannot share on.
  EXPECT_EQ(Call(bo, bhttp::verb::put, "/api/spaces/" + space + "/members",
                 {{"email", "bo@example.org"}, {"role", "owner"}})
                .status,
            403);

  HttpReply promoted = Call(ana, bhttp::verb::put, "/api/spaces/" + space + "/members",
                            {{"email", "bo@example.org"}, {"role", "editor"}});
  ASSERT_EQ(promoted.status, 200) << promoted.body();
  EXPECT_EQ(promoted.json()["member"]["accountId"], bo.account_id);
  HttpReply pushed = PushTask(bo, space, "01J00000000000000000000003");
  ASSERT_EQ(pushed.status, 200) << pushed.body();
  EXPECT_EQ(pushed.json()["results"][0]["status"], "applied") << pushed.body();
}

TEST_P(SpacesRoutes, LeavingAndTheLastOwner) {
  Member ana = SignedUp("ana@example.org");
  Member bo = SignedUp("bo@example.org");
  const std::string space = MakeSpace(ana, "Team");
  ASSERT_TRUE(Share(ana, space, bo, "guest"));
  HttpReply last =
      Call(ana, bhttp::verb::delete_, "/api/spaces/" + space + "/members/" + ana.account_id);
  EXPECT_EQ(last.status, 409);
  EXPECT_EQ(last.error_code(), codes::kFailedPrecondition);
  EXPECT_EQ(
      Call(bo, bhttp::verb::delete_, "/api/spaces/" + space + "/members/" + ana.account_id).status,
      403);
  HttpReply left =
      Call(bo, bhttp::verb::delete_, "/api/spaces/" + space + "/members/" + bo.account_id);
  ASSERT_EQ(left.status, 200) << left.body();
  EXPECT_EQ(Call(bo, bhttp::verb::get, "/api/spaces/" + space + "/members").status, 404);
}

TEST_P(SpacesRoutes, BadInputGetsStableCodesAndNoSessionIsRefused) {
  Member ana = SignedUp("ana@example.org");
  const std::string space = MakeSpace(ana, "Team");
  struct Case {
    bhttp::verb verb;
    std::string path;
    std::string body;
    int status;
    std::string_view code;
  } cases[] = {
      {bhttp::verb::post, "/api/spaces", "{", 400, codes::kMalformedJson},
      {bhttp::verb::post, "/api/spaces", "[]", 400, codes::kInvalidArgument},
      {bhttp::verb::post, "/api/spaces", R"({"name": "   "})", 400, codes::kInvalidArgument},
      {bhttp::verb::post, "/api/spaces", R"({"name": 7})", 400, codes::kInvalidArgument},
      {bhttp::verb::post, "/api/spaces", R"({"name": "Team", "owner": "x"})", 400,
       codes::kInvalidArgument},
      {bhttp::verb::put, "/api/spaces/" + space + "/members",
       R"({"email": "bo@example.org", "role": "editor", "note": "hi"})", 400,
       codes::kInvalidArgument},
      {bhttp::verb::put, "/api/spaces/" + space + "/members",
       R"({"email": "bo@example.org", "role": "admin"})", 400, codes::kInvalidArgument},
      {bhttp::verb::put, "/api/spaces/" + space + "/members",
       R"({"email": "nobody@example.org", "role": "editor"})", 404, codes::kNotFound},
      {bhttp::verb::put, "/api/spaces/" + space + "/members",
       R"({"email": "not an address", "role": "editor"})", 400, codes::kInvalidArgument},
      {bhttp::verb::get, "/api/spaces/nope/members", "", 404, codes::kNotFound},
  };
  for (const Case& c : cases) {
    HttpReply r = Send(c.verb, c.path, c.body, WithCookie(ana.cookie));
    EXPECT_EQ(r.status, c.status) << c.path << " " << c.body << " -> " << r.body();
    EXPECT_EQ(r.error_code(), c.code) << c.path << " " << c.body;
  }
  EXPECT_EQ(Send(bhttp::verb::get, "/api/spaces").status, 401);
}

INSTANTIATE_TEST_SUITE_P(Stores, SpacesRoutes,
                         ::testing::Values(StoreKind::kSqlite, StoreKind::kPostgres),
                         StoreKindTestName);

class SpacesInLocalMode : public AccountsServerTest {};

TEST_P(SpacesInLocalMode, AreOff) {
  HttpReply r = Send(bhttp::verb::get, "/api/spaces");
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(r.error_code(), codes::kNotFound);
}

INSTANTIATE_TEST_SUITE_P(Stores, SpacesInLocalMode,
                         ::testing::Values(StoreKind::kSqlite, StoreKind::kPostgres),
                         StoreKindTestName);

}  // namespace
}  // namespace ensemble::testing
