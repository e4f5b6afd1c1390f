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
#include "core/playbooks/embedded.h"

namespace ensemble::core::assistant {
namespace {

using nlohmann::json;

const playbooks::Router& TheRouter() {
  static const playbooks::Router* router = [] {
    auto set = playbooks::PlaybookSet::Build(playbooks::EmbeddedPlaybooks());
    EXPECT_TRUE(set.ok()) << set.status().ToString();
    return new playbooks::Router(std::move(set).value());
  }();
  return *router;
}

std::vector<std::string> Tools(const json& request) {
  auto result = RouteTurnJson(TheRouter(), HubToolRegistry(), request);
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  if (!result.ok()) return {};
  return (*result)["tools"].get<std::vector<std::string>>();
}

bool Has(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

TEST(RouteTurn, AViewerIsOfferedNoWriteToolsAndNoSimpleTodo) {
  json request = {{"message", "add a task to call Mira"}, {"role", "viewer"}};
  auto result = RouteTurnJson(TheRouter(), HubToolRegistry(), request);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_FALSE((*result)["simpleTodo"].get<bool>());
  const auto tools = (*result)["tools"].get<std::vector<std::string>>();
  ASSERT_FALSE(tools.empty());
  EXPECT_TRUE(Has(tools, "hub_list_tasks"));
  for (const std::string& name : tools) {
    const tools::ToolDef* def = HubToolRegistry().Find(name);
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
  EXPECT_TRUE(Has(tools, "apps_search"));
}

TEST(RouteTurn, EveryOfferedToolIsRegisteredOrOneOfTheTurnsAppTools) {
  const std::vector<std::string> messages = {
      "add a task to call Mira tomorrow", "move this card to Done on my board",
      "summarise yesterday's meeting notes", "what's on my calendar this week",
      "find the latest pricing of the competitor on the web", "change my write policy"};
  for (const std::string& message : messages) {
    for (bool off : {false, true}) {
      for (const std::string& name :
           Tools({{"message", message}, {"toolsetsOff", off}, {"appTools", {"notion_search"}}})) {
        EXPECT_TRUE(HubToolRegistry().Find(name) != nullptr || name == "notion_search")
            << message << ": " << name;
      }
    }
  }
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
    auto result = RouteTurnJson(TheRouter(), HubToolRegistry(), request);
    ASSERT_FALSE(result.ok()) << request.dump();
    EXPECT_EQ(result.status().code(), codes::kInvalidArgument);
    EXPECT_NE(result.status().message().find(request.contains("role") ? "role" : "allowedWriteAreas"),
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
    auto result = RouteTurnJson(TheRouter(), HubToolRegistry(), c["request"]);
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    EXPECT_EQ(result->dump(), c["expect"].dump());
  }
}

}  // namespace
}  // namespace ensemble::core::assistant
