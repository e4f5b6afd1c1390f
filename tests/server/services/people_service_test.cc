// The people routes end to end, on both stores (server/services/people_service.h):
// suggestions name same-name pairs without merging them; a merge moves a
// task's people, fills the kept person and sends the merged one to Trash,
// as a pull shows; a stranger's merge is 404, a viewer's 403; bad input is
// answered with stable codes and changes nothing.

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

constexpr char kAna1[] = "01JB0000000000000000000001";
constexpr char kAna2[] = "01JB0000000000000000000002";
constexpr char kTask[] = "01JB00000000000000000000T1";

class PeopleRoutes : public AccountsServerTest {
 protected:
  void Configure(server::Config& config) override {
    config.accounts = true;
    config.open_signup = true;
  }

  HttpReply Push(const Member& m, const std::string& name, const json& args) {
    json body = {{"clientGroupId", m.account_id + "-g"},
                 {"clientId", m.account_id + "-c"},
                 {"mutations",
                  {{{"id", ++mutation_id_},
                    {"name", name},
                    {"args", args},
                    {"clientTime", 1'764'000'000'000}}}}};
    return Call(m, bhttp::verb::post, "/api/sync/push", body);
  }
  // The rows of `kind` a fresh pull gives `m`, by id.
  json Rows(const Member& m, const std::string& kind) {
    HttpReply r =
        Call(m, bhttp::verb::get, "/api/sync/pull?clientId=" + m.account_id + "-p&cursor=0");
    EXPECT_EQ(r.status, 200) << r.body();
    json out = json::object();
    const json changes = r.json()["changes"];  // a copy: json() is a temporary
    for (const json& c : changes) {
      if (c["kind"] == kind) out[c["row"]["id"].get<std::string>()] = c["row"];
    }
    return out;
  }
  // A space of Ana's with two people of one name and a task naming the second.
  std::string Seeded(const Member& ana) {
    HttpReply made = Call(ana, bhttp::verb::post, "/api/spaces", {{"name", "Firm"}});
    EXPECT_EQ(made.status, 201) << made.body();
    const std::string space = made.json()["space"]["id"].get<std::string>();
    for (const json& args : {json{{"id", kAna1}, {"spaceId", space}, {"name", "Ana Lima"}},
                             json{{"id", kAna2},
                                  {"spaceId", space},
                                  {"name", "ana lima"},
                                  {"email", "ana@home.example"}}}) {
      EXPECT_EQ(Push(ana, "person.create", args).status, 200);
    }
    EXPECT_EQ(Push(ana, "task.create",
                   {{"id", kTask}, {"spaceId", space}, {"title", "Brief"}, {"people", {kAna2}}})
                  .status,
              200);
    return space;
  }
  int64_t mutation_id_ = 0;
};

TEST_P(PeopleRoutes, ASuggestedPairMergesAndEveryLinkFollows) {
  Member ana = SignedUp("ana@example.org");
  const std::string space = Seeded(ana);

  HttpReply found = Call(ana, bhttp::verb::get, "/api/people/merge-suggestions?spaceId=" + space);
  ASSERT_EQ(found.status, 200) << found.body();
  const json suggestions = found.json()["suggestions"];
  ASSERT_EQ(suggestions.size(), 1u) << suggestions;
  EXPECT_EQ(suggestions[0]["personId"], kAna2);
  EXPECT_EQ(suggestions[0]["intoId"], kAna1);
  EXPECT_EQ(suggestions[0]["reason"], "same_name");
  EXPECT_EQ(suggestions[0]["person"]["email"], "ana@home.example");
  EXPECT_EQ(Rows(ana, "person")[kAna2]["deleted"], 0);  // suggesting merges nothing

  HttpReply merged = Call(ana, bhttp::verb::post, std::string("/api/people/") + kAna2 + "/merge",
                          {{"into", kAna1}});
  ASSERT_EQ(merged.status, 200) << merged.body();
  EXPECT_EQ(merged.json()["merged"], kAna2);
  EXPECT_EQ(merged.json()["person"]["id"], kAna1);
  EXPECT_EQ(merged.json()["person"]["email"], "ana@home.example");

  // A fresh copy holds live rows only: the merged person is not in it.
  json people = Rows(ana, "person");
  EXPECT_FALSE(people.contains(kAna2)) << people.dump();
  EXPECT_EQ(QueryInt(store(), std::string("SELECT deleted FROM people WHERE id = '") + kAna2 + "'"),
            1);
  EXPECT_EQ(people[kAna1]["email"], "ana@home.example");
  EXPECT_EQ(json::parse(Rows(ana, "task")[kTask]["people"].get<std::string>()), json({kAna1}));
  found = Call(ana, bhttp::verb::get, "/api/people/merge-suggestions?spaceId=" + space);
  EXPECT_TRUE(found.json()["suggestions"].empty()) << found.body();
}

TEST_P(PeopleRoutes, OnlyMembersWhoWritePeopleMerge) {
  Member ana = SignedUp("ana@example.org");
  Member bo = SignedUp("bo@example.org");
  const std::string space = Seeded(ana);
  const std::string path = std::string("/api/people/") + kAna2 + "/merge";

  HttpReply r = Call(bo, bhttp::verb::post, path, {{"into", kAna1}});
  EXPECT_EQ(r.status, 404) << r.body();
  EXPECT_EQ(Call(bo, bhttp::verb::get, "/api/people/merge-suggestions?spaceId=" + space).status,
            404);

  ASSERT_TRUE(Share(ana, space, bo, "viewer"));
  r = Call(bo, bhttp::verb::post, path, {{"into", kAna1}});
  EXPECT_EQ(r.status, 403) << r.body();
  EXPECT_EQ(r.error_code(), codes::kForbidden);
  // A viewer reads the suggestions; nothing was merged.
  EXPECT_EQ(Call(bo, bhttp::verb::get, "/api/people/merge-suggestions?spaceId=" + space)
                .json()["suggestions"]
                .size(),
            1u);
  EXPECT_EQ(Rows(ana, "person")[kAna2]["deleted"], 0);
}

TEST_P(PeopleRoutes, BadInputIsRefusedWithStableCodes) {
  Member ana = SignedUp("ana@example.org");
  Seeded(ana);
  const std::string path = std::string("/api/people/") + kAna2 + "/merge";
  struct Case {
    std::string path;
    std::string body;
    int status;
    std::string_view code;
  };
  const Case cases[] = {
      {path, "{not json", 400, codes::kMalformedJson},
      {path, R"({"into": 7})", 400, codes::kInvalidArgument},
      {path, R"({"into": ")" + std::string(kAna1) + R"(", "extra": 1})", 400,
       codes::kInvalidArgument},
      {path, R"({"into": ")" + std::string(kAna2) + R"("})", 400, codes::kInvalidArgument},
      {path, R"({"into": "01JB0000000000000000000009"})", 404, codes::kNotFound},
      {"/api/people/not-an-id/merge", R"({"into": ")" + std::string(kAna1) + R"("})", 404,
       codes::kNotFound},
  };
  for (const Case& c : cases) {
    HttpReply r = Send(bhttp::verb::post, c.path, c.body, WithCookie(ana.cookie));
    EXPECT_EQ(r.status, c.status) << c.path << " " << c.body << " -> " << r.body();
    EXPECT_EQ(r.error_code(), c.code) << c.body;
  }
  HttpReply r = Call(ana, bhttp::verb::get, "/api/people/merge-suggestions");
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(Rows(ana, "person")[kAna2]["deleted"], 0);
  EXPECT_EQ(Send(bhttp::verb::post, path, R"({"into": "x"})").status, 401);
}

INSTANTIATE_TEST_SUITE_P(Stores, PeopleRoutes,
                         ::testing::Values(StoreKind::kSqlite, StoreKind::kPostgres),
                         StoreKindTestName);

}  // namespace
}  // namespace ensemble::testing
