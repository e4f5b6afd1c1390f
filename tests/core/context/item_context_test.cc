// hub_item_context (core/context/item_context.h): a record and what
// surrounds it, both ways; links into Trash or another space left out; ids of
// another space not found; the kinds the hub does not keep refused readably.

#include "core/context/item_context.h"

#include <gmock/gmock.h>

#include <string>
#include <vector>

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
  EXPECT_EQ(d["record"]["title"], "Plan launch");
  EXPECT_EQ(d["record"]["status"], "doing");
  EXPECT_EQ(d["project"]["title"], "Q3");
  EXPECT_EQ(d["page"]["title"], "Brief");
  EXPECT_THAT(Titles(d["people"]), ElementsAre("Mira"));
  EXPECT_THAT(Titles(d["dependsOn"]), ElementsAre("Book venue"));
  EXPECT_THAT(Titles(d["blocks"]), ElementsAre("Send invites"));
  EXPECT_THAT(Titles(d["neededBy"]), ElementsAre("Send invites"));
  EXPECT_EQ(d["blockedBy"]["total"], 0);
  ASSERT_EQ(d["boards"]["items"].size(), 1u);
  EXPECT_EQ(d["boards"]["items"][0]["column"], "Doing");
  EXPECT_EQ(d["comments"]["open"], 1);
  EXPECT_EQ(d["comments"]["resolved"], 1);
  EXPECT_EQ(d["comments"]["latest"][0]["body"], "Venue is booked?");
  EXPECT_EQ(r["summary"],
            "\u201CPlan launch\u201D (task, doing): in project \u201CQ3\u201D; with page "
            "\u201CBrief\u201D; 1 person; 1 task it depends on; 1 task it blocks; 1 task waiting "
            "on it; 1 board showing it; 1 open comment.");
  // The other space's person linked to a task is not shown.
  EXPECT_EQ(Context("task", before_)["data"]["people"]["total"], 0);
}

TEST_F(ItemContextTest, AProjectAPageAPersonAndABoardShowTheirSurroundings) {
  json project = Context("project", project_)["data"];
  EXPECT_THAT(Titles(project["tasks"]), ElementsAre("Plan launch"));
  EXPECT_EQ(project["tasks"]["open"], 1);
  EXPECT_THAT(Titles(project["pages"]), ElementsAre("Brief"));
  EXPECT_THAT(Titles(project["deliverables"]), ElementsAre("Kit"));
  EXPECT_THAT(Titles(project["people"]), ElementsAre("Mira"));

  json page = Context("page", page_)["data"];
  EXPECT_EQ(page["project"]["title"], "Q3");
  EXPECT_THAT(Titles(page["tasks"]), ElementsAre("Plan launch"));

  json person = Context("person", mira_);
  EXPECT_EQ(person["data"]["record"]["email"], "mira@example.com");
  EXPECT_THAT(Titles(person["data"]["tasks"]), ElementsAre("Plan launch"));
  EXPECT_THAT(Titles(person["data"]["projects"]), ElementsAre("Q3"));
  EXPECT_EQ(person["summary"], "\u201CMira\u201D (person): 1 task (1 open); 1 project.");

  json board = Context("board", board_);
  EXPECT_EQ(board["data"]["columns"][0]["cards"], 1);
  EXPECT_EQ(board["data"]["columns"][1]["cards"], 1);
  EXPECT_THAT(Titles(board["data"]["tasks"]), ElementsAre("Plan launch"));
  EXPECT_THAT(board["summary"].get<std::string>(), HasSubstr("2 cards in 2 columns"));

  json deliverable = Context("deliverable", kDeliverable);
  EXPECT_EQ(deliverable["data"]["record"]["title"], "Kit");
  EXPECT_EQ(deliverable["data"]["project"]["id"], project_);
}

TEST_F(ItemContextTest, OtherSpacesTrashAndUnkeptKinds) {
  const std::string far = Seed("task", {{"title", "Far"}}, kOtherSpace);
  EXPECT_EQ(Run("hub_item_context", {{"kind", "task"}, {"id", far}}).status().code(),
            codes::kNotFound);
  // A record in Trash still has its context, marked so; links to it go.
  Mutate({{"task.delete", {{"id", before_}}}});
  EXPECT_EQ(Context("task", before_)["data"]["record"]["inTrash"], true);
  EXPECT_EQ(Context("task", task_)["data"]["dependsOn"]["total"], 0);
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
