// The page tools' hooks (core/pages/page_tool_runs.h): list, read
// (blocks and revision), create, update (append, rewrite, block edits) with
// the revision rule, delete; their Undo; ids of another space refused.

#include "core/pages/page_tool_runs.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/pages/page.h"
#include "tests/core/tools/record_tool_fixture.h"

namespace ensemble::core::pages {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::StartsWith;

class PageToolRunsTest : public tools::RecordToolTest {
 protected:
  json Page(const std::string& id) { return Row(pages::kPageKind, id); }
};

TEST_F(PageToolRunsTest, EveryPageToolHasItsHooks) {
  for (const char* name : {"hub_list_pages", "hub_read_page", "hub_create_page", "hub_update_page",
                           "hub_delete_pages"}) {
    EXPECT_TRUE(Tool(name).run) << name;
  }
  for (const char* name : {"hub_create_page", "hub_update_page", "hub_delete_pages"}) {
    EXPECT_TRUE(Tool(name).preview) << name;
  }
}

TEST_F(PageToolRunsTest, CreateInAProjectAndUndoDeletesIt) {
  const std::string project = Seed("project", {{"title", "Launch"}});
  json r = Ok("hub_create_page",
              {{"title", "Plan"}, {"body", "# Plan\n\nStep one"}, {"projectId", project}});
  EXPECT_EQ(r["summary"], "Added page \u201CPlan\u201D.");
  const std::string id = r["data"]["page"]["id"];
  EXPECT_EQ(Page(id)["project"], project);
  EXPECT_EQ(Page(id)["revision"], 1);
  ASSERT_TRUE(ApplyUndo(r).ok());
  EXPECT_EQ(Page(id)["deleted"], 1);
}

TEST_F(PageToolRunsTest, ListAndReadGiveBlocksAndRevision) {
  const std::string id =
      Seed("page", {{"title", "Plan"}, {"body", "# Plan\n\nStep one\n\nStep two"}});
  Seed("page", {{"title", "Other"}, {"body", "nothing"}});
  Seed("page", {{"title", "Plan elsewhere"}}, kOtherSpace);
  json list = Ok("hub_list_pages", {{"query", "step"}});
  ASSERT_EQ(list["data"]["pages"].size(), 1u);
  EXPECT_EQ(list["data"]["pages"][0]["id"], id);
  json read = Ok("hub_read_page", {{"id", id}});
  EXPECT_EQ(read["summary"], "Read \u201CPlan\u201D (revision 1, 3 blocks).");
  const json& blocks = read["data"]["page"]["blocks"];
  ASSERT_EQ(blocks.size(), 3u);
  EXPECT_EQ(blocks[1]["markdown"], "Step one");
  EXPECT_EQ(read["data"]["page"]["revision"], 1);
}

TEST_F(PageToolRunsTest, AppendRewriteAndBlockEditsEachBumpTheRevision) {
  const std::string id = Seed("page", {{"title", "Plan"}, {"body", "A\n\nB\n\nC"}});
  json r = Ok("hub_update_page", {{"id", id}, {"revision", 1}, {"mode", "append"}, {"body", "D"}});
  EXPECT_EQ(r["summary"], "Appended to \u201CPlan\u201D.");
  EXPECT_EQ(Page(id)["body"], "A\n\nB\n\nC\n\nD");
  EXPECT_EQ(Page(id)["revision"], 2);

  json blocks = Ok("hub_read_page", {{"id", id}})["data"]["page"]["blocks"];
  r = Ok("hub_update_page",
         {{"id", id},
          {"revision", 2},
          {"mode", "blocks"},
          {"blocks",
           {{{"blockId", blocks[0]["id"]}, {"action", "replace"}, {"markdown", "A2"}},
            {{"blockId", blocks[1]["id"]}, {"action", "delete"}},
            {{"blockId", blocks[2]["id"]}, {"action", "insertAfter"}, {"markdown", "C2"}}}}});
  EXPECT_EQ(r["summary"], "Edited 3 blocks of \u201CPlan\u201D.");
  EXPECT_EQ(Page(id)["body"], "A2\n\nC\n\nC2\n\nD");
  EXPECT_EQ(Page(id)["revision"], 3);

  r = Ok(
      "hub_update_page",
      {{"id", id}, {"revision", 3}, {"mode", "rewrite"}, {"body", "Fresh"}, {"title", "New plan"}});
  EXPECT_EQ(r["summary"], "Rewrote \u201CPlan\u201D and renamed it to \u201CNew plan\u201D.");
  EXPECT_EQ(Page(id)["body"], "Fresh");
  EXPECT_EQ(Page(id)["title"], "New plan");
  ASSERT_TRUE(ApplyUndo(r).ok());
  EXPECT_EQ(Page(id)["body"], "A2\n\nC\n\nC2\n\nD");
  EXPECT_EQ(Page(id)["title"], "Plan");
}

TEST_F(PageToolRunsTest, AMoveGoesUnderAnotherPageOrIntoAProjectAndUndoMovesItBack) {
  const std::string plans = Seed("page", {{"title", "Plans"}});
  const std::string brief = Seed("page", {{"title", "Brief"}, {"parent", plans}});
  const std::string notes = Seed("page", {{"title", "Notes"}});
  const std::string project = Seed("project", {{"title", "Q3"}});
  auto rev = [&](const std::string& id) { return Page(id)["revision"].get<int64_t>(); };

  json r = Ok("hub_update_page", {{"id", notes},
                                  {"revision", rev(notes)},
                                  {"mode", "move"},
                                  {"parentId", brief},
                                  {"projectId", project}});
  EXPECT_EQ(r["summary"],
            "Moved \u201CNotes\u201D under \u201CBrief\u201D; into project "
            "\u201CQ3\u201D.");
  EXPECT_EQ(Page(notes)["parent"], brief);
  EXPECT_EQ(Page(notes)["project"], project);
  ASSERT_TRUE(ApplyUndo(r).ok());
  EXPECT_TRUE(Page(notes)["parent"].is_null());
  EXPECT_TRUE(Page(notes)["project"].is_null());

  // Under itself or its own subpage would be a loop.
  const int before = writes_;
  for (const std::string& loop : {plans, brief}) {
    Result<json> refused =
        Run("hub_update_page",
            {{"id", plans}, {"revision", rev(plans)}, {"mode", "move"}, {"parentId", loop}});
    EXPECT_EQ(refused.status().code(), codes::kInvalidArgument) << loop;
  }
  // Another space's page is not found; a move needs somewhere to go.
  const std::string far = Seed("page", {{"title", "Far"}}, kOtherSpace);
  EXPECT_EQ(Run("hub_update_page",
                {{"id", notes}, {"revision", rev(notes)}, {"mode", "move"}, {"parentId", far}})
                .status()
                .code(),
            codes::kNotFound);
  EXPECT_EQ(Run("hub_update_page", {{"id", notes}, {"revision", rev(notes)}, {"mode", "move"}})
                .status()
                .code(),
            codes::kInvalidArgument);
  EXPECT_EQ(writes_, before);

  // To the top level, renamed in the same call.
  r = Ok("hub_update_page", {{"id", brief},
                             {"revision", rev(brief)},
                             {"mode", "move"},
                             {"parentId", nullptr},
                             {"title", "Brief v2"}});
  EXPECT_EQ(r["summary"],
            "Moved \u201CBrief\u201D to the top level and renamed it to "
            "\u201CBrief v2\u201D.");
  EXPECT_TRUE(Page(brief)["parent"].is_null());
}

TEST_F(PageToolRunsTest, StaleRevisionFailsReadablyAndWritesNothing) {
  const std::string id = Seed("page", {{"title", "Plan"}, {"body", "A"}});
  Ok("hub_update_page", {{"id", id}, {"revision", 1}, {"mode", "append"}, {"body", "B"}});
  const int before = writes_;
  for (const bool preview : {true, false}) {
    const json input = {{"id", id}, {"revision", 1}, {"mode", "rewrite"}, {"body", "old"}};
    Status st = preview ? Preview("hub_update_page", input).status()
                        : Run("hub_update_page", input).status();
    EXPECT_EQ(st.code(), codes::kVersionConflict);
    EXPECT_THAT(st.message(), StartsWith("This page changed since you opened it"));
    EXPECT_THAT(st.message(), HasSubstr("you read revision 1; it is now 2"));
  }
  EXPECT_EQ(writes_, before);
  EXPECT_EQ(Page(id)["body"], "A\n\nB");
}

TEST_F(PageToolRunsTest, ABlockIdOfNoBlockIsRefused) {
  const std::string id = Seed("page", {{"title", "Plan"}, {"body", "A"}});
  auto r = Run("hub_update_page", {{"id", id},
                                   {"revision", 1},
                                   {"mode", "blocks"},
                                   {"blocks", {{{"blockId", id}, {"action", "delete"}}}}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), codes::kInvalidArgument);
  EXPECT_THAT(r.status().message(), HasSubstr("read the page again"));
  EXPECT_EQ(Page(id)["body"], "A");
  EXPECT_EQ(writes_, 0);
}

TEST_F(PageToolRunsTest, IdsOfAnotherSpaceAreNotFoundAndNothingIsWritten) {
  const std::string theirs = Seed("page", {{"title", "Theirs"}}, kOtherSpace);
  const std::string their_project = Seed("project", {{"title", "P"}}, kOtherSpace);
  for (auto [tool, input] : std::vector<std::pair<std::string, json>>{
           {"hub_read_page", {{"id", theirs}}},
           {"hub_update_page",
            {{"id", theirs}, {"revision", 1}, {"mode", "append"}, {"body", "x"}}},
           {"hub_delete_pages", {{"ids", {theirs}}}},
           {"hub_create_page", {{"title", "x"}, {"parentId", theirs}}},
           {"hub_create_page", {{"title", "x"}, {"projectId", their_project}}},
           {"hub_list_pages", {{"projectId", their_project}}}}) {
    auto r = Run(tool, input);
    ASSERT_FALSE(r.ok()) << tool;
    EXPECT_EQ(r.status().code(), codes::kNotFound) << tool;
  }
  EXPECT_EQ(writes_, 0);
}

TEST_F(PageToolRunsTest, DeleteAndUndoRestores) {
  const std::string id = Seed("page", {{"title", "Plan"}});
  json r = Ok("hub_delete_pages", {{"ids", {id}}});
  EXPECT_EQ(r["summary"], "Moved 1 page to Trash: \u201CPlan\u201D.");
  EXPECT_EQ(Page(id)["deleted"], 1);
  ASSERT_TRUE(ApplyUndo(r).ok());
  EXPECT_EQ(Page(id)["deleted"], 0);
}

}  // namespace
}  // namespace ensemble::core::pages
