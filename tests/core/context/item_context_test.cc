// hub_item_context (core/context/item_context.h): a record and what
// surrounds it, both ways; links into Trash or another space left out; ids of
// another space not found; the kinds the hub does not keep refused readably.

#include "core/context/item_context.h"

#include <gmock/gmock.h>

#include <string>
#include <vector>

#include "core/context/neighbors.h"
#include "tests/core/tools/record_tool_fixture.h"

namespace ensemble::core::context {
namespace item_context_test {

using nlohmann::json;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kDeliverable[] = "01JB00000000000000000000V1";

class ItemContextTest : public tools::RecordToolTest {
 protected:
  void SetUp() override {
    tools::RecordToolTest::SetUp();
    mira_ = Seed("person", {{"name", "Mira"}, {"email", "mira@example.com"}});
    const std::string theirs = Seed("person", {{"name", "Far"}}, kOtherSpace);
    project_ = Seed("project", {{"title", "Q3"},
                                {"people", {mira_}},
                                {"deliverables", {{{"id", kDeliverable}, {"title", "Kit"}}}}});
    page_ = Seed("page", {{"title", "Brief"}, {"project", project_}});
    before_ = Seed("task", {{"title", "Book venue"}, {"status", "done"}});
    after_ = Seed("task", {{"title", "Send invites"}});
    task_ = Seed("task", {{"title", "Plan launch"},
                          {"status", "doing"},
                          {"project", project_},
                          {"page", page_},
                          {"people", {mira_}},
                          {"depends_on", {before_}},
                          {"blocks", {after_}}});
    Mutate({{"task.update", {{"id", after_}, {"fields", {{"depends_on", {task_}}}}}}});
    // A link someone could only have typed: a person of another space.
    Mutate({{"task.update", {{"id", before_}, {"fields", {{"people", {theirs}}}}}}});
    board_ = Seed(
        "board", {{"title", "Sprint"},
                  {"columns",
                   {{{"id", "todo"}, {"title", "To do"}}, {{"id", "doing"}, {"title", "Doing"}}}}});
    Seed("card", {{"board", board_}, {"column", "doing"}, {"task", task_}, {"position", 1}});
    Seed("card", {{"board", board_}, {"column", "todo"}, {"note", "Ask legal"}, {"position", 2}});
    Seed("comment", {{"target_kind", "task"}, {"target", task_}, {"body", "Venue is booked?"}});
    const std::string done =
        Seed("comment", {{"target_kind", "task"}, {"target", task_}, {"body", "Old question"}});
    Mutate({{"comment.update", {{"id", done}, {"fields", {{"resolved", 1}}}}}});
  }

  json Context(const std::string& kind, const std::string& id) {
    return Ok("hub_item_context", {{"kind", kind}, {"id", id}});
  }

  // Every relation of the record, each read through the tool's rel.
  json Relations(const std::string& kind, const std::string& id) {
    json out = json::object();
    for (std::string_view rel : RelationsOf(kind)) {
      json page = Ok("hub_item_context", {{"kind", kind}, {"id", id}, {"rel", rel}});
      out[std::string(rel)] = page["data"]["relations"][std::string(rel)];
    }
    return out;
  }

  static std::vector<std::string> Titles(const json& list) {
    std::vector<std::string> out;
    for (const json& item : list["items"]) out.push_back(item["title"].get<std::string>());
    return out;
  }

  std::string mira_, project_, page_, before_, after_, task_, board_;
};

TEST_F(ItemContextTest, ATaskShowsWhatItLinksAndWhatLinksToIt) {
  json r = Context("task", task_);
  const json& d = r["data"];
  const json rel = Relations("task", task_);
  EXPECT_EQ(d["record"]["title"], "Plan launch");
  EXPECT_EQ(d["record"]["facts"]["status"], "doing");
  EXPECT_THAT(Titles(rel["project"]), ElementsAre("Q3"));
  EXPECT_THAT(Titles(rel["page"]), ElementsAre("Brief"));
  EXPECT_THAT(Titles(rel["people"]), ElementsAre("Mira"));
  EXPECT_THAT(Titles(rel["depends_on"]), ElementsAre("Book venue"));
  // It blocks "Send invites" by its own list and by theirs: once.
  EXPECT_THAT(Titles(rel["blocks"]), ElementsAre("Send invites"));
  ASSERT_EQ(rel["boards"]["items"].size(), 1u);
  EXPECT_EQ(rel["boards"]["items"][0]["column"], "Doing");
  EXPECT_EQ(rel["comments"]["open"], 1);
  EXPECT_EQ(rel["comments"]["total"], 2);
  EXPECT_EQ(rel["comments"]["items"][0]["body"], "Venue is booked?");
  EXPECT_EQ(r["summary"],
            "\u201CPlan launch\u201D (task, doing): in project \u201CQ3\u201D; with page "
            "\u201CBrief\u201D; 1 person; 1 task it depends on; 1 task it blocks; 1 board showing "
            "it; 1 open "
            "comment.");
  // The other space's person linked to a task is not shown.
  EXPECT_EQ(Relations("task", before_)["people"]["total"], 0);
}

TEST_F(ItemContextTest, AProjectAPageAPersonAndABoardShowTheirSurroundings) {
  json project = Relations("project", project_);
  EXPECT_THAT(Titles(project["open_tasks"]), ElementsAre("Plan launch"));
  EXPECT_EQ(project["done_tasks"]["total"], 0);
  EXPECT_THAT(Titles(project["pages"]), ElementsAre("Brief"));
  EXPECT_THAT(Titles(project["deliverables"]), ElementsAre("Kit"));
  EXPECT_THAT(Titles(project["people"]), ElementsAre("Mira"));

  json page = Relations("page", page_);
  EXPECT_THAT(Titles(page["project"]), ElementsAre("Q3"));
  EXPECT_THAT(Titles(page["tasks"]), ElementsAre("Plan launch"));

  json person = Context("person", mira_);
  EXPECT_EQ(person["data"]["record"]["facts"]["email"], "mira@example.com");
  EXPECT_THAT(Titles(Relations("person", mira_)["open_tasks"]), ElementsAre("Plan launch"));
  EXPECT_THAT(Titles(Relations("person", mira_)["projects"]), ElementsAre("Q3"));
  EXPECT_EQ(person["summary"], "\u201CMira\u201D (person): 1 project; 1 open task.");

  json board = Context("board", board_);
  EXPECT_EQ(board["data"]["record"]["facts"]["columns"][0]["cards"], 1);
  EXPECT_EQ(board["data"]["record"]["facts"]["columns"][1]["cards"], 1);
  EXPECT_THAT(Titles(Relations("board", board_)["tasks"]), ElementsAre("Plan launch"));

  json deliverable = Context("deliverable", kDeliverable);
  EXPECT_EQ(deliverable["data"]["record"]["title"], "Kit");
  EXPECT_EQ(Relations("deliverable", kDeliverable)["project"]["items"][0]["id"], project_);
}

TEST_F(ItemContextTest, OneRelationPagesAndABadRelIsNamed) {
  json page = Ok("hub_item_context",
                 {{"kind", "project"}, {"id", project_}, {"rel", "people"}, {"limit", 1}});
  EXPECT_EQ(page["data"]["relations"].size(), 1u);
  EXPECT_THAT(Titles(page["data"]["relations"]["people"]), ElementsAre("Mira"));
  Result<json> bad =
      Run("hub_item_context", {{"kind", "person"}, {"id", mira_}, {"rel", "depends_on"}});
  EXPECT_EQ(bad.status().code(), codes::kInvalidArgument);
  EXPECT_THAT(bad.status().message(), HasSubstr("a person has no relation 'depends_on'"));
}

TEST_F(ItemContextTest, OtherSpacesTrashAndUnkeptKinds) {
  const std::string far = Seed("task", {{"title", "Far"}}, kOtherSpace);
  EXPECT_EQ(Run("hub_item_context", {{"kind", "task"}, {"id", far}}).status().code(),
            codes::kNotFound);
  // A record in Trash is not found (spec 004 §5); links to it go.
  Mutate({{"task.delete", {{"id", before_}}}});
  EXPECT_EQ(Run("hub_item_context", {{"kind", "task"}, {"id", before_}}).status().code(),
            codes::kNotFound);
  EXPECT_EQ(Relations("task", task_)["depends_on"]["total"], 0);
  Result<json> meeting =
      Run("hub_item_context", {{"kind", "meeting"}, {"id", "01JB0000000000000000000M01"}});
  EXPECT_EQ(meeting.status().code(), codes::kInvalidArgument);
  EXPECT_THAT(meeting.status().message(), HasSubstr("Meetings are not kept in this hub yet"));
  EXPECT_EQ(Run("hub_item_context", {{"kind", "deliverable"}, {"id", "01JB0000000000000000000V9"}})
                .status()
                .code(),
            codes::kNotFound);
}

}  // namespace item_context_test
}  // namespace ensemble::core::context
