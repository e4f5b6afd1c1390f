// The project tools' hooks (core/projects/project_tool_runs.h): list,
// create, update (deliverables as a complete list, people resolved in the
// space), delete; their previews and Undo; ids of another space refused with
// nothing written; a stale base as a readable conflict.

#include "core/projects/project_tool_runs.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/projects/project.h"
#include "tests/core/tools/record_tool_fixture.h"

namespace ensemble::core::projects {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::Not;

class ProjectToolRunsTest : public tools::RecordToolTest {
 protected:
  json Project(const std::string& id) { return Row(projects::kProjectKind, id); }
};

TEST_F(ProjectToolRunsTest, EveryProjectToolHasItsHooks) {
  for (const char* name :
       {"hub_list_projects", "hub_create_project", "hub_update_project", "hub_delete_projects"}) {
    EXPECT_TRUE(Tool(name).run) << name;
  }
  for (const char* name : {"hub_create_project", "hub_update_project", "hub_delete_projects"}) {
    EXPECT_TRUE(Tool(name).preview) << name;
  }
  EXPECT_TRUE(Tool("hub_delete_projects").prepare);
}

TEST_F(ProjectToolRunsTest, CreateKeepsEveryFieldAndUndoDeletesIt) {
  const std::string mira = Seed("person", {{"name", "Mira"}});
  const json input = {{"title", " Launch "},
                      {"description", "Ship v1"},
                      {"due", "2026-12-15"},
                      {"personIds", {mira}},
                      {"deliverables", {{{"title", "Beta"}}, {{"title", "Docs"}, {"done", true}}}}};
  auto preview = Preview("hub_create_project", input);
  ASSERT_TRUE(preview.ok()) << preview.status().ToString();
  EXPECT_THAT(*preview, HasSubstr("Add project \u201CLaunch\u201D"));
  EXPECT_THAT(*preview, HasSubstr("2 deliverables (1 done)"));

  json r = Ok("hub_create_project", input);
  EXPECT_EQ(r["summary"], "Added project \u201CLaunch\u201D.");
  const std::string id = r["data"]["project"]["id"];
  EXPECT_THAT(r["summary"].get<std::string>(), Not(HasSubstr(id)));
  json row = Project(id);
  EXPECT_EQ(row["space_id"], kSpace);
  EXPECT_EQ(row["title"], "Launch");
  EXPECT_EQ(row["due"], "2026-12-15");
  EXPECT_EQ(row["people"], json::array({mira}));
  ASSERT_EQ(row["deliverables"].size(), 2u);
  EXPECT_TRUE(IsValidId(row["deliverables"][0]["id"].get<std::string>()));
  EXPECT_NE(row["deliverables"][0]["id"], row["deliverables"][1]["id"]);
  EXPECT_EQ(row["deliverables"][0]["done"], false);
  EXPECT_EQ(row["deliverables"][1]["done"], true);

  ASSERT_TRUE(ApplyUndo(r).ok());
  EXPECT_EQ(Project(id)["deleted"], 1);
}

TEST_F(ProjectToolRunsTest, ListFindsByWordsAndHidesArchived) {
  Seed("project", {{"title", "Website launch"}});
  Seed("project", {{"title", "Hiring"}, {"description", "launch the team"}});
  Seed("project", {{"title", "Old launch"}, {"status", "archived"}});
  Seed("project", {{"title", "Launch elsewhere"}}, kOtherSpace);
  json r = Ok("hub_list_projects", {{"query", "LAUNCH"}});
  EXPECT_EQ(r["data"]["total"], 2);
  EXPECT_EQ(r["data"]["projects"][0]["title"], "Website launch");
  EXPECT_EQ(r["data"]["projects"][1]["title"], "Hiring");
  json archived = Ok("hub_list_projects", {{"status", "archived"}});
  ASSERT_EQ(archived["data"]["projects"].size(), 1u);
  EXPECT_EQ(archived["data"]["projects"][0]["title"], "Old launch");
  EXPECT_EQ(Ok("hub_list_projects", {{"query", "nothing"}})["summary"],
            "No projects match \u201Cnothing\u201D.");
}

TEST_F(ProjectToolRunsTest, UpdateCompletesADeliverableAndUndoPutsItBack) {
  const std::string id = Seed("project", {{"title", "Launch"}});
  json made =
      Ok("hub_update_project", {{"id", id}, {"fields", {{"deliverables", {{{"title", "Beta"}}}}}}});
  json list = Project(id)["deliverables"];
  ASSERT_EQ(list.size(), 1u);
  json done = list;
  done[0]["done"] = true;
  json r = Ok("hub_update_project", {{"id", id},
                                     {"fields", {{"deliverables", done}, {"status", "done"}}},
                                     {"base", {{"deliverables", list}}}});
  EXPECT_EQ(r["summary"], "Updated \u201CLaunch\u201D: 1 deliverable (1 done), status to done.");
  EXPECT_EQ(Project(id)["deliverables"], done);
  EXPECT_EQ(Project(id)["deliverables"][0]["id"], list[0]["id"]);
  ASSERT_TRUE(ApplyUndo(r).ok());
  EXPECT_EQ(Project(id)["deliverables"], list);
  EXPECT_EQ(Project(id)["status"], "active");
}

TEST_F(ProjectToolRunsTest, StaleBaseIsAReadableConflictAndWritesNothing) {
  const std::string id = Seed("project", {{"title", "Launch"}, {"status", "done"}});
  auto r =
      Run("hub_update_project",
          {{"id", id}, {"fields", {{"status", "archived"}}}, {"base", {{"status", "active"}}}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), codes::kSaveConflict);
  EXPECT_THAT(r.status().message(), HasSubstr("\u201CLaunch\u201D was changed elsewhere"));
  EXPECT_THAT(r.status().message(), HasSubstr("status is now \u201Cdone\u201D"));
  EXPECT_EQ(Project(id)["status"], "done");
}

TEST_F(ProjectToolRunsTest, AHeldEditIsBasedOnWhatItsPreviewShowed) {
  const std::string id = Seed("project", {{"title", "Launch"}});
  const std::string mira = Seed("person", {{"name", "Mira"}});
  json held;
  ASSERT_TRUE(Preview("hub_update_project",
                      {{"id", id}, {"fields", {{"status", "done"}, {"personIds", {mira}}}}}, &held)
                  .ok());
  EXPECT_EQ(held["base"], json({{"status", "active"}, {"personIds", json::array()}}));
  Ok("hub_update_project", {{"id", id}, {"fields", {{"status", "archived"}}}});
  Result<json> stale = Run("hub_update_project", held);
  EXPECT_EQ(stale.status().code(), codes::kSaveConflict);
  EXPECT_EQ(Project(id)["status"], "archived");
  EXPECT_TRUE(Project(id)["people"].empty());
  // Nothing changed since the preview: it applies.
  ASSERT_TRUE(
      Preview("hub_update_project", {{"id", id}, {"fields", {{"personIds", {mira}}}}}, &held).ok());
  Ok("hub_update_project", held);
  EXPECT_EQ(Project(id)["people"], json({mira}));
}

TEST_F(ProjectToolRunsTest, IdsOfAnotherSpaceAreNotFoundAndNothingIsWritten) {
  const std::string theirs = Seed("project", {{"title", "Theirs"}}, kOtherSpace);
  const std::string their_person = Seed("person", {{"name", "Bo"}}, kOtherSpace);
  const std::string mine = Seed("project", {{"title", "Mine"}});
  for (auto [tool, input] : std::vector<std::pair<std::string, json>>{
           {"hub_update_project", {{"id", theirs}, {"fields", {{"status", "done"}}}}},
           {"hub_delete_projects", {{"ids", {mine, theirs}}}},
           {"hub_update_project", {{"id", mine}, {"fields", {{"personIds", {their_person}}}}}},
           {"hub_create_project", {{"title", "New"}, {"personIds", {their_person}}}}}) {
    auto r = Run(tool, input);
    ASSERT_FALSE(r.ok()) << tool;
    EXPECT_EQ(r.status().code(), codes::kNotFound) << tool;
    EXPECT_THAT(r.status().message(), HasSubstr("no ")) << tool;
  }
  EXPECT_EQ(writes_, 0);
  EXPECT_EQ(Project(theirs)["status"], "active");
  EXPECT_EQ(Project(mine)["deleted"], 0);
}

TEST_F(ProjectToolRunsTest, DeletePreparesTheIdsAndUndoRestores) {
  const std::string a = Seed("project", {{"title", "Alpha"}});
  const std::string b = Seed("project", {{"title", "Beta"}});
  json prepared;
  auto preview = Preview("hub_delete_projects", {{"ids", {a, b, a}}}, &prepared);
  ASSERT_TRUE(preview.ok()) << preview.status().ToString();
  EXPECT_EQ(*preview, "Move 2 projects to Trash: \u201CAlpha\u201D and \u201CBeta\u201D.");
  EXPECT_EQ(prepared["ids"], json::array({a, b}));
  json r = Ok("hub_delete_projects", {{"ids", {a, b}}});
  EXPECT_EQ(Project(a)["deleted"], 1);
  EXPECT_EQ(Project(b)["deleted"], 1);
  ASSERT_TRUE(ApplyUndo(r).ok());
  EXPECT_EQ(Project(a)["deleted"], 0);
  EXPECT_EQ(Project(b)["deleted"], 0);
}

TEST_F(ProjectToolRunsTest, AnEditOfAProjectInTrashIsReportedNotLost) {
  const std::string a = Seed("project", {{"title", "Alpha"}});
  Ok("hub_delete_projects", {{"ids", {a}}});
  auto r = Run("hub_update_project", {{"id", a}, {"fields", {{"status", "done"}}}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), codes::kRecordDeleted);
  EXPECT_THAT(r.status().message(), HasSubstr("\u201CAlpha\u201D is in Trash"));
  EXPECT_EQ(Project(a)["status"], "active");
}

TEST_F(ProjectToolRunsTest, DeleteTasksIsRefusedByName) {
  const std::string a = Seed("project", {{"title", "Alpha"}});
  auto r = Run("hub_delete_projects", {{"ids", {a}}, {"deleteTasks", true}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), codes::kInvalidArgument);
  EXPECT_THAT(r.status().message(), HasSubstr("deleteTasks"));
  EXPECT_EQ(Project(a)["deleted"], 0);
}

}  // namespace
}  // namespace ensemble::core::projects
