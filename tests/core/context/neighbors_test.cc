// The context graph (core/context/neighbors.h): each relation of the spec's
// table the hub keeps, read both ways from the link index, paged, scored
// where the spec scores, and never showing Trash or another space.

#include "core/context/neighbors.h"

#include <gmock/gmock.h>

#include <string>
#include <vector>

#include "core/refs/record_handle.h"
#include "tests/core/tools/record_tool_fixture.h"

namespace ensemble::core::context {
namespace neighbors_test {

using nlohmann::json;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

class NeighborsTest : public tools::RecordToolTest {
 protected:
  void SetUp() override {
    tools::RecordToolTest::SetUp();
    ana_ = Seed("person", {{"name", "Ana"}, {"role", "Designer"}});
    bo_ = Seed("person", {{"name", "Bo"}, {"relationship", "client"}});
    project_ = Seed("project", {{"title", "Launch"}, {"people", {ana_, bo_}}});
    other_project_ = Seed("project", {{"title", "Hiring"}});
  }

  json Read(const std::string& kind, const std::string& id, const std::string& rel = "",
            std::size_t limit = kDefaultRelationItems, std::size_t offset = 0) {
    Result<json> r = ItemNeighbors(ctx_, {kind, id, rel, limit, offset});
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? *r : json();
  }

  json Rel(const std::string& kind, const std::string& id, const std::string& rel,
           std::size_t limit = kDefaultRelationItems, std::size_t offset = 0) {
    return Read(kind, id, rel, limit, offset)["relations"][rel];
  }

  static std::vector<std::string> Titles(const json& page) {
    std::vector<std::string> out;
    for (const json& item : page["items"]) out.push_back(item["title"].get<std::string>());
    return out;
  }

  std::string Task(const std::string& title, json fields = json::object()) {
    fields["title"] = title;
    return Seed("task", fields);
  }

  std::string ana_, bo_, project_, other_project_;
};

TEST_F(NeighborsTest, EveryRelationIsListedSixAtMostWithItsTotal) {
  for (int i = 0; i < 8; ++i) Task("Step " + std::to_string(i), {{"project", project_}});
  json all = Read("project", project_);
  EXPECT_EQ(all["record"]["title"], "Launch");
  std::vector<std::string> rels;
  for (const auto& [rel, _] : all["relations"].items()) rels.push_back(rel);
  EXPECT_EQ(rels.size(), RelationsOf("project").size());
  const json& open = all["relations"]["open_tasks"];
  EXPECT_EQ(open["items"].size(), kDefaultRelationItems);
  EXPECT_EQ(open["total"], 8);
  EXPECT_EQ(open["nextOffset"], kDefaultRelationItems);
}

TEST_F(NeighborsTest, OneRelationPagesToItsEnd) {
  for (int i = 0; i < 5; ++i) Task("Step " + std::to_string(i), {{"project", project_}});
  std::vector<std::string> seen;
  for (std::size_t offset = 0;;) {
    json page = Rel("project", project_, "open_tasks", 2, offset);
    EXPECT_EQ(page["total"], 5);
    for (const std::string& t : Titles(page)) seen.push_back(t);
    if (!page.contains("nextOffset")) break;
    offset = page["nextOffset"].get<std::size_t>();
  }
  // Each once; written at the same time, so in id order.
  EXPECT_THAT(seen, ElementsAre("Step 0", "Step 1", "Step 2", "Step 3", "Step 4"));
  json past = Rel("project", project_, "open_tasks", 2, 40);
  EXPECT_THAT(past["items"], IsEmpty());
  EXPECT_EQ(past["total"], 5);
}

TEST_F(NeighborsTest, DependenciesReadBothWays) {
  const std::string venue = Task("Book venue");
  const std::string invites = Task("Send invites", {{"depends_on", json::array()}});
  const std::string plan = Task("Plan", {{"depends_on", {venue}}});
  // Only the other side says so: "invites" depends on "plan".
  Mutate({{"task.update", {{"id", invites}, {"fields", {{"depends_on", {plan}}}}}}});
  EXPECT_THAT(Titles(Rel("task", plan, "depends_on")), ElementsAre("Book venue"));
  EXPECT_THAT(Titles(Rel("task", plan, "blocks")), ElementsAre("Send invites"));
  EXPECT_THAT(Titles(Rel("task", venue, "blocks")), ElementsAre("Plan"));
  // An edit moves the link: the old one is gone from both sides.
  Mutate({{"task.update", {{"id", plan}, {"fields", {{"depends_on", json::array()}}}}}});
  EXPECT_EQ(Rel("task", plan, "depends_on")["total"], 0);
  EXPECT_EQ(Rel("task", venue, "blocks")["total"], 0);
}

TEST_F(NeighborsTest, PeopleCarryTheirRoleAndRelationship) {
  const std::string t = Task("Draft", {{"people", {bo_, ana_}}});
  json people = Rel("task", t, "people");
  ASSERT_EQ(people["items"].size(), 2u);
  EXPECT_EQ(people["items"][0]["title"], "Ana");
  EXPECT_EQ(people["items"][0]["role"], "Designer");
  EXPECT_EQ(people["items"][1]["relationship"], "client");
  EXPECT_THAT(Titles(Rel("person", ana_, "projects")), ElementsAre("Launch"));
  EXPECT_THAT(Titles(Rel("person", ana_, "open_tasks")), ElementsAre("Draft"));
}

TEST_F(NeighborsTest, RelatedScoresSharedPeopleLabelsAndWords) {
  const std::string t =
      Task("Write launch email", {{"project", project_}, {"people", {ana_}}, {"labels", {"copy"}}});
  Task("Review slides", {{"people", {ana_}}});
  Task("Launch email images", {{"project", project_}});
  const std::string same_label = Task("Press kit", {{"project", project_}, {"labels", {"copy"}}});
  Task("Unrelated elsewhere", {{"project", other_project_}});
  Task("Finished", {{"project", project_}, {"status", "done"}, {"people", {ana_}}});
  json related = Rel("task", t, "related");
  // person 3; words 2 + project 1; label 2 + project 1: all 3, written at
  // the same time, so in id order.
  EXPECT_THAT(Titles(related), ElementsAre("Review slides", "Launch email images", "Press kit"));
  for (const json& item : related["items"]) EXPECT_EQ(item["score"], 3);
  EXPECT_EQ(related["total"], 3);
  // A second shared person puts that task first.
  Mutate({{"person.update", {{"id", bo_}, {"fields", {{"name", "Bo"}}}}}});
  Mutate({{"task.update", {{"id", t}, {"fields", {{"people", {ana_, bo_}}}}}}});
  Mutate({{"task.update", {{"id", same_label}, {"fields", {{"people", {bo_}}}}}}});
  EXPECT_THAT(Titles(Rel("task", t, "related")),
              ElementsAre("Press kit", "Review slides", "Launch email images"));
}

TEST_F(NeighborsTest, ATaskSharingSeveralPeopleIsOneCandidate) {
  const std::string t = Task("Plan", {{"people", {ana_, bo_}}});
  Task("Both", {{"people", {ana_, bo_}}});
  Task("Ana only", {{"people", {ana_}}});
  json related = Rel("task", t, "related");
  EXPECT_THAT(Titles(related), ElementsAre("Both", "Ana only"));
  EXPECT_EQ(related["total"], 2);
  EXPECT_EQ(related["items"][0]["score"], 2 * kRelatedPersonPoints);
}

TEST_F(NeighborsTest, DoneBeforeIsFinishedWorkOfTheProjectWithSimilarTitles) {
  const std::string t = Task("Launch email for spring", {{"project", project_}});
  Task("Launch email for winter", {{"project", project_}, {"status", "done"}});
  Task("Budget review", {{"project", project_}, {"status", "done"}});
  Task("Launch email elsewhere", {{"project", other_project_}, {"status", "done"}});
  json done = Rel("task", t, "done_before");
  EXPECT_THAT(Titles(done), ElementsAre("Launch email for winter"));
  EXPECT_EQ(done["items"][0]["score"], 2);  // "launch", "email"; "for" is a stop word.
}

TEST_F(NeighborsTest, WaitingOnIsOpenWorkLabelledSoThatNamesThem) {
  Task("Bo: send numbers", {{"people", {bo_}}, {"labels", {"waiting-on"}}});
  Task("Bo: sign off", {{"people", {bo_}}, {"labels", {"Waiting-On"}}});  // Any case.
  Task("Bo: old ask", {{"people", {bo_}}, {"labels", {"waiting-on"}}, {"status", "done"}});
  Task("Plan with Bo", {{"people", {bo_}}});
  EXPECT_THAT(Titles(Rel("person", bo_, "waiting_on")),
              ElementsAre("Bo: send numbers", "Bo: sign off"));
  EXPECT_EQ(Rel("person", bo_, "open_tasks")["total"], 3);
  EXPECT_THAT(Titles(Rel("person", bo_, "done_tasks")), ElementsAre("Bo: old ask"));
}

TEST_F(NeighborsTest, MentionsAreHandlesInTextAndReadBothWays) {
  const std::string t = Task("Plan");
  const std::string page =
      Seed("page", {{"title", "Notes"},
                    {"body", "See [Plan](" + refs::HandleOf("task", t) + ") and " +
                                 refs::HandleOf("person", ana_) + ", " + refs::HandleOf("task", t) +
                                 " again, and a stale " +
                                 refs::HandleOf("task", "01JB00000000000000000000Z9") + "."}});
  json mentions = Rel("page", page, "mentions");
  EXPECT_EQ(mentions["total"], 2);
  std::vector<std::string> kinds;
  for (const json& item : mentions["items"]) kinds.push_back(item["kind"]);
  EXPECT_THAT(kinds, ::testing::UnorderedElementsAre("task", "person"));
  json in = Rel("task", t, "mentioned_in");
  ASSERT_EQ(in["items"].size(), 1u);
  EXPECT_EQ(in["items"][0]["kind"], "page");
  EXPECT_EQ(in["items"][0]["title"], "Notes");
  // The page in Trash: it mentions nothing any more.
  Mutate({{"page.delete", {{"id", page}}}});
  EXPECT_EQ(Rel("task", t, "mentioned_in")["total"], 0);
  Mutate({{"page.restore", {{"id", page}}}});
  EXPECT_EQ(Rel("task", t, "mentioned_in")["total"], 1);
}

TEST_F(NeighborsTest, ADeliverableIsFoundThroughItsProject) {
  const std::string kit = "01JB00000000000000000000K1";
  Mutate({{"project.update",
           {{"id", project_},
            {"fields",
             {{"deliverables", {{{"id", kit}, {"title", "Kit"}, {"due", "2026-12-20"}}}}}}}}});
  const std::string t =
      Task("Ship", {{"description", "For " + refs::HandleOf("deliverable", kit)}});
  json d = Read("deliverable", kit);
  EXPECT_EQ(d["record"]["title"], "Kit");
  EXPECT_EQ(d["record"]["facts"]["due"], "2026-12-20");
  EXPECT_THAT(Titles(d["relations"]["project"]), ElementsAre("Launch"));
  EXPECT_THAT(Titles(d["relations"]["mentioned_in"]), ElementsAre("Ship"));
  json mentions = Rel("task", t, "mentions");
  ASSERT_EQ(mentions["items"].size(), 1u);
  EXPECT_EQ(mentions["items"][0]["kind"], "deliverable");
  EXPECT_EQ(mentions["items"][0]["title"], "Kit");
  // Another project listing the same deliverable id: still one mention,
  // of the first project by id.
  const std::string copy = Seed(
      "project", {{"title", "Copy"}, {"deliverables", {{{"id", kit}, {"title", "Kit copy"}}}}});
  EXPECT_THAT(Titles(Rel("task", t, "mentions")), ElementsAre("Kit"));
  // The project in Trash takes its deliverables with it: the copy is left,
  // and with it in Trash too, nothing.
  Mutate({{"project.delete", {{"id", project_}}}});
  EXPECT_EQ(Read("deliverable", kit)["record"]["title"], "Kit copy");
  Mutate({{"project.delete", {{"id", copy}}}});
  EXPECT_EQ(ItemNeighbors(ctx_, {"deliverable", kit}).status().code(), codes::kNotFound);
}

TEST_F(NeighborsTest, TrashAndOtherSpacesAreNotFoundNorShown) {
  const std::string far_person = Seed("person", {{"name", "Far"}}, kOtherSpace);
  const std::string far_task = Seed("task", {{"title", "Far"}}, kOtherSpace);
  const std::string t = Task("Near", {{"people", {ana_}}});
  // Links a person could only have typed: into another space.
  Mutate({{"task.update",
           {{"id", t}, {"fields", {{"people", {ana_, far_person}}, {"depends_on", {far_task}}}}}}});
  EXPECT_EQ(Rel("task", t, "people")["total"], 1);
  EXPECT_EQ(Rel("task", t, "depends_on")["total"], 0);
  EXPECT_EQ(ItemNeighbors(ctx_, {"task", far_task}).status().code(), codes::kNotFound);
  Mutate({{"person.delete", {{"id", ana_}}}});
  EXPECT_EQ(Rel("task", t, "people")["total"], 0);
  EXPECT_EQ(ItemNeighbors(ctx_, {"person", ana_}).status().code(), codes::kNotFound);
}

TEST_F(NeighborsTest, BadRequestsAreRefusedReadably) {
  Result<json> rel = ItemNeighbors(ctx_, {"project", project_, "blocks"});
  EXPECT_EQ(rel.status().code(), codes::kInvalidArgument);
  EXPECT_THAT(rel.status().message(), HasSubstr("its relations: open_tasks, deliverables"));
  EXPECT_EQ(ItemNeighbors(ctx_, {"project", project_, "", 6, 6}).status().code(),
            codes::kInvalidArgument);
  EXPECT_EQ(ItemNeighbors(ctx_, {"meeting", project_}).status().code(), codes::kInvalidArgument);
}

TEST(ParseNeighborsRequest, TakesAHandleOrAKindAndAnId) {
  const std::string id = "01JB00000000000000000000K1";
  Result<NeighborsRequest> r =
      ParseNeighborsRequest(" ensemble://task/" + id + " ", "", "", "people", "10", "20");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->kind, "task");
  EXPECT_EQ(r->id, id);
  EXPECT_EQ(r->rel, "people");
  EXPECT_EQ(r->limit, 10u);
  EXPECT_EQ(r->offset, 20u);
  EXPECT_TRUE(ParseNeighborsRequest("", "project", id, "", "", "").ok());
  auto refused = [&](std::string_view ref, std::string_view kind, std::string_view the_id,
                     std::string_view limit, std::string_view offset) {
    return ParseNeighborsRequest(ref, kind, the_id, "", limit, offset).status().code() ==
           codes::kInvalidArgument;
  };
  EXPECT_TRUE(refused("ensemble://task/nope", "", "", "", ""));
  EXPECT_TRUE(refused("", "task", "", "", ""));
  EXPECT_TRUE(refused("", "task", "nope", "", ""));
  EXPECT_TRUE(refused("ensemble://task/" + id, "project", "", "", ""));
  EXPECT_TRUE(refused("", "task", id, "0", ""));
  EXPECT_TRUE(refused("", "task", id, "51", ""));
  EXPECT_TRUE(refused("", "task", id, "", "-1"));
  EXPECT_TRUE(refused("", "task", id, "", "10001"));
}

}  // namespace neighbors_test
}  // namespace ensemble::core::context
