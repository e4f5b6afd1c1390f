// ValidateToolCall / CheckToolCall: an unknown tool and each kind of schema
// failure give a stable code and name the failing field by path (spec 000 §9).

#include "core/tools/validate.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

namespace ensemble::core::tools {
namespace {

using nlohmann::json;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

const json kTaskItem = {{"type", "object"},
                        {"additionalProperties", false},
                        {"required", {"title"}},
                        {"properties",
                         {{"title", {{"type", "string"}, {"minLength", 1}, {"maxLength", 20}}},
                          {"status", {{"type", "string"}, {"enum", {"todo", "doing", "done"}}}},
                          {"due", {{"type", "string"}, {"format", "date"}}},
                          {"priority", {{"type", "integer"}, {"minimum", 1}, {"maximum", 4}}}}}};

ToolRegistry Registry() {
  ToolRegistry registry;
  ToolDef create;
  create.name = "hub_create_tasks";
  create.area = "tasks";
  create.description = "Create tasks.";
  create.is_write = true;
  create.input_schema = {
      {"type", "object"},
      {"additionalProperties", false},
      {"required", {"tasks"}},
      {"properties",
       {{"tasks", {{"type", "array"}, {"minItems", 1}, {"maxItems", 3}, {"items", kTaskItem}}},
        {"odd key", {{"type", "boolean"}}}}}};
  EXPECT_TRUE(registry.Register(create).ok());
  ToolDef update;
  update.name = "hub_update_task";
  update.area = "tasks";
  update.description = "Change a task.";
  update.is_write = true;
  update.input_schema = {{"type", "object"},
                         {"additionalProperties", false},
                         {"required", {"id"}},
                         {"properties",
                          {{"id", {{"type", "string"}, {"maxLength", 64}}},
                           {"status", {{"type", "string"}, {"enum", {"todo", "doing", "done"}}}},
                           {"labels", {{"type", json::array({"string", "null"})}}}}}};
  EXPECT_TRUE(registry.Register(update).ok());
  return registry;
}

TEST(ValidateToolCall, AValidCallPasses) {
  ToolRegistry registry = Registry();
  ToolCallCheck check = CheckToolCall(
      registry, "hub_create_tasks",
      json{{"tasks", {{{"title", "Draft brief"}, {"status", "todo"}, {"due", "2026-12-01"}}}}});
  EXPECT_TRUE(check.status.ok()) << check.status.ToString();
  EXPECT_TRUE(check.errors.empty());
  EXPECT_TRUE(ValidateToolCall(registry, "hub_update_task", json{{"id", "t1"}}).ok());
}

TEST(ValidateToolCall, AnUnknownToolIsNamed) {
  ToolRegistry registry = Registry();
  Status st = ValidateToolCall(registry, "hub_launch_rocket", json::object());
  EXPECT_EQ(st.code(), codes::kUnknownTool);
  EXPECT_EQ(st.message(), "no tool called \"hub_launch_rocket\"");
}

TEST(ValidateToolCall, AnUnknownToolsLongNameIsCutOnACharacterBoundary) {
  ToolRegistry registry = Registry();
  std::string name = std::string(63, 'a') + "é" + std::string(100, 'b');
  Status st = ValidateToolCall(registry, name, json::object());
  EXPECT_EQ(st.code(), codes::kUnknownTool);
  EXPECT_EQ(st.message(), "no tool called \"" + std::string(63, 'a') + "…\"");
}

TEST(ValidateToolCall, AMissingFieldIsNamed) {
  ToolRegistry registry = Registry();
  ToolCallCheck check = CheckToolCall(registry, "hub_update_task", json{{"status", "done"}});
  EXPECT_EQ(check.status.code(), codes::kInvalidToolInput);
  EXPECT_EQ(check.status.message(),
            "invalid input for hub_update_task: input.id: missing required property");
  EXPECT_THAT(check.errors, ElementsAre(ValidationError{"input.id", "missing required property"}));
}

TEST(ValidateToolCall, AWrongTypeIsNamed) {
  ToolRegistry registry = Registry();
  ToolCallCheck check = CheckToolCall(registry, "hub_update_task", json{{"id", 42}, {"labels", 1}});
  EXPECT_THAT(check.errors,
              ElementsAre(ValidationError{"input.id", "must be a string"},
                          ValidationError{"input.labels", "must be a string or null"}));
}

TEST(ValidateToolCall, AnEnumListsItsValues) {
  ToolRegistry registry = Registry();
  Status st =
      ValidateToolCall(registry, "hub_update_task", json{{"id", "t1"}, {"status", "finished"}});
  EXPECT_EQ(st.code(), codes::kInvalidToolInput);
  EXPECT_THAT(st.message(), HasSubstr("input.status: must be one of todo, doing, done"));
}

TEST(ValidateToolCall, ANestedArrayPathIsNamed) {
  ToolRegistry registry = Registry();
  ToolCallCheck check = CheckToolCall(
      registry, "hub_create_tasks",
      json{
          {"tasks", {{{"title", "ok"}}, {{"status", "todo"}}, {{"title", "x"}, {"priority", 9}}}}});
  EXPECT_THAT(check.errors,
              ElementsAre(ValidationError{"input.tasks[1].title", "missing required property"},
                          ValidationError{"input.tasks[2].priority", "must be at most 4"}));
  EXPECT_EQ(check.status.message(),
            "invalid input for hub_create_tasks: input.tasks[1].title: missing required property; "
            "input.tasks[2].priority: must be at most 4");
}

TEST(ValidateToolCall, AdditionalPropertiesAreRefusedByName) {
  ToolRegistry registry = Registry();
  ToolCallCheck check =
      CheckToolCall(registry, "hub_update_task", json{{"id", "t1"}, {"colour", "red"}});
  EXPECT_EQ(check.status.code(), codes::kInvalidToolInput);
  ASSERT_EQ(check.errors.size(), 1u);
  EXPECT_EQ(check.errors[0].path, "input.colour");
  EXPECT_EQ(check.errors[0].message, "is not allowed; known properties: id, labels, status");
}

TEST(ValidateToolCall, BoundsAndFormatsAreWorded) {
  ToolRegistry registry = Registry();
  ToolCallCheck check = CheckToolCall(
      registry, "hub_create_tasks",
      json{{"tasks", {{{"title", ""}, {"due", "tomorrow"}}, {{"title", std::string(21, 'x')}}}}});
  EXPECT_THAT(
      check.errors,
      ElementsAre(ValidationError{"input.tasks[0].due", "must be a date (YYYY-MM-DD)"},
                  ValidationError{"input.tasks[0].title", "must not be empty"},
                  ValidationError{"input.tasks[1].title", "must be at most 20 characters"}));
  check = CheckToolCall(registry, "hub_create_tasks", json{{"tasks", json::array()}});
  EXPECT_THAT(check.errors,
              ElementsAre(ValidationError{"input.tasks", "must have at least 1 item"}));
}

// valijson checks "format" on values of any type (and throws on an object);
// the registry compiles formats as string-only patterns instead.
TEST(ValidateToolCall, AFormatFieldGivenAnObjectIsAWrongTypeNotACrash) {
  ToolRegistry registry = Registry();
  ToolCallCheck check =
      CheckToolCall(registry, "hub_create_tasks",
                    json{{"tasks", {{{"title", "a"}, {"due", {{"on", "friday"}}}}}}});
  EXPECT_EQ(check.status.code(), codes::kInvalidToolInput);
  EXPECT_THAT(check.errors, ElementsAre(ValidationError{"input.tasks[0].due", "must be a string"}));
  check = CheckToolCall(registry, "hub_create_tasks",
                        json{{"tasks", {{{"title", "a"}, {"due", "2026-13-01"}}}}});
  EXPECT_THAT(check.errors,
              ElementsAre(ValidationError{"input.tasks[0].due", "must be a date (YYYY-MM-DD)"}));
}

TEST(ValidateToolCall, AnOddPropertyNameIsQuoted) {
  ToolRegistry registry = Registry();
  ToolCallCheck check = CheckToolCall(registry, "hub_create_tasks",
                                      json{{"tasks", {{{"title", "a"}}}}, {"odd key", "yes"}});
  EXPECT_THAT(check.errors,
              ElementsAre(ValidationError{"input[\"odd key\"]", "must be true or false"}));
}

TEST(ValidateToolCall, InputThatIsNotAnObjectIsRefused) {
  ToolRegistry registry = Registry();
  ToolCallCheck check = CheckToolCall(registry, "hub_update_task", json::array());
  EXPECT_EQ(check.status.code(), codes::kInvalidToolInput);
  EXPECT_THAT(check.errors, ElementsAre(ValidationError{"input", "must be an object"}));
}

TEST(ValidateToolCall, NamesAtMostFiveErrorsAndCountsTheRest) {
  ToolRegistry registry;
  ToolDef def;
  def.name = "many";
  def.area = "core";
  def.description = "Many fields.";
  json props = json::object();
  json required = json::array();
  for (char c = 'a'; c <= 'h'; ++c) {
    props[std::string(1, c)] = {{"type", "string"}};
    required.push_back(std::string(1, c));
  }
  def.input_schema = {{"type", "object"}, {"properties", props}, {"required", required}};
  ASSERT_TRUE(registry.Register(def).ok());
  ToolCallCheck check = CheckToolCall(registry, "many", json::object());
  EXPECT_EQ(check.errors.size(), kMaxReportedErrors);
  EXPECT_EQ(check.status.message(),
            "invalid input for many: input.a: missing required property; input.b: missing required "
            "property; input.c: missing required property; input.d: missing required property; "
            "input.e: missing required property; and 3 more");
}

}  // namespace
}  // namespace ensemble::core::tools
