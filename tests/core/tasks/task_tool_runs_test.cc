// The task tools' hooks (core/tasks/task_tool_runs.h) over an in-memory
// SQLite store migrated as the hub's: create, list, update, delete and their
// Undo entries; the query filter and paging; ids of another space refused
// with nothing written; SAVE_CONFLICT as a readable tool error; prepare
// fixing the ids a filter means; and the local planner driven end to end
// with the real hooks.

#include "core/tasks/task_tool_runs.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/assistant/hub_tools.h"
#include "core/assistant/local_planner.h"
#include "core/base/id.h"
#include "core/hub/hub.h"
#include "core/hub/hub_tools.h"
#include "core/store/sqlite_database.h"
#include "core/sync/authorization.h"
#include "core/tasks/task.h"
#include "core/tasks/task_tool_rows.h"
#include "core/tools/tool_context.h"
#include "core/tools/validate.h"
#include "tests/core/tools/tool_run_fixture.h"
#include "tests/fakes/fake_env.h"

namespace ensemble::core::tasks {
namespace {

using assistant::kMaxLocalPlannerSteps;
using assistant::LocalCall;
using assistant::LocalCallRecord;
using assistant::LocalPlanInput;
using assistant::LocalPlanStep;
using assistant::PlanLocalStep;
using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::Not;

class TaskToolRunsTest : public tools::ToolRunTest {
 protected:
  void SetUp() override {
    tools::ToolRunTest::SetUp();
    ctx_.time_zone = "Europe/Berlin";
  }

  // A task written straight through the mutators (in any space).
  std::string Seed(const std::string& title, const std::string& space = kSpace,
                   const std::string& status = "todo", json due = nullptr) {
    const std::string id = NewId(clock_, random_);
    clock_.Advance(1);
    json args = {{"id", id}, {"spaceId", space}, {"title", title}, {"status", status}};
    if (!due.is_null()) args["due"] = due;
    EXPECT_TRUE(hub::DirectMutationSink(*db_, kNow)({{"task.create", args}}).ok());
    return id;
  }

  // A record of another kind (project, person, page) written straight
  // through its mutator.
  std::string SeedOther(const std::string& kind, json fields, const std::string& space = kSpace) {
    const std::string id = NewId(clock_, random_);
    clock_.Advance(1);
    fields["id"] = id;
    fields["spaceId"] = space;
    Status st = hub::DirectMutationSink(*db_, kNow)({{kind + ".create", fields}});
    EXPECT_TRUE(st.ok()) << st.ToString();
    return id;
  }

  std::string Invalid(const std::string& name, json input) {
    return Run(name, input).status().code();
  }

  tasks::Task Get(const std::string& id) { return **tasks::GetTask(*db_, id); }

  std::vector<std::string> Titles(const json& result) {
    std::vector<std::string> titles;
    for (const json& t : result.at("data").at("tasks")) titles.push_back(t.at("title"));
    return titles;
  }

  testing::FakeClock clock_{kNow};
};

TEST_F(TaskToolRunsTest, EveryTaskToolHasItsHooks) {
  for (const char* name : {"hub_list_tasks", "hub_list_due", "hub_create_tasks", "hub_update_task",
                           "hub_delete_tasks"}) {
    EXPECT_TRUE(Tool(name).run) << name;
  }
  for (const char* name : {"hub_create_tasks", "hub_update_task", "hub_delete_tasks"}) {
    EXPECT_TRUE(Tool(name).preview) << name;
  }
  EXPECT_TRUE(Tool("hub_delete_tasks").prepare);
}

TEST_F(TaskToolRunsTest, CreateWritesOneTaskPerEntryAndUndoDeletesThem) {
  json r = Ok("hub_create_tasks",
              {{"tasks",
                {{{"title", "  Draft brief "}}, {{"title", "Call Mira"}, {"due", "2026-12-01"}}}}});
  EXPECT_EQ(r["summary"], "Added 2 tasks: \u201CDraft brief\u201D and \u201CCall Mira\u201D.");
  const json& made = r["data"]["tasks"];
  ASSERT_EQ(made.size(), 2u);
  const std::string a = made[0]["id"], b = made[1]["id"];
  EXPECT_TRUE(IsValidId(a));
  EXPECT_LT(a, b);  // Listed in the order given.
  EXPECT_EQ(made[0], json({{"id", a},
                           {"title", "Draft brief"},
                           {"status", "todo"},
                           {"due", nullptr},
                           {"priority", "none"},
                           {"description", ""},
                           {"projectId", nullptr},
                           {"personIds", json::array()},
                           {"labels", json::array()},
                           {"dependsOn", json::array()},
                           {"blocks", json::array()},
                           {"pageId", nullptr},
                           {"version", 1}}));
  EXPECT_EQ(Get(a).title, "Draft brief");
  EXPECT_EQ(Get(a).space_id, kSpace);
  EXPECT_EQ(Get(a).created_at, kNow);
  EXPECT_EQ(Get(b).due, "2026-12-01");
  EXPECT_EQ(r["undo"], json::parse(R"([{"name":"task.delete","args":{"id":")" + a +
                                   R"("}},{"name":"task.delete","args":{"id":")" + b + R"("}}])"));
  EXPECT_EQ(r["summary"].get<std::string>().find(a), std::string::npos);

  ASSERT_TRUE(ApplyUndo(r).ok());
  EXPECT_TRUE(Get(a).deleted);
  EXPECT_TRUE(Get(b).deleted);
  EXPECT_EQ(Ok("hub_list_tasks", json::object())["data"]["total"], 0);
}

TEST_F(TaskToolRunsTest, CreateUpdateDeleteRoundTripWithUndo) {
  json made = Ok("hub_create_tasks", {{"tasks", {{{"title", "Call Mira"}}}}});
  const std::string id = made["data"]["tasks"][0]["id"];

  json list = Ok("hub_list_tasks", json::object());
  EXPECT_EQ(list["summary"], "Found 1 task: \u201CCall Mira\u201D.");
  EXPECT_EQ(list["data"]["tasks"][0]["id"], id);

  json update = Ok("hub_update_task", {{"id", id},
                                       {"fields", {{"status", "done"}, {"due", "2026-12-03"}}},
                                       {"base", {{"status", "todo"}, {"title", "Call Mira"}}}});
  EXPECT_EQ(update["summary"], "Updated \u201CCall Mira\u201D: due to 3 Dec, status to done.");
  EXPECT_EQ(update["data"]["task"]["status"], "done");
  EXPECT_EQ(update["data"]["task"]["due"], "2026-12-03");
  EXPECT_EQ(update["data"]["task"]["title"], "Call Mira");
  EXPECT_EQ(update["data"]["task"]["version"], 2);
  EXPECT_EQ(Get(id).status, "done");
  EXPECT_EQ(Get(id).version, 2);
  EXPECT_EQ(update["undo"][0]["name"], "task.update");
  EXPECT_EQ(update["undo"][0]["args"],
            json({{"id", id},
                  {"fields", {{"status", "todo"}, {"due", nullptr}}},
                  {"base", {{"status", "done"}, {"due", "2026-12-03"}}}}));
  // Done tasks leave the default list.
  EXPECT_EQ(Ok("hub_list_tasks", json::object())["data"]["total"], 0);
  EXPECT_EQ(Ok("hub_list_tasks", {{"includeDone", true}})["data"]["total"], 1);

  ASSERT_TRUE(ApplyUndo(update).ok());
  EXPECT_EQ(Get(id).status, "todo");
  EXPECT_FALSE(Get(id).due.has_value());

  json del = Ok("hub_delete_tasks", {{"ids", {id}}});
  EXPECT_EQ(del["summary"], "Moved 1 task to Trash: \u201CCall Mira\u201D.");
  EXPECT_TRUE(Get(id).deleted);
  EXPECT_EQ(Ok("hub_list_tasks", {{"includeDone", true}})["data"]["total"], 0);
  EXPECT_EQ(del["undo"], json::parse(R"([{"name":"task.restore","args":{"id":")" + id + R"("}}])"));
  ASSERT_TRUE(ApplyUndo(del).ok());
  EXPECT_FALSE(Get(id).deleted);
  EXPECT_EQ(Titles(Ok("hub_list_tasks", json::object())), std::vector<std::string>{"Call Mira"});
}

TEST_F(TaskToolRunsTest, QueryMatchesEveryWordOfTheTitleInAnyCase) {
  Seed("Call Mira");
  Seed("Ask mira about the budget call");
  Seed("Email Jon");
  EXPECT_EQ(Titles(Ok("hub_list_tasks", {{"query", "mira CALL"}})),
            (std::vector<std::string>{"Call Mira", "Ask mira about the budget call"}));
  EXPECT_EQ(Titles(Ok("hub_list_tasks", {{"query", "jon"}})),
            std::vector<std::string>{"Email Jon"});
  json none = Ok("hub_list_tasks", {{"query", "dentist"}});
  EXPECT_EQ(none["data"]["total"], 0);
  EXPECT_EQ(none["summary"], "No tasks match \u201Cdentist\u201D.");
}

TEST_F(TaskToolRunsTest, FiltersByStatus) {
  Seed("Draft brief", kSpace, "doing");
  Seed("Call Mira", kSpace, "done");
  Seed("Email Jon");
  EXPECT_EQ(Titles(Ok("hub_list_tasks", {{"status", "doing"}})),
            std::vector<std::string>{"Draft brief"});
  EXPECT_EQ(Titles(Ok("hub_list_tasks", {{"status", "done"}})),
            std::vector<std::string>{"Call Mira"});
  EXPECT_EQ(Titles(Ok("hub_list_tasks", json::object())),
            (std::vector<std::string>{"Draft brief", "Email Jon"}));
}

TEST_F(TaskToolRunsTest, PagesAreBoundedAndSayWhereToContinue) {
  for (int i = 0; i < 60; ++i) Seed("Task " + std::to_string(i));
  json first = Ok("hub_list_tasks", json::object());
  EXPECT_EQ(first["data"]["tasks"].size(), static_cast<size_t>(kDefaultTaskListLimit));
  EXPECT_EQ(first["data"]["total"], 60);
  EXPECT_EQ(first["data"]["nextOffset"], 50);
  EXPECT_THAT(first["summary"].get<std::string>(), HasSubstr("continue with offset 50"));

  json last = Ok("hub_list_tasks", {{"limit", 5}, {"offset", 58}});
  EXPECT_EQ(Titles(last), (std::vector<std::string>{"Task 58", "Task 59"}));
  EXPECT_FALSE(last["data"].contains("nextOffset"));
  EXPECT_EQ(Ok("hub_list_tasks", {{"offset", 100}})["data"]["tasks"].size(), 0u);
  // Past kMaxListLimit the schema refuses the call.
  EXPECT_EQ(Run("hub_list_tasks", {{"limit", 201}}).status().code(), codes::kInvalidToolInput);
  EXPECT_EQ(Ok("hub_list_tasks", {{"limit", 200}})["data"]["tasks"].size(), 60u);
}

TEST_F(TaskToolRunsTest, ATaskOfAnotherSpaceIsNotFoundAndNothingIsWritten) {
  const std::string theirs = Seed("Their plan", kOtherSpace);
  const std::string mine = Seed("My plan");

  Result<json> update = Run("hub_update_task", {{"id", theirs}, {"fields", {{"status", "done"}}}});
  EXPECT_EQ(update.status().code(), codes::kNotFound);
  EXPECT_EQ(update.status().message(), "no task with id " + theirs);
  Result<json> del = Run("hub_delete_tasks", {{"ids", {mine, theirs}}});
  EXPECT_EQ(del.status().code(), codes::kNotFound);
  Result<std::string> preview =
      Preview("hub_update_task", {{"id", theirs}, {"fields", {{"status", "done"}}}});
  EXPECT_EQ(preview.status().code(), codes::kNotFound);

  EXPECT_EQ(writes_, 0);
  EXPECT_EQ(Get(theirs).status, "todo");
  EXPECT_EQ(Get(theirs).version, 1);
  EXPECT_FALSE(Get(theirs).deleted);
  EXPECT_FALSE(Get(mine).deleted);  // The whole call was refused.
  EXPECT_EQ(Titles(Ok("hub_list_tasks", json::object())), std::vector<std::string>{"My plan"});
  EXPECT_EQ(Ok("hub_delete_tasks", {{"all", true}})["data"]["tasks"].size(), 1u);
  EXPECT_FALSE(Get(theirs).deleted);
}

TEST_F(TaskToolRunsTest, AConflictingEditIsAReadableSaveConflict) {
  const std::string id = Seed("Call Mira");
  // Changed elsewhere after the model read it as todo.
  ASSERT_TRUE(ctx_.write({{"task.update", {{"id", id}, {"fields", {{"status", "doing"}}}}}}).ok());
  Result<json> r =
      Run("hub_update_task",
          {{"id", id}, {"fields", {{"status", "done"}}}, {"base", {{"status", "todo"}}}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), codes::kSaveConflict);
  EXPECT_EQ(r.status().message(),
            "\u201CCall Mira\u201D was changed elsewhere since it was read (status is now doing); "
            "read it again and send the new values as base");
  EXPECT_EQ(Get(id).status, "doing");
  // Based on what is there now, it goes through.
  EXPECT_TRUE(Run("hub_update_task",
                  {{"id", id}, {"fields", {{"status", "done"}}}, {"base", {{"status", "doing"}}}})
                  .ok());
  EXPECT_EQ(Get(id).status, "done");
}

TEST_F(TaskToolRunsTest, AHeldEditAppliedAfterItsFieldChangedIsRefused) {
  const std::string id = Seed("Call Mira");
  ASSERT_TRUE(ctx_.write({{"task.update", {{"id", id}, {"fields", {{"labels", {"ops"}}}}}}}).ok());
  // Held: prepare pins what the preview showed, under the schema's names.
  json held;
  ASSERT_TRUE(Preview("hub_update_task",
                      {{"id", id}, {"fields", {{"status", "done"}, {"labels", {"ops", "q3"}}}}},
                      &held)
                  .ok());
  EXPECT_EQ(held["base"], json({{"status", "todo"}, {"labels", {"ops"}}}));
  // Someone marks it doing before Apply: the held edit does not overwrite it.
  ASSERT_TRUE(ctx_.write({{"task.update", {{"id", id}, {"fields", {{"status", "doing"}}}}}}).ok());
  Result<json> stale = Run("hub_update_task", held);
  EXPECT_EQ(stale.status().code(), codes::kSaveConflict);
  EXPECT_THAT(stale.status().message(), HasSubstr("status is now doing"));
  EXPECT_EQ(Get(id).status, "doing");

  // A change to another field merges: the held edit still applies.
  ASSERT_TRUE(Preview("hub_update_task",
                      {{"id", id}, {"fields", {{"status", "done"}, {"labels", json::array()}}}},
                      &held)
                  .ok());
  ASSERT_TRUE(
      ctx_.write({{"task.update", {{"id", id}, {"fields", {{"title", "Call Mira today"}}}}}}).ok());
  Ok("hub_update_task", held);
  EXPECT_EQ(Get(id).status, "done");
  EXPECT_EQ(Get(id).title, "Call Mira today");
  EXPECT_TRUE(Get(id).labels.empty());

  // The model's own base is kept; expectedVersion is left as the rule it chose.
  ASSERT_TRUE(Preview("hub_update_task",
                      {{"id", id},
                       {"fields", {{"status", "todo"}, {"title", "Call"}}},
                       {"base", {{"status", "doing"}}}},
                      &held)
                  .ok());
  EXPECT_EQ(held["base"], json({{"status", "doing"}, {"title", "Call Mira today"}}));
  ASSERT_TRUE(Preview("hub_update_task",
                      {{"id", id}, {"fields", {{"status", "todo"}}}, {"expectedVersion", 4}}, &held)
                  .ok());
  EXPECT_FALSE(held.contains("base"));
}

TEST_F(TaskToolRunsTest, EditingATaskInTrashSaysSo) {
  const std::string id = Seed("Call Mira");
  Ok("hub_delete_tasks", {{"ids", {id}}});
  const int before = writes_;
  Result<json> r = Run("hub_update_task", {{"id", id}, {"fields", {{"title", "Call Mira now"}}}});
  EXPECT_EQ(r.status().code(), codes::kRecordDeleted);
  EXPECT_THAT(r.status().message(), HasSubstr("\u201CCall Mira\u201D is in Trash"));
  EXPECT_EQ(writes_, before);
}

TEST_F(TaskToolRunsTest, PrepareFixesTheTasksAFilterMeans) {
  const std::string a = Seed("Old notes", kSpace, "done");
  const std::string b = Seed("Call Mira", kSpace, "todo");
  const std::string c = Seed("Sent invoice", kSpace, "done");
  Seed("Their done task", kOtherSpace, "done");

  json prepared;
  Result<std::string> preview =
      Preview("hub_delete_tasks", {{"all", true}, {"status", "done"}}, &prepared);
  ASSERT_TRUE(preview.ok()) << preview.status().ToString();
  EXPECT_EQ(prepared, json({{"ids", {a, c}}}));
  EXPECT_EQ(*preview, "Move 2 tasks to Trash: \u201COld notes\u201D and \u201CSent invoice\u201D.");

  // A task done after the preview is not in what Apply runs.
  const std::string d = Seed("Filed report", kSpace, "done");
  tools::ToolCall apply{"hub_delete_tasks", prepared, &ctx_};
  Result<json> r = Tool("hub_delete_tasks").run(apply);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(Get(a).deleted);
  EXPECT_TRUE(Get(c).deleted);
  EXPECT_FALSE(Get(b).deleted);
  EXPECT_FALSE(Get(d).deleted);
  EXPECT_EQ((*r)["summary"],
            "Moved 2 tasks to Trash: \u201COld notes\u201D and \u201CSent invoice\u201D.");

  EXPECT_EQ(Run("hub_delete_tasks", {{"status", "done"}}).status().code(), codes::kInvalidArgument);
  EXPECT_EQ(Run("hub_delete_tasks", {{"ids", {b}}, {"all", true}}).status().code(),
            codes::kInvalidArgument);
  EXPECT_FALSE(Get(b).deleted);
}

TEST_F(TaskToolRunsTest, ListDueShowsTodayThenOverdueThenTheWindow) {
  Seed("Later", kSpace, "todo", "2026-12-20");
  Seed("Send deck", kSpace, "todo", "2026-12-03");
  Seed("Pay rent", kSpace, "todo", "2026-11-28");
  Seed("Call Mira", kSpace, "doing", "2026-11-30");
  Seed("Already done", kSpace, "done", "2026-11-30");
  Seed("Someday");
  Seed("Theirs", kOtherSpace, "todo", "2026-11-30");

  json week = Ok("hub_list_due", json::object());
  EXPECT_EQ(Titles(week), (std::vector<std::string>{"Call Mira", "Pay rent", "Send deck"}));
  EXPECT_EQ(week["data"]["from"], kToday);
  EXPECT_EQ(week["data"]["to"], "2026-12-06");
  EXPECT_EQ(week["data"]["tasks"][1]["overdue"], true);
  EXPECT_EQ(week["summary"],
            "Found 3 tasks due 30 Nov to 6 Dec or overdue: \u201CCall Mira\u201D, \u201CPay "
            "rent\u201D and \u201CSend deck\u201D.");

  EXPECT_EQ(
      Titles(Ok("hub_list_due", {{"from", kToday}, {"to", kToday}, {"includeOverdue", false}})),
      std::vector<std::string>{"Call Mira"});
  EXPECT_EQ(
      Ok("hub_list_due",
         {{"from", "2026-12-10"}, {"to", "2026-12-12"}, {"includeOverdue", false}})["summary"],
      "Nothing is due 10 Dec to 12 Dec.");
  json one = Ok("hub_list_due", {{"limit", 1}});
  EXPECT_EQ(Titles(one), std::vector<std::string>{"Call Mira"});
  EXPECT_EQ(one["data"]["total"], 3);
  EXPECT_THAT(one["summary"].get<std::string>(), HasSubstr("3 in all"));
  EXPECT_EQ(Run("hub_list_due", {{"from", "2026-12-05"}, {"to", "2026-12-01"}}).status().code(),
            codes::kInvalidArgument);
  // A week from the last days there are ends on the last one.
  EXPECT_EQ(Ok("hub_list_due", {{"from", "9999-12-30"}})["data"]["to"], "9999-12-31");
}

TEST_F(TaskToolRunsTest, CreateWritesEveryFullField) {
  const std::string project = SeedOther("project", {{"title", "Launch"}});
  const std::string ana = SeedOther("person", {{"name", "Ana"}});
  const std::string page = SeedOther("page", {{"title", "Spec"}});
  const std::string first = Seed("Book venue");
  json r = Ok("hub_create_tasks", {{"tasks",
                                    {{{"title", "Send invites"},
                                      {"description", "To the whole team"},
                                      {"priority", "high"},
                                      {"projectId", project},
                                      {"personIds", {ana}},
                                      {"labels", {"waiting-on", " q3 ", "q3"}},
                                      {"dependsOn", {first}},
                                      {"pageId", page}}}}});
  const json& row = r["data"]["tasks"][0];
  EXPECT_EQ(row["priority"], "high");
  EXPECT_EQ(row["projectId"], project);
  EXPECT_EQ(row["personIds"], json({ana}));
  EXPECT_EQ(row["labels"], json({"waiting-on", "q3"}));
  EXPECT_EQ(row["dependsOn"], json({first}));
  EXPECT_EQ(row["pageId"], page);
  tasks::Task t = Get(row["id"]);
  EXPECT_EQ(t.description, "To the whole team");
  EXPECT_EQ(t.priority, "high");
  EXPECT_EQ(t.project, project);
  EXPECT_EQ(t.people, std::vector<std::string>{ana});
  EXPECT_EQ(t.labels, (std::vector<std::string>{"waiting-on", "q3"}));
  EXPECT_EQ(t.depends_on, std::vector<std::string>{first});
  EXPECT_TRUE(t.blocks.empty());
  EXPECT_EQ(t.page, page);
  // The list shows them too.
  json list = Ok("hub_list_tasks", {{"query", "invites"}});
  EXPECT_EQ(list["data"]["tasks"][0]["labels"], json({"waiting-on", "q3"}));
  EXPECT_EQ(list["data"]["tasks"][0]["description"], "To the whole team");
  EXPECT_FALSE(list["data"]["tasks"][0].contains("descriptionCut"));
  // A long description is cut in list rows, and says so.
  const std::string long_text(kMaxRowDescriptionChars + 50, 'x');
  Ok("hub_create_tasks", {{"tasks", {{{"title", "Long one"}, {"description", long_text}}}}});
  json cut = Ok("hub_list_tasks", {{"query", "long"}})["data"]["tasks"][0];
  EXPECT_EQ(cut["descriptionCut"], true);
  EXPECT_LT(cut["description"].get<std::string>().size(), long_text.size());
}

TEST_F(TaskToolRunsTest, UpdateWritesEachFullFieldAndUndoRestoresThem) {
  const std::string project = SeedOther("project", {{"title", "Launch"}});
  const std::string ana = SeedOther("person", {{"name", "Ana"}});
  const std::string jon = SeedOther("person", {{"name", "Jon"}});
  const std::string page = SeedOther("page", {{"title", "Spec"}});
  const std::string other = Seed("Book venue");
  const std::string id = Seed("Send invites");
  json first =
      Ok("hub_update_task",
         {{"id", id},
          {"fields",
           {{"personIds", {ana}}, {"labels", {"q3"}}, {"blocks", {other}}, {"priority", "low"}}}});
  EXPECT_EQ(Get(id).people, std::vector<std::string>{ana});

  json update = Ok("hub_update_task", {{"id", id},
                                       {"fields",
                                        {{"description", "Call first"},
                                         {"priority", "urgent"},
                                         {"projectId", project},
                                         {"personIds", {ana, jon}},
                                         {"labels", json::array()},
                                         {"dependsOn", {other}},
                                         {"blocks", json::array()},
                                         {"pageId", page}}},
                                       {"base", {{"personIds", {ana}}, {"labels", {"q3"}}}}});
  EXPECT_EQ(
      update["summary"],
      "Updated \u201CSend invites\u201D: blocks nothing, depends on \u201CBook venue\u201D, "
      "description to \u201CCall first\u201D, no labels, page to \u201CSpec\u201D, people to "
      "\u201CAna\u201D and \u201CJon\u201D, priority to urgent, project to \u201CLaunch\u201D.");
  tasks::Task t = Get(id);
  EXPECT_EQ(t.description, "Call first");
  EXPECT_EQ(t.priority, "urgent");
  EXPECT_EQ(t.project, project);
  EXPECT_EQ(t.people, (std::vector<std::string>{ana, jon}));
  EXPECT_TRUE(t.labels.empty());
  EXPECT_EQ(t.depends_on, std::vector<std::string>{other});
  EXPECT_TRUE(t.blocks.empty());
  EXPECT_EQ(t.page, page);
  EXPECT_EQ(update["data"]["task"]["personIds"], json({ana, jon}));
  EXPECT_EQ(update["data"]["task"]["projectId"], project);

  ASSERT_TRUE(ApplyUndo(update).ok());
  t = Get(id);
  EXPECT_EQ(t.description, "");
  EXPECT_EQ(t.priority, "low");
  EXPECT_FALSE(t.project.has_value());
  EXPECT_EQ(t.people, std::vector<std::string>{ana});
  EXPECT_EQ(t.labels, std::vector<std::string>{"q3"});
  EXPECT_TRUE(t.depends_on.empty());
  EXPECT_EQ(t.blocks, std::vector<std::string>{other});
  EXPECT_FALSE(t.page.has_value());

  // Null clears a link; a null priority is none.
  Ok("hub_update_task", {{"id", id}, {"fields", {{"priority", nullptr}, {"pageId", nullptr}}}});
  EXPECT_EQ(Get(id).priority, "none");
  EXPECT_EQ(Invalid("hub_update_task", {{"id", id}, {"fields", {{"dependsOn", {id}}}}}),
            codes::kInvalidArgument);
}

TEST_F(TaskToolRunsTest, ListFiltersByProjectPersonAndLabel) {
  const std::string launch = SeedOther("project", {{"title", "Launch"}});
  const std::string ops = SeedOther("project", {{"title", "Ops"}});
  const std::string ana = SeedOther("person", {{"name", "Ana"}});
  Ok("hub_create_tasks",
     {{"tasks",
       {{{"title", "A"}, {"projectId", launch}, {"personIds", {ana}}, {"labels", {"q3"}}},
        {{"title", "B"}, {"projectId", launch}},
        {{"title", "C"}, {"projectId", ops}, {"personIds", {ana}}, {"labels", {"q3", "x"}}},
        {{"title", "D"}}}}});
  EXPECT_EQ(Titles(Ok("hub_list_tasks", {{"projectId", launch}})),
            (std::vector<std::string>{"A", "B"}));
  EXPECT_EQ(Titles(Ok("hub_list_tasks", {{"personId", ana}})),
            (std::vector<std::string>{"A", "C"}));
  EXPECT_EQ(Titles(Ok("hub_list_tasks", {{"label", "q3"}, {"projectId", ops}})),
            std::vector<std::string>{"C"});
  EXPECT_EQ(Titles(Ok("hub_list_tasks", {{"label", "nothing"}})), std::vector<std::string>{});
  // all: true with a project moves only that project's tasks.
  json prepared;
  ASSERT_TRUE(Preview("hub_delete_tasks", {{"all", true}, {"projectId", ops}}, &prepared).ok());
  EXPECT_EQ(prepared["ids"].size(), 1u);
}

TEST_F(TaskToolRunsTest, AnIdOfAnotherSpaceIsNotFoundAndNothingIsWritten) {
  const std::string their_project = SeedOther("project", {{"title", "Theirs"}}, kOtherSpace);
  const std::string their_person = SeedOther("person", {{"name", "Bo"}}, kOtherSpace);
  const std::string their_page = SeedOther("page", {{"title", "Secret"}}, kOtherSpace);
  const std::string their_task = Seed("Their task", kOtherSpace);
  const std::string mine = Seed("Mine");
  const std::string trashed = SeedOther("project", {{"title", "Old"}});
  ASSERT_TRUE(hub::DirectMutationSink(*db_, kNow)({{"project.delete", {{"id", trashed}}}}).ok());

  const int before = writes_;
  Result<json> r =
      Run("hub_create_tasks", {{"tasks", {{{"title", "X"}, {"projectId", their_project}}}}});
  EXPECT_EQ(r.status().code(), codes::kNotFound);
  EXPECT_EQ(r.status().message(), "no project with id " + their_project);
  r = Run("hub_update_task", {{"id", mine}, {"fields", {{"personIds", {their_person}}}}});
  EXPECT_EQ(r.status().message(), "no person with id " + their_person);
  r = Run("hub_update_task", {{"id", mine}, {"fields", {{"pageId", their_page}}}});
  EXPECT_EQ(r.status().message(), "no page with id " + their_page);
  r = Run("hub_update_task", {{"id", mine}, {"fields", {{"dependsOn", {their_task}}}}});
  EXPECT_EQ(r.status().message(), "no task with id " + their_task);
  r = Run("hub_update_task", {{"id", mine}, {"fields", {{"blocks", {their_task}}}}});
  EXPECT_EQ(r.status().code(), codes::kNotFound);
  r = Run("hub_update_task", {{"id", mine}, {"fields", {{"projectId", trashed}}}});
  EXPECT_EQ(r.status().message(), "no project with id " + trashed);
  EXPECT_EQ(Preview("hub_update_task", {{"id", mine}, {"fields", {{"projectId", their_project}}}})
                .status()
                .code(),
            codes::kNotFound);
  EXPECT_EQ(Run("hub_list_tasks", {{"projectId", their_project}}).status().code(),
            codes::kNotFound);
  EXPECT_EQ(Run("hub_list_tasks", {{"personId", their_person}}).status().code(), codes::kNotFound);
  EXPECT_EQ(writes_, before);
  EXPECT_FALSE(Get(mine).project.has_value());
  EXPECT_TRUE(Get(mine).people.empty());
  EXPECT_EQ(Get(mine).version, 1);
}

TEST_F(TaskToolRunsTest, AStaleVersionOrBaseIsAReadableConflict) {
  const std::string id = Seed("Call Mira");
  ASSERT_TRUE(
      ctx_.write({{"task.update", {{"id", id}, {"fields", {{"labels", {"urgent-ish"}}}}}}}).ok());
  Result<json> r = Run("hub_update_task",
                       {{"id", id}, {"fields", {{"priority", "high"}}}, {"expectedVersion", 1}});
  EXPECT_EQ(r.status().code(), codes::kVersionConflict);
  EXPECT_EQ(r.status().message(),
            "\u201CCall Mira\u201D changed since that version was read (priority is now none); "
            "read it again and send its new version, or the values read as base");
  r = Run("hub_update_task",
          {{"id", id}, {"fields", {{"labels", {"q3"}}}}, {"base", {{"labels", json::array()}}}});
  EXPECT_EQ(r.status().code(), codes::kSaveConflict);
  EXPECT_EQ(r.status().message(),
            "\u201CCall Mira\u201D was changed elsewhere since it was read (labels is now "
            "urgent-ish); read it again and send the new values as base");
  EXPECT_EQ(Get(id).priority, "none");
  EXPECT_EQ(Get(id).labels, std::vector<std::string>{"urgent-ish"});
  EXPECT_TRUE(Run("hub_update_task",
                  {{"id", id}, {"fields", {{"priority", "high"}}}, {"expectedVersion", 2}})
                  .ok());
  EXPECT_EQ(Get(id).priority, "high");
}

TEST_F(TaskToolRunsTest, PreviewsNameTheTasksByTitle) {
  const std::string id = Seed("Call Mira");
  Result<std::string> create =
      Preview("hub_create_tasks", {{"tasks", {{{"title", "Draft brief"}, {"due", "2026-12-01"}}}}});
  ASSERT_TRUE(create.ok());
  EXPECT_EQ(*create, "Add 1 task: \u201CDraft brief\u201D. Due 1 Dec.");
  Result<std::string> update =
      Preview("hub_update_task", {{"id", id}, {"fields", {{"status", "done"}, {"due", nullptr}}}});
  ASSERT_TRUE(update.ok());
  EXPECT_EQ(*update, "Change \u201CCall Mira\u201D: no due date, status to done.");
  EXPECT_THAT(*update, Not(HasSubstr(id)));
  EXPECT_EQ(writes_, 0);  // Previews write nothing.
  EXPECT_EQ(Get(id).status, "todo");
}

TEST_F(TaskToolRunsTest, ReadsNeedAStoreAndAMembership) {
  tools::ToolCall bare{"hub_list_tasks", json::object(), nullptr};
  EXPECT_EQ(Tool("hub_list_tasks").run(bare).status().code(), codes::kFailedPrecondition);

  ctx_.account_id = "acct-1";
  EXPECT_EQ(Run("hub_list_tasks", json::object()).status().code(), codes::kNotFound);
  ASSERT_TRUE(sync::SetMember(*db_, kSpace, "acct-1", sync::Role::kViewer).ok());
  EXPECT_TRUE(Run("hub_list_tasks", json::object()).ok());

  ctx_.write = nullptr;
  EXPECT_EQ(Run("hub_create_tasks", {{"tasks", {{{"title", "x"}}}}}).status().code(),
            codes::kFailedPrecondition);
}

TEST_F(TaskToolRunsTest, TheDirectSinkAuthorizesANamedAccount) {
  ASSERT_TRUE(sync::SetMember(*db_, kSpace, "viewer-1", sync::Role::kViewer).ok());
  ctx_.account_id = "viewer-1";
  ctx_.write = hub::DirectMutationSink(*db_, kNow, "viewer-1");
  Result<json> r = Run("hub_create_tasks", {{"tasks", {{{"title", "Call Mira"}}}}});
  EXPECT_EQ(r.status().code(), codes::kForbidden);
  EXPECT_EQ(Titles(Ok("hub_list_tasks", json::object())).size(), 0u);
}

// The local planner, driven as the turn loop drives a model, with each call
// run through the real hooks; today is the fixture's (Monday 30 November).
std::string Converse(const std::string& message,
                     const std::function<Result<json>(const std::string&, json)>& run) {
  LocalPlanInput input{message, "2026-11-30", "Europe/Berlin", {}};
  for (int step = 0; step < kMaxLocalPlannerSteps; ++step) {
    Result<LocalPlanStep> next = PlanLocalStep(hub::HubToolRegistry(), input);
    EXPECT_TRUE(next.ok()) << next.status().ToString();
    if (!next.ok()) return "";
    if (next->final) return next->reply;
    for (const LocalCall& call : next->calls) {
      Result<json> r = run(call.name, call.args);
      LocalCallRecord record{call.name, call.args, r.ok() ? *r : json(nullptr), std::nullopt};
      if (!r.ok()) record.error = r.status().message();
      input.calls.push_back(std::move(record));
    }
  }
  ADD_FAILURE() << message << ": no final reply";
  return "";
}

TEST_F(TaskToolRunsTest, TheLocalPlannerAddsAndCompletesATaskThroughTheHooks) {
  auto run = [this](const std::string& name, json args) { return Run(name, std::move(args)); };
  EXPECT_EQ(Converse("add a task to call Mira tomorrow", run),
            "Added 1 task: \u201CCall Mira\u201D. Due tomorrow.");
  std::vector<tasks::Task> all = *tasks::ListTasks(*db_);
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all[0].title, "Call Mira");
  EXPECT_EQ(all[0].due, "2026-12-01");
  EXPECT_EQ(all[0].space_id, kSpace);

  EXPECT_THAT(Converse("what's due tomorrow", run), HasSubstr("\u201CCall Mira\u201D"));
  EXPECT_THAT(Converse("list my tasks", run), HasSubstr("\u201CCall Mira\u201D"));

  EXPECT_EQ(Converse("mark call Mira done", run), "Marked \u201CCall Mira\u201D as done.");
  EXPECT_EQ(Get(all[0].id).status, "done");
  EXPECT_EQ(Converse("mark call Mira done", run), "\u201CCall Mira\u201D is already done.");
}

TEST_F(TaskToolRunsTest, TheLocalPlannerCountsACutListFromTheRunsData) {
  for (int i = 0; i < 55; ++i) Seed("Task " + std::to_string(i));
  auto run = [this](const std::string& name, json args) { return Run(name, std::move(args)); };
  EXPECT_THAT(Converse("list my tasks", run), HasSubstr("(showing 50 of 55)"));
}

}  // namespace
}  // namespace ensemble::core::tasks
