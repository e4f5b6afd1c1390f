// ToolRegistry: what it refuses at Register, and which tools ToolsFor lets a
// turn offer (spec 000 §4 toolsFor, §7 viewers).

#include "core/tools/tool_registry.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ensemble::core::tools {
namespace {

using nlohmann::json;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

ToolDef Tool(std::string name, std::string area, bool is_write, std::string module = "") {
  ToolDef def;
  def.name = std::move(name);
  def.area = std::move(area);
  def.description = "A test tool.";
  def.input_schema = {
      {"type", "object"}, {"additionalProperties", false}, {"properties", json::object()}};
  def.is_write = is_write;
  def.module = std::move(module);
  return def;
}

std::vector<std::string> Names(const std::vector<const ToolDef*>& tools) {
  std::vector<std::string> out;
  for (const ToolDef* t : tools) out.push_back(t->name);
  return out;
}

ToolRegistry Sample() {
  ToolRegistry registry;
  EXPECT_TRUE(registry.Register(Tool("hub_list_tasks", "tasks", false)).ok());
  EXPECT_TRUE(registry.Register(Tool("hub_create_tasks", "tasks", true)).ok());
  EXPECT_TRUE(registry.Register(Tool("hub_list_pages", "pages", false)).ok());
  EXPECT_TRUE(registry.Register(Tool("hub_update_page", "pages", true)).ok());
  EXPECT_TRUE(registry.Register(Tool("hub_list_skills", "skills", false, "skills")).ok());
  EXPECT_TRUE(registry.Register(Tool("hub_manage_skill", "skills", true, "skills")).ok());
  return registry;
}

TEST(ToolRegistry, FindsAndListsSortedNames) {
  ToolRegistry registry = Sample();
  EXPECT_EQ(registry.size(), 6u);
  ASSERT_NE(registry.Find("hub_update_page"), nullptr);
  EXPECT_TRUE(registry.Find("hub_update_page")->is_write);
  EXPECT_EQ(registry.Find("hub_nope"), nullptr);
  EXPECT_NE(registry.CompiledSchema("hub_list_tasks"), nullptr);
  EXPECT_EQ(registry.CompiledSchema("hub_nope"), nullptr);
  EXPECT_EQ(nlohmann::json::parse(registry.SchemaText("hub_list_tasks")),
            registry.Find("hub_list_tasks")->input_schema);
  EXPECT_EQ(registry.SchemaText("hub_nope"), "");
  EXPECT_THAT(registry.names(),
              ElementsAre("hub_create_tasks", "hub_list_pages", "hub_list_skills", "hub_list_tasks",
                          "hub_manage_skill", "hub_update_page"));
}

TEST(ToolRegistry, RefusesADuplicateName) {
  ToolRegistry registry = Sample();
  Status st = registry.Register(Tool("hub_list_tasks", "tasks", false));
  EXPECT_EQ(st.code(), codes::kAlreadyExists);
  EXPECT_EQ(registry.size(), 6u);
}

TEST(ToolRegistry, RefusesBadNames) {
  ToolRegistry registry;
  for (const std::string& bad :
       std::vector<std::string>{"", "Hub_list", "1tool", "hub-list", "hub list", "hub.list",
                                std::string(kMaxToolNameLength + 1, 'a')}) {
    EXPECT_EQ(registry.Register(Tool(bad, "tasks", false)).code(), codes::kInvalidArgument) << bad;
  }
  EXPECT_TRUE(registry.Register(Tool(std::string(kMaxToolNameLength, 'a'), "tasks", false)).ok());
  EXPECT_TRUE(IsValidToolName("apps_post_update2"));
}

TEST(ToolRegistry, RefusesAMissingAreaOrDescription) {
  ToolRegistry registry;
  EXPECT_EQ(registry.Register(Tool("a", "", false)).code(), codes::kInvalidArgument);
  ToolDef no_description = Tool("b", "tasks", false);
  no_description.description.clear();
  EXPECT_EQ(registry.Register(no_description).code(), codes::kInvalidArgument);
}

TEST(ToolRegistry, RefusesASchemaThatIsNotAnObjectSchema) {
  ToolRegistry registry;
  for (json schema : {json(nullptr), json("object"), json{{"type", "array"}},
                      json{{"properties", json::object()}}}) {
    ToolDef def = Tool("t", "tasks", false);
    def.input_schema = schema;
    Status st = registry.Register(def);
    EXPECT_EQ(st.code(), codes::kInvalidArgument) << schema.dump();
    EXPECT_THAT(st.message(), HasSubstr("\"type\": \"object\"")) << schema.dump();
  }
  EXPECT_EQ(registry.size(), 0u);
}

TEST(ToolRegistry, RefusesASchemaValijsonCannotCompile) {
  ToolRegistry registry;
  for (json schema : {json{{"type", "object"}, {"required", "title"}},
                      json{{"type", "object"}, {"properties", {{"a", {{"type", "strnig"}}}}}},
                      json{{"type", "object"}, {"properties", {{"a", {{"$ref", "#/nowhere"}}}}}}}) {
    ToolDef def = Tool("t", "tasks", false);
    def.input_schema = schema;
    Status st = registry.Register(def);
    EXPECT_EQ(st.code(), codes::kInvalidArgument) << schema.dump();
    EXPECT_THAT(st.message(), HasSubstr("does not compile")) << schema.dump();
  }
  EXPECT_EQ(registry.size(), 0u);
}

TEST(ToolRegistry, ToolsForKeepsEverythingWhenNothingIsLimited) {
  ToolRegistry registry = Sample();
  ToolFilter filter;
  filter.enabled_modules = {"skills"};
  EXPECT_EQ(registry.ToolsFor(filter).size(), 6u);
}

TEST(ToolRegistry, ToolsForDropsWritesOfAreasNotAllowedButKeepsReads) {
  ToolRegistry registry = Sample();
  ToolFilter filter;
  filter.enabled_modules = {"skills"};
  filter.allowed_write_areas = std::vector<std::string>{"tasks"};
  EXPECT_THAT(Names(registry.ToolsFor(filter)), ElementsAre("hub_create_tasks", "hub_list_pages",
                                                            "hub_list_skills", "hub_list_tasks"));
  filter.allowed_write_areas = std::vector<std::string>{};
  EXPECT_THAT(Names(registry.ToolsFor(filter)),
              ElementsAre("hub_list_pages", "hub_list_skills", "hub_list_tasks"));
}

TEST(ToolRegistry, ToolsForDropsToolsOfModulesThatAreOff) {
  ToolRegistry registry = Sample();
  ToolFilter filter;
  EXPECT_THAT(Names(registry.ToolsFor(filter)), ElementsAre("hub_create_tasks", "hub_list_pages",
                                                            "hub_list_tasks", "hub_update_page"));
  filter.enabled_modules = {"workspace"};
  EXPECT_EQ(registry.ToolsFor(filter).size(), 4u);
}

TEST(ToolRegistry, ViewersGetNoWriteTools) {
  ToolRegistry registry = Sample();
  ToolFilter filter;
  filter.enabled_modules = {"skills"};
  filter.role = sync::Role::kViewer;
  EXPECT_THAT(Names(registry.ToolsFor(filter)),
              ElementsAre("hub_list_pages", "hub_list_skills", "hub_list_tasks"));
  filter.role = sync::Role::kEditor;
  EXPECT_EQ(registry.ToolsFor(filter).size(), 6u);
}

TEST(ToolRegistry, KeepsHooksAndFlags) {
  ToolRegistry registry;
  ToolDef def = Tool("hub_echo", "core", false);
  def.outside_transaction = true;
  def.app = AppMeta{"google", "drive", "read"};
  def.run = [](ToolCall& call) -> Result<json> { return json{{"echo", call.input}}; };
  ASSERT_TRUE(registry.Register(std::move(def)).ok());
  const ToolDef* tool = registry.Find("hub_echo");
  ASSERT_NE(tool, nullptr);
  EXPECT_TRUE(tool->outside_transaction);
  ASSERT_TRUE(tool->app.has_value());
  EXPECT_EQ(tool->app->product, "drive");
  ASSERT_TRUE(tool->run);
  EXPECT_FALSE(tool->prepare);
  ToolCall call{"hub_echo", json{{"x", 1}}, nullptr};
  auto out = tool->run(call);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ((*out)["echo"]["x"], 1);
}

}  // namespace
}  // namespace ensemble::core::tools
