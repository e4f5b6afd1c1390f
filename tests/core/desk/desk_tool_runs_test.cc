// The desk-list tools' hooks (core/desk/desk_tool_runs.h): a list made
// with its lines in order, one update that renames, adds, ticks, rewords and
// removes (Undo puts every part back), lines of another list refused, the
// cap, and the list read back with its ticks.

#include "core/desk/desk_tool_runs.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/desk/desk_list.h"
#include "tests/core/tools/record_tool_fixture.h"

namespace ensemble::core::desk {
namespace desk_tools_test {

using nlohmann::json;
using ::testing::HasSubstr;

class DeskToolRunsTest : public tools::RecordToolTest {
 protected:
  json Lists() { return Ok("hub_list_desk_lists", json::object())["data"]["lists"]; }

  // The id of the line of `list` (as Lists gives it) with `text`.
  static std::string LineId(const json& list, const std::string& text) {
    for (const json& line : list["items"]) {
      if (line["text"] == text) return line["id"];
    }
    ADD_FAILURE() << "no line " << text;
    return "";
  }
};

TEST_F(DeskToolRunsTest, EveryToolHasItsHooks) {
  for (const char* name : {"hub_list_desk_lists", "hub_create_desk_list", "hub_update_desk_list",
                           "hub_delete_desk_list"}) {
    EXPECT_TRUE(Tool(name).run) << name;
  }
}

TEST_F(DeskToolRunsTest, CreateKeepsTheLinesInOrderAndUndoRemovesTheList) {
  const json input = {{"title", " Shop "}, {"lines", {"milk", " bread ", "eggs"}}};
  EXPECT_EQ(*Preview("hub_create_desk_list", input),
            "Add the desk list \u201CShop\u201D with 3 lines: \u201Cmilk\u201D, "
            "\u201Cbread\u201D and \u201Ceggs\u201D");
  json r = Ok("hub_create_desk_list", input);
  EXPECT_EQ(r["summary"],
            "Added the desk list \u201CShop\u201D with 3 lines: \u201Cmilk\u201D, "
            "\u201Cbread\u201D and \u201Ceggs\u201D.");
  const json lists = Lists();
  ASSERT_EQ(lists.size(), 1u);
  ASSERT_EQ(lists[0]["items"].size(), 3u);
  EXPECT_EQ(lists[0]["items"][1]["text"], "bread");
  EXPECT_EQ(lists[0]["items"][2]["text"], "eggs");
  ASSERT_TRUE(ApplyUndo(r).ok());
  EXPECT_TRUE(Lists().empty());
  EXPECT_EQ(Run("hub_create_desk_list", {{"title", "x"}, {"lines", {"a", "  "}}}).status().code(),
            codes::kInvalidArgument);
}

TEST_F(DeskToolRunsTest, OneUpdateChangesSeveralThingsAndUndoPutsAllBack) {
  const json made =
      Ok("hub_create_desk_list", {{"title", "Shop"}, {"lines", {"milk", "bread", "jam"}}});
  const std::string id = made["data"]["list"]["id"];
  const json list = made["data"]["list"];
  const json input = {{"id", id},
                      {"title", "Groceries"},
                      {"add", {"eggs"}},
                      {"check", {LineId(list, "milk")}},
                      {"reword", {{{"lineId", LineId(list, "bread")}, {"text", "rye bread"}}}},
                      {"remove", {LineId(list, "jam")}}};
  const std::string words =
      "\u201CShop\u201D: renamed to \u201CGroceries\u201D, added \u201Ceggs\u201D, ticked "
      "\u201Cmilk\u201D, reworded \u201Cbread\u201D to \u201Crye bread\u201D and removed "
      "\u201Cjam\u201D";
  EXPECT_EQ(*Preview("hub_update_desk_list", input), "Change the desk list " + words);
  json r = Ok("hub_update_desk_list", input);
  EXPECT_EQ(r["summary"], "Changed the desk list " + words + ".");
  json after = Lists()[0];
  EXPECT_EQ(after["title"], "Groceries");
  ASSERT_EQ(after["items"].size(), 3u);
  EXPECT_EQ(after["items"][0]["text"], "milk");
  EXPECT_EQ(after["items"][0]["done"], true);
  EXPECT_EQ(after["items"][1]["text"], "rye bread");
  EXPECT_EQ(after["items"][2]["text"], "eggs");  // Added at the end.
  EXPECT_EQ(r["data"]["list"]["items"], after["items"]);

  ASSERT_TRUE(ApplyUndo(r).ok());
  after = Lists()[0];
  EXPECT_EQ(after["title"], "Shop");
  ASSERT_EQ(after["items"].size(), 3u);
  EXPECT_EQ(after["items"][0]["done"], false);
  EXPECT_EQ(after["items"][1]["text"], "bread");
  EXPECT_EQ(after["items"][2]["text"], "jam");
}

TEST_F(DeskToolRunsTest, LinesMustBeOnTheListNamedAndNamedOnce) {
  const json a = Ok("hub_create_desk_list", {{"title", "A"}, {"lines", {"one"}}})["data"]["list"];
  const json b = Ok("hub_create_desk_list", {{"title", "B"}, {"lines", {"two"}}})["data"]["list"];
  const int before = writes_;
  Result<json> wrong =
      Run("hub_update_desk_list", {{"id", a["id"]}, {"check", {LineId(b, "two")}}});
  EXPECT_EQ(wrong.status().code(), codes::kNotFound);
  EXPECT_THAT(wrong.status().message(), HasSubstr("\u201CA\u201D"));
  Result<json> twice =
      Run("hub_update_desk_list",
          {{"id", a["id"]}, {"check", {LineId(a, "one")}}, {"remove", {LineId(a, "one")}}});
  EXPECT_EQ(twice.status().code(), codes::kInvalidArgument);
  EXPECT_EQ(Run("hub_update_desk_list", {{"id", a["id"]}}).status().code(),
            codes::kInvalidArgument);
  const std::string theirs = Seed("desk_list", {{"title", "Theirs"}}, kOtherSpace);
  EXPECT_EQ(Run("hub_update_desk_list", {{"id", theirs}, {"title", "x"}}).status().code(),
            codes::kNotFound);
  EXPECT_EQ(Run("hub_delete_desk_list", {{"id", theirs}}).status().code(), codes::kNotFound);
  EXPECT_EQ(writes_, before);
}

TEST_F(DeskToolRunsTest, AFullListRefusesMoreButSwapsALine) {
  const std::string id = Ok("hub_create_desk_list", {{"title", "Full"}})["data"]["list"]["id"];
  for (size_t i = 0; i < desk::kMaxDeskListItems; ++i) {
    Seed("desk_list_item", {{"list", id}, {"text", "line " + std::to_string(i)}});
  }
  Result<json> more = Run("hub_update_desk_list", {{"id", id}, {"add", {"one more"}}});
  EXPECT_EQ(more.status().code(), codes::kLimitReached);
  EXPECT_THAT(more.status().message(), HasSubstr("at most 200 lines"));
  const std::string first = LineId(Lists()[0], "line 0");
  json swap = Ok("hub_update_desk_list", {{"id", id}, {"add", {"one more"}}, {"remove", {first}}});
  EXPECT_EQ(Lists()[0]["items"].size(), desk::kMaxDeskListItems);
  EXPECT_EQ(Lists()[0]["items"].back()["text"], "one more");
}

TEST_F(DeskToolRunsTest, ListSaysWhatIsDoneAndDeleteUndoes) {
  EXPECT_EQ(Ok("hub_list_desk_lists", json::object())["summary"], "No desk lists yet.");
  const json shop =
      Ok("hub_create_desk_list", {{"title", "Shop"}, {"lines", {"milk", "bread"}}})["data"]["list"];
  ctx_.now_ms += 1000;  // Lists read oldest first.
  Ok("hub_create_desk_list", {{"title", "Reading"}});
  Ok("hub_update_desk_list", {{"id", shop["id"]}, {"check", {LineId(shop, "milk")}}});
  EXPECT_EQ(Ok("hub_list_desk_lists", json::object())["summary"],
            "2 desk lists: \u201CShop\u201D (1 of 2 lines done); \u201CReading\u201D (no lines).");
  json del = Ok("hub_delete_desk_list", {{"id", shop["id"]}});
  EXPECT_EQ(del["summary"], "Removed the desk list \u201CShop\u201D (2 lines) to Trash.");
  EXPECT_EQ(Lists().size(), 1u);
  ASSERT_TRUE(ApplyUndo(del).ok());
  ASSERT_EQ(Lists().size(), 2u);
  EXPECT_EQ(Lists()[0]["items"].size(), 2u);
}

}  // namespace desk_tools_test
}  // namespace ensemble::core::desk
