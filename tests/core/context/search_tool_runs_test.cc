// hub_search_work (core/context/search_tool_runs.h): every kept kind of the
// turn's space at once, ranked (the scores themselves are
// search_rank_test.cc's), snippets from bodies, kinds
// narrowed, the kinds the hub does not keep said so, and nothing of another
// space or in Trash.

#include "core/context/search_tool_runs.h"

#include <gmock/gmock.h>

#include <string>
#include <vector>

#include "core/text/utf8.h"
#include "tests/core/tools/record_tool_fixture.h"

namespace ensemble::core::context {
namespace search_tool_runs_test {

using nlohmann::json;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

class SearchWorkTest : public tools::RecordToolTest {
 protected:
  std::vector<std::string> KindsAndTitles(const json& r) {
    std::vector<std::string> out;
    for (const json& m : r["data"]["results"])
      out.push_back(m["kind"].get<std::string>() + ":" + m["title"].get<std::string>());
    return out;
  }
};

TEST_F(SearchWorkTest, FindsEveryKindRankedAndOnlyInTheSpace) {
  Seed("task", {{"title", "Plan the launch"}, {"description", "Ask Mira for the deck"}});
  Seed("page", {{"title", "Launch notes"}, {"body", "Budget and dates"}});
  Seed("project",
       {{"title", "Q3"},
        {"deliverables", {{{"id", "01JB00000000000000000000V1"}, {"title", "Launch checklist"}}}}});
  Seed("person", {{"name", "Mira Chen"}, {"role", "Launch lead"}});
  Seed("board", {{"title", "Launch board"}});
  Seed("task", {{"title", "Launch elsewhere"}}, kOtherSpace);
  const std::string old = Seed("task", {{"title", "Old launch"}});
  Mutate({{"task.delete", {{"id", old}}}});

  json r = Ok("hub_search_work", {{"query", "LAUNCH"}});
  // Title matches first; among them open work (the deliverable, the task),
  // then the later changed; the person, found by a role, last.
  EXPECT_THAT(KindsAndTitles(r),
              ElementsAre("deliverable:Launch checklist", "task:Plan the launch",
                          "board:Launch board", "page:Launch notes", "person:Mira Chen"))
      << r.dump();
  // Q3 holds a match (its deliverable) but is none itself.
  EXPECT_EQ(r["data"]["total"], 5) << r.dump();
  EXPECT_EQ(r["data"]["results"][0]["project"]["title"], "Q3");
  const json& person = r["data"]["results"][4];
  EXPECT_EQ(person["snippet"], "Launch lead");
  EXPECT_THAT(r["summary"].get<std::string>(),
              StartsWith("Found 5 matches for \u201CLAUNCH\u201D: deliverable \u201CLaunch "
                         "checklist\u201D, task \u201CPlan the launch\u201D"));
}

TEST_F(SearchWorkTest, PastThirtyOfAKindTheBestHeldAreReadAndMoreIsSaid) {
  for (int i = 0; i < 33; ++i) Seed("task", {{"title", "Item"}, {"description", "launch"}});
  const std::string titled = Seed("task", {{"title", "Launch day"}});
  json r = Ok("hub_search_work", {{"query", "launch"}, {"limit", 50}});
  EXPECT_EQ(r["data"]["total"], 30) << r.dump();
  EXPECT_EQ(r["data"]["results"][0]["id"], titled);  // The index read it first.
  EXPECT_EQ(r["data"]["more"], true);
  EXPECT_THAT(r["summary"].get<std::string>(),
              HasSubstr("More records hold these words than a search reads"));
  json few = Ok("hub_search_work", {{"query", "day"}});
  EXPECT_FALSE(few["data"].contains("more"));
}

TEST_F(SearchWorkTest, AnyWordMatchesAllWordsRankFirstAndABodyGivesItsSnippet) {
  Seed("task", {{"title", "Plan the launch"}, {"description", "Ask Mira for the deck"}});
  const std::string body =
      std::string(300, 'x') + " the budget for\n\nMünchen travel " + std::string(300, 'y');
  Seed("page", {{"title", "Trip"}, {"body", body}});
  Seed("task", {{"title", "Mira's launch notes"}, {"status", "done"}});
  Seed("task", {{"title", "Mira's deck"}});
  // The first holds both words (one in its description), the second both in
  // its title; the third only one, so it scores half.
  json both = Ok("hub_search_work", {{"query", "launch mira"}});
  EXPECT_THAT(KindsAndTitles(both),
              ElementsAre("task:Mira's launch notes", "task:Plan the launch", "task:Mira's deck"))
      << both.dump();
  EXPECT_FALSE(both["data"]["results"][0].contains("snippet"));
  EXPECT_EQ(both["data"]["results"][1]["snippet"], "Ask Mira for the deck");
  json page = Ok("hub_search_work", {{"query", "the budget"}});
  ASSERT_EQ(page["data"]["results"].size(), 1u);
  const std::string snippet = page["data"]["results"][0]["snippet"];
  EXPECT_THAT(snippet, StartsWith("\u2026"));
  EXPECT_THAT(snippet, HasSubstr("the budget for M\u00FCnchen travel"));
  EXPECT_LE(text::CountCodePoints(snippet), kSearchSnippetChars);
  // A long body of four-byte characters is cut on the snippet's bound all
  // the same.
  std::string emoji;
  for (int i = 0; i < 400; ++i) emoji += "\U0001F389";
  Seed("page", {{"title", "Party"}, {"body", "confetti " + emoji}});
  json party = Ok("hub_search_work", {{"query", "confetti"}});
  ASSERT_EQ(party["data"]["results"].size(), 1u);
  const std::string cut = party["data"]["results"][0]["snippet"];
  EXPECT_EQ(cut, "confetti " + emoji.substr(0, 4 * (kSearchSnippetChars - 10)) + "\u2026");
  EXPECT_EQ(Ok("hub_search_work", {{"query", "nothing here"}})["summary"],
            "Nothing in this space matches \u201Cnothing here\u201D.");
  EXPECT_EQ(Run("hub_search_work", {{"query", "   "}}).status().code(), codes::kInvalidArgument);
}

TEST_F(SearchWorkTest, KindsNarrowTheSearchAndUnkeptKindsAreSaidSo) {
  Seed("task", {{"title", "Launch"}});
  Seed("page", {{"title", "Launch"}});
  Seed("project",
       {{"title", "Launch"},
        {"deliverables", {{{"id", "01JB00000000000000000000V1"}, {"title", "Launch kit"}}}}});
  EXPECT_THAT(KindsAndTitles(Ok("hub_search_work", {{"query", "launch"}, {"kinds", {"page"}}})),
              ElementsAre("page:Launch"));
  EXPECT_THAT(
      KindsAndTitles(Ok("hub_search_work", {{"query", "launch"}, {"kinds", {"deliverable"}}})),
      ElementsAre("deliverable:Launch kit"));
  json meetings = Ok("hub_search_work", {{"query", "launch"}, {"kinds", {"meeting", "file"}}});
  EXPECT_TRUE(meetings["data"]["results"].empty());
  EXPECT_EQ(meetings["data"]["notKept"], json({"meeting", "file"}));
  EXPECT_THAT(meetings["summary"].get<std::string>(),
              HasSubstr("Meetings and files are not kept in this hub yet"));
  json two = Ok("hub_search_work", {{"query", "launch"}, {"limit", 2}});
  EXPECT_EQ(two["data"]["results"].size(), 2u);
  EXPECT_EQ(two["data"]["total"], 4);
  EXPECT_THAT(two["summary"].get<std::string>(), HasSubstr("; and 2 more."));
}

TEST_F(SearchWorkTest, ATaskIsFoundByItsPagesTextAtHalfAWord) {
  const std::string page = Seed("page", {{"title", "Notes"}, {"body", "Call the venue"}});
  Seed("task", {{"title", "Book the hall"}, {"page", page}});
  Seed("task", {{"title", "Sort chairs"}, {"description", "venue has 80"}});
  json r = Ok("hub_search_work", {{"query", "venue"}, {"kinds", {"task"}}});
  // The description counts a whole word, the page's text half of one.
  EXPECT_THAT(KindsAndTitles(r), ElementsAre("task:Sort chairs", "task:Book the hall")) << r.dump();
  EXPECT_EQ(r["data"]["results"][1]["snippet"], "Call the venue");
}

TEST_F(SearchWorkTest, NearARecordItsLinksRelationsAndProjectRankHigher) {
  const std::string project = Seed("project", {{"title", "Q3"}});
  // Written D to A, so without `near` the open ones tie in that order and
  // the finished C (no half point for open work) comes last.
  const std::string d = Seed("task", {{"title", "Budget review D"}});
  const std::string c =
      Seed("task", {{"title", "Budget review C"}, {"project", project}, {"status", "done"}});
  const std::string b = Seed("task", {{"title", "Budget review B"}, {"project", project}});
  const std::string a = Seed("task", {{"title", "Budget review A"}});
  const std::string near =
      Seed("task", {{"title", "Plan the quarter"}, {"project", project}, {"depends_on", {a}}});
  auto ids = [](const json& r) {
    std::vector<std::string> out;
    for (const json& m : r["data"]["results"]) out.push_back(m["id"]);
    return out;
  };
  EXPECT_THAT(ids(Ok("hub_search_work", {{"query", "budget review"}})), ElementsAre(d, b, a, c));
  // A is linked (+3); B is open work of the project, so a relation it scores
  // and in its project (+1.5 each); C only in its project (+1.5); D nothing.
  json r = Ok("hub_search_work",
              {{"query", "budget review"}, {"near", {{"kind", "task"}, {"id", near}}}});
  EXPECT_THAT(ids(r), ElementsAre(b, a, c, d)) << r.dump();
  EXPECT_EQ(
      Run("hub_search_work",
          {{"query", "budget"}, {"near", {{"kind", "task"}, {"id", "01JB00000000000000000000X1"}}}})
          .status()
          .code(),
      codes::kNotFound);
}

TEST(ParseSearchRequest, NearIsARecordHandle) {
  Result<SearchRequest> r =
      ParseSearchRequest("budget", "", "", "ensemble://task/01JB00000000000000000000T1");
  ASSERT_TRUE(r.ok());
  ASSERT_TRUE(r->near.has_value());
  EXPECT_EQ(r->near->kind, "task");
  EXPECT_FALSE(ParseSearchRequest("budget", "", "", "").value().near.has_value());
  EXPECT_EQ(ParseSearchRequest("budget", "", "", "task/1").status().code(),
            codes::kInvalidArgument);
}

TEST_F(SearchWorkTest, AnAccountOutsideTheSpaceReadsNothing) {
  Seed("task", {{"title", "Launch"}});
  ctx_.account_id = "eve";
  EXPECT_EQ(Run("hub_search_work", {{"query", "launch"}}).status().code(), codes::kNotFound);
}

}  // namespace search_tool_runs_test
}  // namespace ensemble::core::context
