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
           base + "&q=x&near=task/01JB00000000000000000000T1",
           base + "&q=" + std::string(401, 'x')}) {
    HttpReply r = Call(ana, bhttp::verb::get, bad);
    EXPECT_EQ(r.status, 400) << bad << " -> " << r.body();
    EXPECT_EQ(r.error_code(), codes::kInvalidArgument) << bad;
  }
  EXPECT_EQ(Send(bhttp::verb::get, base + "&q=x", "").status, 401);
}

// Ids in creation order, so both stores break ties the same way.
std::string Id(char kind, int n) {
  std::string id = "01JB0000000000000000000000";
  id[23] = kind;
  id[24] = static_cast<char>('0' + n / 10);
  id[25] = static_cast<char>('0' + n % 10);
  return id;
}

TEST_P(ContextRoutes, AnItemsRelationsReadBothWaysAndPage) {
  Member ana = SignedUp("ana@example.org");
  const std::string space = Space(ana, "Firm");
  const std::string other = Space(ana, "Home");
  const std::string mira = Id('N', 1), project = Id('P', 1), kit = Id('V', 1);
  Push(ana, "person.create",
       {{"id", mira}, {"spaceId", space}, {"name", "Mira"}, {"role", "Lead"}});
  Push(ana, "project.create",
       {{"id", project},
        {"spaceId", space},
        {"title", "Launch"},
        {"people", {mira}},
        {"deliverables", {{{"id", kit}, {"title", "Press kit"}}}}});
  const std::string plan = Id('T', 1), venue = Id('T', 2), invites = Id('T', 3);
  Push(ana, "task.create",
       {{"id", venue},
        {"spaceId", space},
        {"title", "Book venue"},
        {"project", project},
        {"status", "done"}});
  Push(ana, "task.create",
       {{"id", plan},
        {"spaceId", space},
        {"title", "Book launch venue"},
        {"project", project},
        {"people", {mira}},
        {"depends_on", {venue}},
        {"description", "See ensemble://deliverable/" + kit}});
  Push(ana, "task.create",
       {{"id", invites},
        {"spaceId", space},
        {"title", "Send invites"},
        {"people", {mira}},
        {"depends_on", {plan}},
        {"labels", {"Waiting-On"}}});
  for (int n = 4; n < 12; ++n) {
    Push(ana, "task.create",
         {{"id", Id('T', n)},
          {"spaceId", space},
          {"title", "Step " + std::to_string(n)},
          {"project", project}});
  }
  Push(ana, "comment.create",
       {{"id", Id('C', 1)},
        {"spaceId", space},
        {"target_kind", "task"},
        {"target", plan},
        {"body", "Is the venue booked?"}});
  Push(ana, "task.create", {{"id", Id('T', 40)}, {"spaceId", other}, {"title", "Elsewhere"}});

  const std::string base = "/api/context/item?spaceId=" + space;
  HttpReply task = Call(ana, bhttp::verb::get, base + "&ref=ensemble://task/" + plan);
  ASSERT_EQ(task.status, 200) << task.body();
  const json answer = task.json();
  const json& rel = answer["relations"];
  EXPECT_EQ(answer["record"]["title"], "Book launch venue");
  EXPECT_EQ(rel["project"]["items"][0]["title"], "Launch");
  EXPECT_EQ(rel["people"]["items"][0]["role"], "Lead");
  EXPECT_EQ(rel["depends_on"]["items"][0]["id"], venue);
  EXPECT_EQ(rel["blocks"]["items"][0]["id"], invites);
  EXPECT_EQ(rel["done_before"]["items"][0]["id"], venue);
  EXPECT_EQ(rel["done_before"]["items"][0]["score"], 2);
  EXPECT_EQ(rel["mentions"]["items"][0]["title"], "Press kit");
  EXPECT_EQ(rel["comments"]["open"], 1);
  // Nine open tasks share the project, one the person too: it comes first.
  EXPECT_EQ(rel["related"]["total"], 9);
  EXPECT_EQ(rel["related"]["items"].size(), 6u);
  EXPECT_EQ(rel["related"]["items"][0]["id"], invites);
  EXPECT_EQ(rel["related"]["items"][0]["score"], 3);
  EXPECT_EQ(rel["related"]["items"][1]["id"], Id('T', 11));  // Then the latest changed.
  // The app's address of the task, as a person copies it, names it too.
  HttpReply linked = Call(ana, bhttp::verb::get,
                          base + "&ref=http%3A%2F%2F127.0.0.1%3A8080%2F%23%2Ftasks%2F" + plan);
  ASSERT_EQ(linked.status, 200) << linked.body();
  EXPECT_EQ(linked.json()["record"], answer["record"]);

  HttpReply page = Call(ana, bhttp::verb::get,
                        base + "&kind=project&id=" + project + "&rel=open_tasks&limit=4&offset=4");
  ASSERT_EQ(page.status, 200) << page.body();
  const json open = page.json()["relations"]["open_tasks"];
  EXPECT_EQ(open["total"], 9);
  ASSERT_EQ(open["items"].size(), 4u);
  EXPECT_EQ(open["items"][0]["id"], Id('T', 7));
  EXPECT_EQ(open["nextOffset"], 8);

  // A label matches in any case, on both stores.
  HttpReply waiting = Call(ana, bhttp::verb::get, base + "&ref=ensemble://person/" + mira);
  ASSERT_EQ(waiting.status, 200) << waiting.body();
  EXPECT_EQ(waiting.json()["relations"]["waiting_on"]["items"][0]["id"], invites);

  HttpReply deliverable = Call(ana, bhttp::verb::get, base + "&ref=ensemble://deliverable/" + kit);
  ASSERT_EQ(deliverable.status, 200) << deliverable.body();
  EXPECT_EQ(deliverable.json()["relations"]["mentioned_in"]["items"][0]["id"], plan);

  // A search near a record: its links rank higher; an unknown one is 404.
  const std::string search = "/api/context/search?spaceId=" + space + "&q=venue&near=";
  HttpReply near = Call(ana, bhttp::verb::get, search + "ensemble://task/" + invites);
  ASSERT_EQ(near.status, 200) << near.body();
  EXPECT_EQ(near.json()["results"][0]["id"], plan);
  EXPECT_EQ(Call(ana, bhttp::verb::get, search + "ensemble://task/" + Id('T', 90)).status, 404);

  Push(ana, "task.delete", {{"id", venue}});
  for (const std::string& gone :
       {base + "&ref=ensemble://task/" + venue, base + "&ref=ensemble://task/" + Id('T', 40)}) {
    HttpReply r = Call(ana, bhttp::verb::get, gone);
    EXPECT_EQ(r.status, 404) << gone << " -> " << r.body();
    EXPECT_EQ(r.error_code(), codes::kNotFound);
  }
  HttpReply after =
      Call(ana, bhttp::verb::get, base + "&ref=ensemble://task/" + plan + "&rel=depends_on");
  EXPECT_EQ(after.json()["relations"]["depends_on"]["total"], 0) << after.body();

  Member bo = SignedUp("bo@example.org");
  EXPECT_EQ(Call(bo, bhttp::verb::get, base + "&ref=ensemble://task/" + plan).status, 404);
  for (const std::string& bad :
       std::vector<std::string>{base, base + "&ref=task/" + plan, base + "&kind=task",
                                base + "&ref=ensemble://task/" + plan + "&rel=open_tasks",
                                base + "&ref=ensemble://task/" + plan + "&limit=0",
                                base + "&ref=ensemble://task/" + plan + "&offset=3",
                                "/api/context/item?ref=ensemble://task/" + plan}) {
    HttpReply r = Call(ana, bhttp::verb::get, bad);
    EXPECT_EQ(r.status, 400) << bad << " -> " << r.body();
    EXPECT_EQ(r.error_code(), codes::kInvalidArgument) << bad;
  }
}

INSTANTIATE_TEST_SUITE_P(Stores, ContextRoutes,
                         ::testing::Values(StoreKind::kSqlite, StoreKind::kPostgres),
                         StoreKindTestName);

}  // namespace
}  // namespace ensemble::testing
