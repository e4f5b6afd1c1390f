// The board overview's layout tools (core/boards/layout_tool_runs.h):
// read with what is placed and what is not, an edit made from version 0,
// resolved and filled in by prepare, a stale version and another space's
// board refused with nothing written, and Undo back to the previous tiles.

#include "core/boards/layout_tool_runs.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "core/boards/board_layout.h"
#include "tests/core/tools/record_tool_fixture.h"

namespace ensemble::core::boards {
namespace layout_tool_runs_test {

using nlohmann::json;
using ::testing::HasSubstr;

class LayoutToolRunsTest : public tools::RecordToolTest {
 protected:
  std::string Board(const std::string& title, const std::string& space = kSpace) {
    return Seed("board", {{"title", title}}, space);
  }
  int64_t Layouts() {
    auto rows = db_->Query("SELECT COUNT(*) FROM board_layouts WHERE deleted = 0", {});
    return rows.ok() ? store::AsInt(rows->rows[0][0]) : -1;
  }
};

TEST_F(LayoutToolRunsTest, AnEmptyOverviewReadsAsVersionZeroWithEveryBoardUnplaced) {
  Board("Roadmap");
  json r = Ok("hub_read_layout", json::object());
  EXPECT_EQ(r["data"]["layout"]["version"], 0);
  EXPECT_TRUE(r["data"]["layout"]["id"].is_null());
  EXPECT_EQ(r["data"]["unplaced"][0]["title"], "Roadmap");
  EXPECT_EQ(r["summary"],
            "The board overview has no layout yet (version 0) places no boards; not placed: "
            "\u201CRoadmap\u201D.");
}

TEST_F(LayoutToolRunsTest, AnEditPlacesBoardsAndUndoTakesItBack) {
  const std::string roadmap = Board("Roadmap");
  const std::string launch = Board("Launch");
  const std::string ideas = Board("Ideas");
  json input = {{"version", 0},
                {"tiles",
                 {{{"id", launch}, {"x", 4}, {"y", 0}, {"w", 2}, {"h", 1}},
                  {{"id", roadmap}, {"x", 0}, {"y", 0}, {"w", 4}, {"h", 2}}}}};
  json prepared;
  EXPECT_EQ(*Preview("hub_edit_layout", input, &prepared),
            "Lay out the board overview: \u201CRoadmap\u201D at 0,0 4\u00D72 and "
            "\u201CLaunch\u201D at 4,0 2\u00D71.");
  json made = Ok("hub_edit_layout", prepared);
  EXPECT_EQ(Layouts(), 1);

  json read = Ok("hub_read_layout", json::object());
  EXPECT_EQ(read["data"]["layout"]["version"], 1);
  EXPECT_EQ(read["data"]["layout"]["tiles"][0]["title"], "Roadmap");  // Read top left first.
  EXPECT_EQ(read["data"]["unplaced"].size(), 1u);
  EXPECT_EQ(read["data"]["unplaced"][0]["id"], ideas);
  EXPECT_THAT(read["summary"].get<std::string>(),
              HasSubstr("(version 1) shows \u201CRoadmap\u201D and \u201CLaunch\u201D; not "
                        "placed: \u201CIdeas\u201D."));

  // A tile without a place goes in reading order, one cell.
  json second = Ok("hub_edit_layout", {{"version", 1}, {"tiles", {{{"id", ideas}}}}});
  EXPECT_EQ(second["data"]["layout"]["tiles"][0],
            json({{"id", ideas}, {"x", 0}, {"y", 0}, {"w", 1}, {"h", 1}}));
  ASSERT_TRUE(ApplyUndo(second).ok());
  EXPECT_EQ(Ok("hub_read_layout", json::object())["data"]["layout"]["tiles"].size(), 2u);
  ASSERT_TRUE(ApplyUndo(made).ok());
  EXPECT_EQ(Layouts(), 0);
}

TEST_F(LayoutToolRunsTest, AStaleVersionOrAnotherSpacesBoardWritesNothing) {
  const std::string roadmap = Board("Roadmap");
  const std::string theirs = Board("Theirs", kOtherSpace);
  Ok("hub_edit_layout", {{"version", 0}, {"tiles", {{{"id", roadmap}}}}});
  const json moved = {{"version", 0}, {"tiles", {{{"id", roadmap}, {"x", 3}}}}};
  Result<json> stale = Run("hub_edit_layout", moved);
  EXPECT_EQ(stale.status().code(), codes::kSaveConflict);
  EXPECT_THAT(stale.status().message(), HasSubstr("read it again (hub_read_layout)"));
  EXPECT_EQ(Run("hub_edit_layout", {{"version", 1}, {"tiles", {{{"id", theirs}}}}}).status().code(),
            codes::kNotFound);
  EXPECT_EQ(
      Run("hub_edit_layout", {{"version", 1}, {"tiles", {{{"id", roadmap}}, {{"id", roadmap}}}}})
          .status()
          .code(),
      codes::kInvalidArgument);
  json read = Ok("hub_read_layout", json::object());
  EXPECT_EQ(read["data"]["layout"]["version"], 1);
  EXPECT_EQ(read["data"]["layout"]["tiles"][0]["x"], 0);
  EXPECT_EQ(Run("hub_read_layout", {{"layoutId", theirs}}).status().code(), codes::kNotFound);
}

}  // namespace layout_tool_runs_test
}  // namespace ensemble::core::boards
