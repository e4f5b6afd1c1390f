#include "core/assistant/route_turn.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/assistant/hub_tools.h"
#include "core/hub/hub_tools.h"
#include "core/playbooks/embedded.h"
#include "tests/support/embedded_router.h"

namespace ensemble::core::assistant {
namespace {

using nlohmann::json;

std::vector<std::string> Tools(const json& request) {
  auto result = RouteTurnJson(testing::EmbeddedRouter(), hub::HubToolRegistry(), request);
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  if (!result.ok()) return {};
  return (*result)["tools"].get<std::vector<std::string>>();
}

bool Has(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

TEST(RouteTurn, AViewerIsOfferedNoWriteToolsAndNoSimpleTodo) {
  json request = {{"message", "add a task to call Mira"}, {"role", "viewer"}};
  auto result = RouteTurnJson(testing::EmbeddedRouter(), hub::HubToolRegistry(), request);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_FALSE((*result)["simpleTodo"].get<bool>());
  const auto tools = (*result)["tools"].get<std::vector<std::string>>();
  ASSERT_FALSE(tools.empty());
  EXPECT_TRUE(Has(tools, "hub_list_tasks"));
  for (const std::string& name : tools) {
    const tools::ToolDef* def = hub::HubToolRegistry().Find(name);
    ASSERT_NE(def, nullptr) << name;
    EXPECT_FALSE(def->is_write) << name;
  }
}

TEST(RouteTurn, AWriteAreaThatIsNotAllowedLosesItsWritesButKeepsItsReads) {
  const auto tools = Tools({{"message", "what tasks are overdue? then mark the first done"},
                            {"allowedWriteAreas", {"pages"}}});
  EXPECT_TRUE(Has(tools, "hub_list_tasks"));
  EXPECT_FALSE(Has(tools, "hub_update_task"));
  EXPECT_FALSE(Has(tools, "hub_create_tasks"));
}

TEST(RouteTurn, AnOwnerGetsTheTasksPlaybooksWrites) {
  const auto tools = Tools({{"message", "what tasks are overdue? then mark the first done"}});
  EXPECT_TRUE(Has(tools, "hub_update_task"));
  EXPECT_TRUE(Has(tools, "hub_delete_tasks"));
}

TEST(RouteTurn, TheTurnsAppToolsAreOfferedWithTheAppsPlaybook) {
  json request = {{"message", "find the open bugs in Jira"},
                  {"apps", {{{"catalogName", "Jira"}, {"id", "jira"}, {"vendor", "Atlassian"}}}},
                  {"appTools", {"jira_search_issues", "jira_create_issue"}}};
  const auto tools = Tools(request);
  EXPECT_TRUE(Has(tools, "jira_search_issues"));
  // The hub's own app tools wait for connected apps, which nothing here runs.
  EXPECT_FALSE(Has(tools, "apps_search"));
}

TEST(RouteTurn, EveryOfferedToolIsRegisteredOrOneOfTheTurnsAppTools) {
  const std::vector<std::string> messages = {"add a task to call Mira tomorrow",
                                             "move this card to Done on my board",
                                             "summarise yesterday's meeting notes",
                                             "what's on my calendar this week",
                                             "find the latest pricing of the competitor on the web",
                                             "change my write policy"};
  for (const std::string& message : messages) {
    for (bool off : {false, true}) {
      for (const std::string& name :
           Tools({{"message", message}, {"toolsetsOff", off}, {"appTools", {"notion_search"}}})) {
        const tools::ToolDef* def = hub::HubToolRegistry().Find(name);
        EXPECT_TRUE(def != nullptr || name == "notion_search") << message << ": " << name;
        // A tool whose run is not in this build is never offered.
        if (def) EXPECT_TRUE(TurnCanRun(*def)) << message << ": " << name;
      }
    }
  }
}

TEST(RouteTurn, TheCoreToolsThatRunHereAreOfferedAndTheOthersAreNot) {
  const auto routed = Tools({{"message", "what is going on with the launch"}});
  EXPECT_TRUE(Has(routed, "hub_search_work"));
  EXPECT_TRUE(Has(routed, "hub_item_context"));
  EXPECT_TRUE(Has(routed, "hub_how_to"));
  // Defined for the web and skills, but nothing here runs them yet.
  EXPECT_FALSE(Has(routed, "hub_web_search"));
  EXPECT_FALSE(Has(routed, "hub_read_skill"));
  EXPECT_FALSE(hub::HubToolRegistry().Find("hub_web_search")->run);
  EXPECT_TRUE(Has(Tools({{"message", "hello"}, {"toolsetsOff", true}}), "hub_run_workflow"));
}

TEST(RouteTurn, WithToolsetsOffRegisteredToolsNoPlaybookNamesAreOffered) {
  const auto routed = Tools({{"message", "hello"}});
  const auto all = Tools({{"message", "hello"}, {"toolsetsOff", true}});
  EXPECT_FALSE(Has(routed, "hub_run_workflow"));
  EXPECT_TRUE(Has(all, "hub_run_workflow"));
  EXPECT_LE(all.size(), playbooks::kMaxToolSchemas);
}

TEST(RouteTurn, BadAccessFieldsAreRefusedNamingTheField) {
  for (const json& request :
       {json{{"message", "hi"}, {"role", "admin"}}, json{{"message", "hi"}, {"role", 3}},
        json{{"message", "hi"}, {"allowedWriteAreas", "tasks"}},
        json{{"message", "hi"}, {"allowedWriteAreas", {1}}}}) {
    auto result = RouteTurnJson(testing::EmbeddedRouter(), hub::HubToolRegistry(), request);
    ASSERT_FALSE(result.ok()) << request.dump();
    EXPECT_EQ(result.status().code(), codes::kInvalidArgument);
    EXPECT_NE(
        result.status().message().find(request.contains("role") ? "role" : "allowedWriteAreas"),
        std::string::npos);
  }
}

std::string ReadSourceFile(const char* relative) {
  const char* root = std::getenv("ENSEMBLE_SOURCE_DIR");
  std::ifstream in(std::filesystem::path(root ? root : ".") / relative, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The same vectors tests/wasm/route.test.mjs gives routeMessage.
TEST(RouteVectors, RealPlaybooksAndTheHubRegistryGiveTheRecordedRoutes) {
  json vectors = json::parse(ReadSourceFile("tests/vectors/route/route.json"));
  ASSERT_FALSE(vectors["cases"].empty());
  for (const json& c : vectors["cases"]) {
    SCOPED_TRACE(c["name"].get<std::string>());
    auto result = RouteTurnJson(testing::EmbeddedRouter(), hub::HubToolRegistry(), c["request"]);
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    EXPECT_EQ(result->dump(), c["expect"].dump());
  }
}

const TurnRouter& TheTurnRouter() {
  static const TurnRouter* router =
      new TurnRouter(testing::EmbeddedRouter(), hub::HubToolRegistry());
  return *router;
}

// What RouteText must give for `text`: the json tree's answer, or its error.
void ExpectSameAsTree(const std::string& text) {
  SCOPED_TRACE(text);
  auto answer = TheTurnRouter().RouteText(text);
  json request = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (request.is_discarded()) {
    ASSERT_FALSE(answer.ok());
    EXPECT_EQ(answer.status().code(), codes::kMalformedJson);
    return;
  }
  auto tree = RouteTurnJson(testing::EmbeddedRouter(), hub::HubToolRegistry(), request);
  ASSERT_EQ(answer.ok(), tree.ok()) << (answer.ok() ? tree.status() : answer.status()).ToString();
  if (!tree.ok()) {
    EXPECT_EQ(answer.status().code(), tree.status().code());
    EXPECT_EQ(answer.status().message(), tree.status().message());
    return;
  }
  EXPECT_EQ(*answer, tree->dump());
  auto with_ok = TheTurnRouter().RouteText(text, /*ok_member=*/true);
  ASSERT_TRUE(with_ok.ok());
  (*tree)["ok"] = true;
  EXPECT_EQ(*with_ok, tree->dump());
}

TEST(TurnRouter, AnswersEveryRouteVectorWithTheRecordedText) {
  json vectors = json::parse(ReadSourceFile("tests/vectors/route/route.json"));
  ASSERT_FALSE(vectors["cases"].empty());
  for (const json& c : vectors["cases"]) {
    SCOPED_TRACE(c["name"].get<std::string>());
    auto answer = TheTurnRouter().RouteText(c["request"].dump());
    ASSERT_TRUE(answer.ok()) << answer.status().ToString();
    EXPECT_EQ(*answer, c["expect"].dump());
    ExpectSameAsTree(c["request"].dump(2));
  }
}

TEST(TurnRouter, RefusesWhatTheTreeRefusesWithTheSameError) {
  for (const char* text :
       {"not json", "", "[]", "{}", R"({"message": 3})", R"({"message": "x", "nope": 1})",
        R"({"message": "x", "role": "admin"})", R"({"message": "x", "allowedWriteAreas": [1]})",
        R"({"message": "x", "mentions": [{"id": "1"}]})",
        R"({"message": "x", "surface": {"customBoard": 2}})",
        R"({"message": "x", "surface": {"surface": {"filters": []}}})",
        R"({"message": "x", "apps": [{"vendor": true}]})",
        R"({"message": "x", "toolsetsOff": "yes"})", R"({"message": "x"} trailing)"}) {
    ExpectSameAsTree(text);
  }
  auto malformed = TheTurnRouter().RouteText("{");
  ASSERT_FALSE(malformed.ok());
  EXPECT_EQ(malformed.status().code(), codes::kMalformedJson);
}

TEST(TurnRouter, RoutesUnusualButValidTextAsTheTreeDoes) {
  for (const char* text :
       {// Escapes, non-ASCII text, and a surrogate pair the fast reader
        // leaves to nlohmann.
        R"({"message": "add a task: \"call Mira\"\n\tcaf\u00e9 \ud83d\ude00"})",
        "{\"message\": \"move this card to Done \xE2\x80\x94 now\", \"surface\": {\"customBoard\": "
        "\"b1\"}}",
        // The rest of the surface (numbers, nesting) does not route.
        R"({"message": "move this to Done", "surface": {"path": "/board", "surface":
               {"kind": "board", "scroll": [0, 12.5, -3, 1e3], "filters": {"customBoard": "b7", "q": null}}}})",
        // A repeated key: nlohmann keeps the last.
        R"({"message": "hello", "message": "add a task to call Ana"})",
        R"({"message": "x", "surface": {"surface": {"filters": {"customBoard": true},
               "filters": {"customBoard": false}}}})",
        // Mention ids and labels are not type-checked.
        R"({"message": "remind @Mira", "mentions": [{"kind": "person", "id": 7, "label": null}]})",
        R"({"message": "what tasks are due", "role": "viewer", "allowedWriteAreas": ["tasks"],
               "enabledModules": [], "loaded": ["boards"], "mentionKinds": ["task"], "path": "/tasks"})",
        R"({"message": "find bugs in Jira", "apps": [{"catalogName": "Jira & Confluence",
               "id": "jira", "vendor": "Atlassian", "meetingNotes": false}],
               "appTools": ["jira_search", "jira_search", "apps_x"], "toolsetsOff": true})",
        R"({"message": "find bugs", "allowedTools": ["hub_how_to", "x\u0001y", "hub_how_to"],
               "buildTools": [], "appTools": ["x\u0001y"]})",
        "\xEF\xBB\xBF{\"message\": \"byte order mark\"}",
        " \r\n\t{\"message\":\"spaces around\"}\n"}) {
    ExpectSameAsTree(text);
  }
}

}  // namespace
}  // namespace ensemble::core::assistant
