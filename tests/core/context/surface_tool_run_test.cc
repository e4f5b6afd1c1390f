// The open view (core/context/surface_tool_run.h): the description checked
// field by field, and hub_read_surface resolving its ids among the live tasks
// of the turn's space only.

#include "core/context/surface_tool_run.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/core/tools/record_tool_fixture.h"

namespace ensemble::core::context {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

constexpr char kId[] = "01JB0000000000000000000001";

TEST(CheckSurface, KeepsTheKnownFieldsAndDropsRepeats) {
  auto s = CheckSurface({{"path", "/tasks"},
                         {"kind", "desk"},
                         {"shownIds", {kId, kId}},
                         {"filters", {{{"name", "status"}, {"value", "open"}}}}});
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ((*s)["shownIds"], json::array({kId}));
  EXPECT_EQ((*s)["filters"][0]["value"], "open");
  EXPECT_TRUE(CheckSurface(nullptr)->is_null());
  EXPECT_TRUE(CheckSurface(json::object())->is_null());
}

TEST(CheckSurface, RefusesWhatIsNotAView) {
  json too_many = json::array();
  for (size_t i = 0; i <= kMaxSurfaceIds; ++i) too_many.push_back(kId);
  const json bad[] = {
      json::array(),
      {{"path", "tasks"}},
      {{"path", 7}},
      {{"kind", "screen"}},
      {{"boardId", "not an id"}},
      {{"shownIds", {"x"}}},
      {{"shownIds", too_many}},
      {{"filters", {{{"name", "status"}}}}},
      {{"filters", {{{"name", "status"}, {"value", std::string(kMaxSurfaceTextChars + 1, 'a')}}}}},
      {{"scroll", 3}},
  };
  for (const json& s : bad) {
    EXPECT_EQ(CheckSurface(s).status().code(), codes::kInvalidArgument) << s.dump();
  }
}

class SurfaceToolRunTest : public tools::RecordToolTest {};

TEST_F(SurfaceToolRunTest, NoViewIsSaidPlainly) {
  json r = Ok("hub_read_surface", json::object());
  EXPECT_EQ(r["summary"], "No view is open beside the chat.");
  EXPECT_EQ(r["data"]["open"], false);
}

TEST_F(SurfaceToolRunTest, ReadsTheShownAndSelectedTasksOfThisSpaceOnly) {
  const std::string a = Seed("task", {{"title", "Ship it"}});
  const std::string b = Seed("task", {{"title", "Write notes"}, {"status", "doing"}});
  const std::string theirs = Seed("task", {{"title", "Theirs"}}, kOtherSpace);
  const std::string board = Seed("board", {{"title", "Launch"}});
  ctx_.surface = *CheckSurface({{"path", "/board"},
                                {"kind", "board"},
                                {"boardId", board},
                                {"shownIds", {a, theirs, b}},
                                {"selectedIds", {b}},
                                {"filters", {{{"name", "status"}, {"value", "open"}}}}});
  json r = Ok("hub_read_surface", json::object());
  const json& d = r["data"];
  EXPECT_EQ(d["open"], true);
  EXPECT_EQ(d["board"]["title"], "Launch");
  ASSERT_EQ(d["shown"].size(), 2u);
  EXPECT_EQ(d["shown"][0]["title"], "Ship it");
  EXPECT_EQ(d["shown"][1]["title"], "Write notes");
  ASSERT_EQ(d["selected"].size(), 1u);
  EXPECT_EQ(d["selected"][0]["id"], b);
  EXPECT_EQ(r["summary"],
            "The open view is /board, the board \u201CLaunch\u201D: 2 tasks shown, 1 selected, "
            "filtered by status open.");
  EXPECT_THAT(r.dump(), ::testing::Not(HasSubstr("Theirs")));
  // The limit bounds the rows, not the count.
  json limited = Ok("hub_read_surface", {{"limit", 1}});
  EXPECT_EQ(limited["data"]["shown"].size(), 1u);
  EXPECT_EQ(limited["data"]["shownTotal"], 2);
}

}  // namespace
}  // namespace ensemble::core::context
