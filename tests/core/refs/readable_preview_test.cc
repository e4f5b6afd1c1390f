// Table-driven tests of ReadablePreview (spec §4 readablePreview, §6 "known
// ids as titles, other ids left out"). The table lives in
// tests/vectors/refs/readable_preview.json: named ref sets and rows
// {name, refs, tool, input, expect}. Rows are read in their written member
// order (ordered_json), as the server reads a model's call.

#include "core/refs/readable_preview.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "core/text/utf8.h"
#include "tests/support/source_file.h"

namespace ensemble::core::refs {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

RefSet MakeRefSet(const ordered_json& list) {
  RefSet set;
  for (const ordered_json& r : list) {
    EXPECT_TRUE(set.Add(Ref{r.at("kind"), r.at("id"), r.at("label"), r.value("detail", "")}))
        << r.dump();
  }
  return set;
}

const std::string kTask = "01JCTASK000000000000000001";
const std::string kPerson = "01JCPERS000000000000000002";
const std::string kUnknown = "01JCZZZZ000000000000000099";

RefSet Basic() {
  return RefSet({{"task", kTask, "Draft brief", ""}, {"person", kPerson, "Mira Chen", ""}});
}

TEST(ReadablePreview, EveryTableRowGivesItsExpectedText) {
  ordered_json table =
      testing::LoadJsonFile<ordered_json>("tests/vectors/refs/readable_preview.json");
  ASSERT_TRUE(table.is_object()) << "tests/vectors/refs/readable_preview.json is missing";
  std::map<std::string, RefSet> sets;
  for (const auto& [name, list] : table.at("refSets").items()) sets[name] = MakeRefSet(list);
  int rows = 0;
  for (const ordered_json& row : table.at("rows")) {
    SCOPED_TRACE(row.at("name").get<std::string>());
    const RefSet& refs = sets.at(row.at("refs").get<std::string>());
    std::string out = ReadablePreview(row.at("tool").get<std::string>(), row.at("input"), refs);
    EXPECT_EQ(out, row.at("expect").get<std::string>());
    EXPECT_LE(text::CountCodePoints(out), kMaxPreviewChars);
    ++rows;
  }
  EXPECT_GE(rows, 25);
}

TEST(ReadablePreview, ToolNamesBecomeActions) {
  struct Row {
    const char* tool;
    const char* expect;
  } rows[] = {
      {"hub_update_task", "Update task"},
      {"hub_delete_tasks", "Delete tasks"},
      {"hub_move_to_board", "Move to board"},
      {"apps_post_update", "Post update"},
      {"create_task", "Create task"},
      {"ensemble_start_agent", "Ensemble start agent"},
      {"hub_", ""},
      {"hubUpdateTask", "Hub update task"},
  };
  for (const Row& r : rows) EXPECT_EQ(ToolAction(r.tool), r.expect) << r.tool;
}

TEST(ReadablePreview, FieldNamesBecomeWords) {
  struct Row {
    const char* key;
    const char* expect;
  } rows[] = {
      {"dueDate", "due date"},
      {"due_date", "due date"},
      {"projectId", "project"},
      {"personIds", "people"},
      {"assignee_ids", "assignees"},
      {"pageURL", "page url"},
      {"HTMLBody", "html body"},
      {"status", "status"},
      {"id", "id"},
      {"v2Name", "v2 name"},
      {"customBoard", "custom board"},
  };
  for (const Row& r : rows) EXPECT_EQ(FieldWords(r.key), r.expect) << r.key;
}

TEST(ReadablePreview, NoJsonPunctuationLeaks) {
  ordered_json input = {
      {"id", kTask},
      {"fields", {{"status", "done"}, {"tags", {"a", "b"}}, {"owner", kPerson}}},
      {"steps", ordered_json::array({{{"title", "One"}, {"done", true}}, {{"order", 2}}})},
      {"matrix", ordered_json::array({ordered_json::array({1, 2}), ordered_json::array({3})})},
      {"ref", {{"$ref", "tasks.tasks.0.id"}}},
      {"empty", ordered_json::object()},
      {"none", nullptr},
  };
  std::string out = ReadablePreview("hub_run_workflow", input, Basic());
  for (char c : std::string("{}[]\"")) {
    EXPECT_EQ(out.find(c), std::string::npos) << "'" << c << "' in: " << out;
  }
  EXPECT_EQ(out.find(kTask), std::string::npos);
  EXPECT_EQ(out.find(kPerson), std::string::npos);
  EXPECT_NE(out.find("\u201CMira Chen\u201D"), std::string::npos) << out;
}

TEST(ReadablePreview, UnknownIdsNeverAppearAnywhere) {
  ordered_json input = {{"id", kUnknown},
                        {"people", {kUnknown, kPerson}},
                        {"nested", {{"owner", kUnknown}, {"list", {kUnknown}}}},
                        {"updates", ordered_json::array({{{"id", kUnknown}}})}};
  std::string out = ReadablePreview("hub_update_task", input, Basic());
  EXPECT_EQ(out.find(kUnknown), std::string::npos) << out;
  EXPECT_EQ(out, "Update task: people \u201CMira Chen\u201D");
}

TEST(ReadablePreview, HugeInputsStayBoundedAndWellFormed) {
  ordered_json input = ordered_json::object();
  for (int i = 0; i < 500; ++i) {
    input["field" + std::to_string(i)] = std::string(i % 7 == 0 ? "日本語🎉" : "text ") +
                                         std::string(static_cast<size_t>(i % 50), 'x');
  }
  input["list"] = ordered_json::array();
  for (int i = 0; i < 10000; ++i) input["list"].push_back(i);
  std::string out = ReadablePreview("hub_import", input, RefSet());
  EXPECT_LE(text::CountCodePoints(out), kMaxPreviewChars);
  EXPECT_TRUE(text::IsValidUtf8(out));
  EXPECT_NE(out.find(", \u2026"), std::string::npos) << out;

  // One field alone longer than the bound is cut with "…".
  ordered_json one = {{"x",
                       {{"a", std::string(70, 'a')},
                        {"b", std::string(70, 'b')},
                        {"c", std::string(70, 'c')},
                        {"d", std::string(70, 'd')},
                        {"e", std::string(70, 'e')}}}};
  out = ReadablePreview("hub_save", one, RefSet());
  EXPECT_EQ(text::CountCodePoints(out), kMaxPreviewChars);
  EXPECT_EQ(out.substr(out.size() - 3), "\u2026");
}

TEST(ReadablePreview, PlainJsonInputListsFieldsByName) {
  // nlohmann::json keeps members sorted by name; ordered_json keeps the call's order.
  json sorted = {{"status", "done"}, {"dueDate", "2026-12-03"}};
  EXPECT_EQ(ReadablePreview("hub_update_task", sorted, RefSet()),
            "Update task: due date 2026-12-03, status done");
  ordered_json ordered = {{"status", "done"}, {"dueDate", "2026-12-03"}};
  EXPECT_EQ(ReadablePreview("hub_update_task", ordered, RefSet()),
            "Update task: status done, due date 2026-12-03");
}

TEST(ReadablePreview, NonObjectInputIsShownAsItsValue) {
  EXPECT_EQ(ReadablePreview("hub_archive_tasks", ordered_json::array({kTask, kUnknown}), Basic()),
            "Archive tasks: \u201CDraft brief\u201D");
  EXPECT_EQ(ReadablePreview("hub_pause", ordered_json(true), Basic()), "Pause: yes");
}

}  // namespace
}  // namespace ensemble::core::refs
