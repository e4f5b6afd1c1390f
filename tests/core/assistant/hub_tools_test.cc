// The hub's tool definitions: every tool a real playbook offers is
// registered, every schema compiles and is bounded, the spec's hold, Undo and
// transaction rules are set, and the shared validation vectors
// (tests/vectors/tools/validate_tool_call.json, also run by the wasm test)
// give exactly the expected codes and messages.

#include "core/hub/hub_tools.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "core/assistant/hub_tools.h"
#include "core/hub/hub.h"
#include "core/playbooks/playbook.h"
#include "core/skills/skill_tools.h"
#include "core/tools/validate.h"

namespace ensemble::core::assistant {
namespace {

using nlohmann::json;
using tools::CheckToolCall;
using tools::ToolDef;
using tools::ValidationError;

std::filesystem::path SourceDir() {
  const char* root = std::getenv("ENSEMBLE_SOURCE_DIR");
  return std::filesystem::path(root ? root : ".");
}

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Every tool named in a real playbook's tools: line.
std::set<std::string> PlaybookTools() {
  std::set<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(SourceDir() / "playbooks")) {
    const std::string file = entry.path().filename().string();
    if (entry.path().extension() != ".md" || file == "README.md") continue;
    auto pb = playbooks::ParsePlaybook(ReadFile(entry.path()), file);
    EXPECT_TRUE(pb.ok()) << pb.status().ToString();
    if (pb.ok()) names.insert(pb->tools.begin(), pb->tools.end());
  }
  return names;
}

const ToolDef& Tool(std::string_view name) {
  const ToolDef* def = hub::HubToolRegistry().Find(name);
  EXPECT_NE(def, nullptr) << name;
  static const ToolDef kMissing;
  return def ? *def : kMissing;
}

TEST(HubTools, RegisterAllWithoutARefusal) {
  tools::ToolRegistry registry;
  Status st = RegisterHubTools(registry, hub::RecordKinds());
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(registry.size(), hub::HubToolRegistry().size());
  EXPECT_GE(registry.size(), 77u);
}

TEST(HubTools, EveryToolAPlaybookOffersIsRegistered) {
  std::set<std::string> names = PlaybookTools();
  ASSERT_GT(names.size(), 50u) << "playbooks not found under " << SourceDir();
  for (const std::string& name : names) {
    EXPECT_NE(hub::HubToolRegistry().Find(name), nullptr)
        << name << " is in a playbook but not registered";
  }
}

TEST(HubTools, CoreToolsAreRegistered) {
  for (const char* name :
       {"hub_how_to", "hub_read_skill", "hub_search_work", "hub_item_context", "hub_read_surface",
        "hub_web_search", "hub_read_web_page", "hub_run_workflow", "hub_list_approvals",
        "hub_weekly_recap", "hub_restore_from_trash", "hub_list_connections"}) {
    EXPECT_NE(hub::HubToolRegistry().Find(name), nullptr) << name;
  }
}

// Every string has a maxLength, every array a maxItems, and every object with
// properties refuses others.
void ExpectBounded(const json& schema, const std::string& where) {
  if (!schema.is_object()) return;
  const json type = schema.value("type", json());
  auto is = [&](const char* t) {
    return type == t || (type.is_array() && std::count(type.begin(), type.end(), t));
  };
  if (is("string") && !schema.contains("enum")) EXPECT_TRUE(schema.contains("maxLength")) << where;
  if (is("array")) {
    EXPECT_TRUE(schema.contains("maxItems")) << where;
    ExpectBounded(schema.value("items", json()), where + "[]");
  }
  if (schema.contains("properties")) {
    EXPECT_EQ(schema.value("additionalProperties", json()), json(false)) << where;
    for (const auto& [name, sub] : schema["properties"].items())
      ExpectBounded(sub, where + "." + name);
  }
}

TEST(HubTools, EverySchemaIsAnObjectBoundedAndDescribed) {
  for (const std::string& name : hub::HubToolRegistry().names()) {
    const ToolDef& def = Tool(name);
    EXPECT_EQ(def.input_schema["type"], "object") << name;
    EXPECT_NE(hub::HubToolRegistry().CompiledSchema(name), nullptr) << name;
    EXPECT_FALSE(def.area.empty()) << name;
    EXPECT_EQ(def.description.back(), '.') << name << ": one sentence";
    EXPECT_LE(def.description.size(), 200u) << name;
    ExpectBounded(def.input_schema, name);
    if (!def.is_write) {
      EXPECT_FALSE(def.always_hold) << name;
      EXPECT_FALSE(def.undoable) << name;
    }
  }
}

TEST(HubTools, SpecFlagsAreSet) {
  EXPECT_TRUE(Tool("hub_delete_board").always_hold);
  EXPECT_FALSE(Tool("hub_delete_board").undoable);
  EXPECT_EQ(Tool("hub_delete_board").risk, tools::Risk::kHigh);
  for (const char* name : {"hub_run_workflow", "hub_update_settings", "hub_manage_skill",
                           "apps_post_update", "hub_import_meeting_notes", "hub_import_people"}) {
    EXPECT_TRUE(Tool(name).is_write) << name;
    EXPECT_TRUE(Tool(name).always_hold) << name;
  }
  EXPECT_EQ(Tool("apps_post_update").area, "apps");
  EXPECT_FALSE(Tool("apps_post_update").undoable);
  for (const char* name : {"hub_web_search", "hub_read_web_page"}) {
    EXPECT_TRUE(Tool(name).outside_transaction) << name;
    EXPECT_FALSE(Tool(name).is_write) << name;
  }
  // Custom-board changes have no Undo (spec 002 §3).
  for (const char* name :
       {"hub_create_board", "hub_update_board", "hub_move_to_board", "hub_remove_from_board"}) {
    EXPECT_FALSE(Tool(name).undoable) << name;
  }
  EXPECT_TRUE(Tool("hub_cancel_watcher").undoable);
  EXPECT_TRUE(Tool("hub_create_tasks").undoable);
  EXPECT_FALSE(Tool("hub_list_tasks").is_write);
  EXPECT_EQ(Tool("hub_manage_skill").module, skills::kModule);
  EXPECT_EQ(Tool("hub_list_tasks").module, "");
}

TEST(HubTools, RunnableWriteAreasAreTheAreasATurnCanWriteIn) {
  const std::vector<std::string_view> areas = {
      areas::kTrash, areas::kTasks,  areas::kApps,   areas::kPages,    areas::kWeb,
      areas::kFiles, areas::kSkills, areas::kBoards, areas::kCalendar, "nowhere"};
  const std::vector<std::string_view> got = RunnableWriteAreas(hub::HubToolRegistry(), areas);
  // In the order given, so Settings lists them as it always has.
  std::vector<std::string_view> expected;
  for (std::string_view area : areas) {
    bool runnable = false;
    for (const std::string& name : hub::HubToolRegistry().names()) {
      const ToolDef* def = hub::HubToolRegistry().Find(name);
      runnable = runnable || (def->area == area && def->is_write && TurnCanRun(*def));
    }
    if (runnable) expected.push_back(area);
  }
  EXPECT_EQ(got, expected);
  EXPECT_THAT(got, testing::Contains(areas::kTasks));
  EXPECT_THAT(got, testing::Contains(areas::kPages));
  EXPECT_THAT(got, testing::Not(testing::Contains("nowhere")));
}

TEST(HubTools, ToolsForHonoursAllowedWriteAreasAndViewers) {
  tools::ToolFilter filter;
  filter.allowed_write_areas = std::vector<std::string>{std::string(areas::kTasks)};
  std::set<std::string> offered;
  for (const ToolDef* def : hub::HubToolRegistry().ToolsFor(filter)) offered.insert(def->name);
  EXPECT_TRUE(offered.count("hub_create_tasks"));
  EXPECT_TRUE(offered.count("hub_list_pages"));
  EXPECT_FALSE(offered.count("hub_create_page"));
  EXPECT_FALSE(offered.count("hub_list_skills")) << "skills module is off";
  filter.role = sync::Role::kViewer;
  for (const ToolDef* def : hub::HubToolRegistry().ToolsFor(filter))
    EXPECT_FALSE(def->is_write) << def->name;
}

TEST(HubTools, SampleCalls) {
  const auto& registry = hub::HubToolRegistry();
  EXPECT_TRUE(CheckToolCall(
                  registry, "hub_move_to_board",
                  json{{"board", "b1"}, {"itemId", "t1"}, {"itemKind", "task"}, {"column", "Done"}})
                  .status.ok());
  EXPECT_TRUE(CheckToolCall(registry, "hub_create_routine",
                            json{{"title", "Brief"},
                                 {"instruction", "Summarise my day"},
                                 {"schedule", {{"frequency", "weekdays"}, {"time", "08:30"}}}})
                  .status.ok());
  EXPECT_THAT(
      CheckToolCall(registry, "hub_create_routine",
                    json{{"title", "Brief"},
                         {"instruction", "x"},
                         {"schedule", {{"frequency", "weekdays"}, {"time", "8.30"}}}})
          .errors,
      ::testing::ElementsAre(ValidationError{
          "input.schedule.time", "must match the pattern ^([01][0-9]|2[0-3]):[0-5][0-9]$"}));
  EXPECT_TRUE(
      CheckToolCall(registry, "hub_update_settings",
                    json{{"changes", {{{"key", "assistant.writePolicy"}, {"value", "preview"}}}}})
          .status.ok());
  EXPECT_EQ(CheckToolCall(registry, "hub_update_settings", json{{"changes", json::array()}})
                .status.code(),
            codes::kInvalidToolInput);
}

TEST(HubTools, SharedValidationVectors) {
  json table = json::parse(ReadFile(SourceDir() / "tests/vectors/tools/validate_tool_call.json"),
                           nullptr, false);
  ASSERT_TRUE(table.is_object()) << "tests/vectors/tools/validate_tool_call.json is missing";
  ASSERT_GE(table["cases"].size(), 10u);
  for (const json& row : table["cases"]) {
    SCOPED_TRACE(row["name"].get<std::string>());
    tools::ToolCallCheck check =
        CheckToolCall(hub::HubToolRegistry(), row["tool"].get<std::string>(), row["input"]);
    if (row.value("ok", false)) {
      EXPECT_TRUE(check.status.ok()) << check.status.ToString();
      continue;
    }
    EXPECT_EQ(check.status.code(), row["code"].get<std::string>());
    EXPECT_EQ(check.status.message(), row["message"].get<std::string>());
    json errors = json::array();
    for (const ValidationError& e : check.errors)
      errors.push_back({{"path", e.path}, {"message", e.message}});
    EXPECT_EQ(errors, row["errors"]);
  }
}

}  // namespace
}  // namespace ensemble::core::assistant
