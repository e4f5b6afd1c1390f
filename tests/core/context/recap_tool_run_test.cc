// hub_weekly_recap (core/context/recap_tool_run.h): the week in the
// person's zone, finished, changed and upcoming work of the turn's space
// only, and an empty earlier week.

#include "core/context/recap_tool_run.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/core/tools/record_tool_fixture.h"

namespace ensemble::core::context {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

using RecapToolRunTest = tools::RecordToolTest;

TEST_F(RecapToolRunTest, FinishedChangedAndUpcomingOfThisWeek) {
  // kNow is Monday 30 Nov 2026, 09:00 UTC: every seeded record changed this week.
  Seed("task", {{"title", "Shipped"}, {"status", "done"}});
  Seed("task", {{"title", "Started"}, {"status", "doing"}});
  Seed("task", {{"title", "Next week"}, {"due", "2026-12-08"}});
  Seed("task", {{"title", "Much later"}, {"due", "2027-01-20"}});
  Seed("page", {{"title", "Notes"}});
  Seed("task", {{"title", "Elsewhere"}, {"status", "done"}}, kOtherSpace);

  json r = Ok("hub_weekly_recap", json::object());
  const json& d = r["data"];
  EXPECT_EQ(d["week"], "2026-W49");
  EXPECT_EQ(d["from"], "2026-11-30");
  EXPECT_EQ(d["to"], "2026-12-06");
  ASSERT_EQ(d["finished"]["total"], 1);
  EXPECT_EQ(d["finished"]["items"][0]["title"], "Shipped");
  EXPECT_EQ(d["changed"]["total"], 4);  // Started, Next week, Much later, Notes.
  ASSERT_EQ(d["upcoming"]["total"], 1);
  EXPECT_EQ(d["upcoming"]["items"][0]["title"], "Next week");
  EXPECT_THAT(r["summary"].get<std::string>(),
              HasSubstr("(2026-W49): 1 finished, 4 changed, 1 due the week after."));
  EXPECT_THAT(r["summary"].get<std::string>(), HasSubstr("Shipped"));
}

TEST_F(RecapToolRunTest, AnEarlierWeekHasNothingAndABadDateIsRefused) {
  Seed("task", {{"title", "Shipped"}, {"status", "done"}});
  json r = Ok("hub_weekly_recap", {{"weekOf", "2026-11-25"}});
  EXPECT_EQ(r["data"]["from"], "2026-11-23");
  EXPECT_EQ(r["data"]["finished"]["total"], 0);
  EXPECT_EQ(r["data"]["changed"]["total"], 0);
  EXPECT_EQ(Run("hub_weekly_recap", {{"weekOf", "2026-02-30"}}).status().code(),
            codes::kInvalidArgument);
  // The week of 9999-12-31 ends after the last date there is.
  EXPECT_EQ(Run("hub_weekly_recap", {{"weekOf", "9999-12-31"}}).status().code(),
            codes::kInvalidArgument);
}

TEST_F(RecapToolRunTest, TheWeekStartsAtMidnightInThePersonsZone) {
  // 09:00 UTC Monday is still Monday in Tokyo (18:00) but Sunday 22:00 in
  // Honolulu (UTC-10): there the change belongs to the week before.
  Seed("task", {{"title", "Shipped"}, {"status", "done"}});
  ctx_.time_zone = "Pacific/Honolulu";
  ctx_.today = "2026-11-29";
  json r = Ok("hub_weekly_recap", json::object());
  EXPECT_EQ(r["data"]["from"], "2026-11-23");
  EXPECT_EQ(r["data"]["finished"]["total"], 1);
  ctx_.time_zone = "Asia/Tokyo";
  ctx_.today = "2026-11-30";
  EXPECT_EQ(Ok("hub_weekly_recap", json::object())["data"]["finished"]["total"], 1);
}

}  // namespace
}  // namespace ensemble::core::context
