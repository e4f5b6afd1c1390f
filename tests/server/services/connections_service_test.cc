// /api/connections end to end, on both stores, with accounts: a space's owner
// connects a calendar link; the link is sealed at rest and never comes back
// in a reply or a log line; other members can neither add to the space nor
// see or remove the owner's connection; bad input gets stable codes and adds
// nothing.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "core/base/status.h"
#include "tests/server/accounts_fixture.h"
#include "tests/server/connectors/feed_server.h"

namespace ensemble::testing {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::Not;
namespace bhttp = boost::beast::http;
namespace codes = core::codes;

constexpr char kSecretPath[] = "/secret-token-4f9a/basic.ics";

class ConnectionsRoutes : public AccountsServerTest {
 protected:
  void Configure(server::Config& config) override {
    config.accounts = true;
    config.open_signup = true;
  }

  json Body(const std::string& space, const std::string& url) {
    return {{"spaceId", space}, {"app", "calendar-link"}, {"name", "Work calendar"}, {"url", url}};
  }
  int64_t Count() {
    auto rows = store().Query("SELECT COUNT(*) FROM connections");
    return rows.ok() ? core::store::AsInt(rows->rows[0][0]) : -1;
  }
};

TEST_P(ConnectionsRoutes, TheOwnerConnectsALinkThatIsSealedAndNeverShown) {
  Member ana = SignedUp("ana@example.org");
  const std::string space = MakeSpace(ana, "Work");
  const std::string link = "https://calendar.example.com" + std::string(kSecretPath);
  HttpReply added = Call(ana, bhttp::verb::post, "/api/connections", Body(space, link));
  ASSERT_EQ(added.status, 201) << added.body();
  const json c = added.json()["connection"];
  EXPECT_EQ(c["name"], "Work calendar");
  EXPECT_EQ(c["appName"], "Calendar link");
  EXPECT_EQ(c["status"], "new");
  EXPECT_THAT(added.body(), Not(HasSubstr("secret-token")));

  HttpReply list = Call(ana, bhttp::verb::get, "/api/connections?spaceId=" + space);
  ASSERT_EQ(list.status, 200) << list.body();
  ASSERT_EQ(list.json()["connections"].size(), 1u);
  EXPECT_EQ(list.json()["connections"][0]["id"], c["id"]);
  EXPECT_EQ(list.json()["apps"][0]["id"], "calendar-link");
  EXPECT_THAT(list.body(), Not(HasSubstr("secret-token")));

  auto sealed = store().Query("SELECT sealed_secret FROM connections");
  ASSERT_TRUE(sealed.ok());
  const std::string at_rest = core::store::AsText(sealed->rows[0][0]);
  EXPECT_EQ(at_rest.rfind("sb1:", 0), 0u);
  EXPECT_THAT(at_rest, Not(HasSubstr("secret-token")));
  EXPECT_THAT(at_rest, Not(HasSubstr("calendar.example.com")));
  EXPECT_FALSE(logger().Contains("secret-token"));

  HttpReply removed =
      Call(ana, bhttp::verb::delete_, "/api/connections/" + c["id"].get<std::string>());
  ASSERT_EQ(removed.status, 200) << removed.body();
  EXPECT_EQ(Count(), 0);
}

TEST_P(ConnectionsRoutes, OtherMembersCannotAddSeeOrRemoveTheOwnersConnections) {
  Member ana = SignedUp("ana@example.org");
  Member bo = SignedUp("bo@example.org");
  Member cy = SignedUp("cy@example.org");
  const std::string space = MakeSpace(ana, "Work");
  ASSERT_TRUE(Share(ana, space, bo, "editor"));
  HttpReply added = Call(ana, bhttp::verb::post, "/api/connections",
                         Body(space, "https://calendar.example.com/a.ics"));
  ASSERT_EQ(added.status, 201) << added.body();
  const std::string id = added.json()["connection"]["id"];

  HttpReply by_editor = Call(bo, bhttp::verb::post, "/api/connections",
                             Body(space, "https://calendar.example.com/b.ics"));
  EXPECT_EQ(by_editor.status, 403);
  EXPECT_EQ(by_editor.error_code(), codes::kForbidden);
  HttpReply seen = Call(bo, bhttp::verb::get, "/api/connections?spaceId=" + space);
  ASSERT_EQ(seen.status, 200);
  EXPECT_TRUE(seen.json()["connections"].empty());
  EXPECT_EQ(Call(bo, bhttp::verb::delete_, "/api/connections/" + id).status, 404);

  // Not a member at all: the space is not found.
  EXPECT_EQ(Call(cy, bhttp::verb::get, "/api/connections?spaceId=" + space).status, 404);
  EXPECT_EQ(Call(cy, bhttp::verb::post, "/api/connections",
                 Body(space, "https://calendar.example.com/c.ics"))
                .status,
            404);
  EXPECT_EQ(Send(bhttp::verb::get, "/api/connections?spaceId=" + space).status, 401);
  EXPECT_EQ(Count(), 1);
}

TEST_P(ConnectionsRoutes, BadInputGetsStableCodesAndAddsNothing) {
  Member ana = SignedUp("ana@example.org");
  const std::string space = MakeSpace(ana, "Work");
  const std::string ok_url = "https://calendar.example.com/a.ics";
  json unknown = Body(space, ok_url);
  unknown["token"] = "x";
  json other_app = Body(space, ok_url);
  other_app["app"] = "jira";
  json no_name = Body(space, ok_url);
  no_name["name"] = "";
  for (const json& body : {Body(space, "ftp://calendar.example.com/secret-token"),
                           Body(space, "https://user:secret-token@calendar.example.com/a"), unknown,
                           other_app, no_name, json::array()}) {
    HttpReply r = Call(ana, bhttp::verb::post, "/api/connections", body);
    EXPECT_EQ(r.status, 400) << body.dump();
    EXPECT_EQ(r.error_code(), codes::kInvalidArgument) << body.dump();
    EXPECT_THAT(r.body(), Not(HasSubstr("secret-token")));
  }
  HttpReply malformed = Send(bhttp::verb::post, "/api/connections", "{", WithCookie(ana.cookie));
  EXPECT_EQ(malformed.status, 400);
  EXPECT_EQ(Call(ana, bhttp::verb::get, "/api/connections").status, 400);  // No spaceId.
  EXPECT_EQ(Call(ana, bhttp::verb::delete_, "/api/connections/nope").status, 404);
  EXPECT_EQ(Count(), 0);
  EXPECT_FALSE(logger().Contains("secret-token"));
}

INSTANTIATE_TEST_SUITE_P(Stores, ConnectionsRoutes,
                         ::testing::Values(StoreKind::kSqlite, StoreKind::kPostgres),
                         StoreKindTestName);

}  // namespace
}  // namespace ensemble::testing
