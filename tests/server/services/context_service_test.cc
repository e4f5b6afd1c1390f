// GET /api/context/search end to end, on both stores
// (server/services/context_service.h): results ranked as the core ranks them
// (any word; title words first; the page text of a task found), kinds
// narrow, Trash and other spaces are never found, a stranger gets 404, bad
// parameters 400 with a stable code.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/base/status.h"
#include "tests/server/accounts_fixture.h"

namespace ensemble::testing {
namespace {

using nlohmann::json;
namespace bhttp = boost::beast::http;
namespace codes = core::codes;

class ContextRoutes : public AccountsServerTest {
 protected:
  void Configure(server::Config& config) override {
    config.accounts = true;
    config.open_signup = true;
  }

  void Push(const Member& m, const std::string& name, const json& args) {
    json body = {{"clientGroupId", m.account_id + "-g"},
                 {"clientId", m.account_id + "-c"},
                 {"mutations",
                  {{{"id", ++mutation_id_},
                    {"name", name},
                    {"args", args},
                    {"clientTime", 1'764'000'000'000 + mutation_id_}}}}};
    HttpReply r = Call(m, bhttp::verb::post, "/api/sync/push", body);
    EXPECT_EQ(r.status, 200) << r.body();
  }

  std::string Space(const Member& m, const std::string& name) {
    HttpReply made = Call(m, bhttp::verb::post, "/api/spaces", {{"name", name}});
    EXPECT_EQ(made.status, 201) << made.body();
    return made.json()["space"]["id"].get<std::string>();
  }

  std::vector<std::string> Titles(const json& answer) {
    std::vector<std::string> out;
    for (const json& r : answer["results"])
      out.push_back(r["kind"].get<std::string>() + ":" + r["title"].get<std::string>());
    return out;
  }

  int64_t mutation_id_ = 0;
};

TEST_P(ContextRoutes, RanksTheSpacesWorkAndNothingElse) {
  Member ana = SignedUp("ana@example.org");
  const std::string space = Space(ana, "Firm");
  const std::string other = Space(ana, "Home");
  Push(ana, "page.create",
       {{"id", "01JB00000000000000000000P1"},
        {"spaceId", space},
        {"title", "Notes"},
        {"body", "Book the venue for the launch"}});
  Push(ana, "task.create",
       {{"id", "01JB00000000000000000000T1"},
        {"spaceId", space},
        {"title", "Plan the launch"},
        {"page", "01JB00000000000000000000P1"}});
  Push(ana, "task.create",
       {{"id", "01JB00000000000000000000T2"}, {"spaceId", space}, {"title", "Launch venue"}});
  Push(ana, "task.create",
       {{"id", "01JB00000000000000000000T3"}, {"spaceId", space}, {"title", "Old venue"}});
  Push(ana, "task.delete", {{"id", "01JB00000000000000000000T3"}});
  Push(ana, "task.create",
       {{"id", "01JB00000000000000000000T4"}, {"spaceId", other}, {"title", "Launch at home"}});

  HttpReply r =
      Call(ana, bhttp::verb::get, "/api/context/search?spaceId=" + space + "&q=launch+venue");
  ASSERT_EQ(r.status, 200) << r.body();
  // Both words in the title; one in the title and one in the page; both in
  // the page's body; the Trash and the other space are never found.
  EXPECT_EQ(Titles(r.json()),
            (std::vector<std::string>{"task:Launch venue", "task:Plan the launch", "page:Notes"}))
      << r.body();
  EXPECT_EQ(r.json()["total"], 3);
  EXPECT_EQ(r.json()["results"][1]["snippet"], "Book the venue for the launch");

  // A quoted phrase: only records holding each of its words are read.
  HttpReply phrase = Call(ana, bhttp::verb::get,
                          "/api/context/search?spaceId=" + space + "&q=%22book+the+venue%22");
  ASSERT_EQ(phrase.status, 200) << phrase.body();
  EXPECT_EQ(Titles(phrase.json()), (std::vector<std::string>{"task:Plan the launch", "page:Notes"}))
      << phrase.body();

  HttpReply pages = Call(ana, bhttp::verb::get,
                         "/api/context/search?spaceId=" + space + "&q=venue&kinds=page&limit=1");
  ASSERT_EQ(pages.status, 200) << pages.body();
  EXPECT_EQ(Titles(pages.json()), std::vector<std::string>{"page:Notes"});

  HttpReply meetings = Call(ana, bhttp::verb::get,
                            "/api/context/search?spaceId=" + space + "&q=venue&kinds=meeting");
  EXPECT_EQ(meetings.json()["notKept"], json({"meeting"}));
}

TEST_P(ContextRoutes, StrangersAndBadParametersAreRefused) {
  Member ana = SignedUp("ana@example.org");
  Member bo = SignedUp("bo@example.org");
  const std::string space = Space(ana, "Firm");
  const std::string base = "/api/context/search?spaceId=" + space;
  HttpReply stranger = Call(bo, bhttp::verb::get, base + "&q=launch");
  EXPECT_EQ(stranger.status, 404) << stranger.body();
  EXPECT_EQ(stranger.error_code(), codes::kNotFound);
  for (const std::string& bad : std::vector<std::string>{
           base, base + "&q=%20%20", base + "&q=x&kinds=secrets", base + "&q=x&limit=0",
           base + "&q=x&limit=51", base + "&q=x&limit=ten", std::string("/api/context/search?q=x"),
           base + "&q=" + std::string(401, 'x')}) {
    HttpReply r = Call(ana, bhttp::verb::get, bad);
    EXPECT_EQ(r.status, 400) << bad << " -> " << r.body();
    EXPECT_EQ(r.error_code(), codes::kInvalidArgument) << bad;
  }
  EXPECT_EQ(Send(bhttp::verb::get, base + "&q=x", "").status, 401);
}

INSTANTIATE_TEST_SUITE_P(Stores, ContextRoutes,
                         ::testing::Values(StoreKind::kSqlite, StoreKind::kPostgres),
                         StoreKindTestName);

}  // namespace
}  // namespace ensemble::testing
