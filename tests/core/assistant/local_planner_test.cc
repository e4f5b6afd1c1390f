// The local planner (core/assistant/local_planner.h): which phrasings it
// reads and which it refuses, the calls it makes (each valid against the
// hub's registry), the two-step complete and move, ambiguity, due-date words,
// replies made from results with titles and never ids, and the shared
// vectors (tests/vectors/assistant/local_planner.json, also run by the wasm
// test tests/wasm/local_planner.test.mjs).

#include "core/assistant/local_planner.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/assistant/hub_tools.h"
#include "core/assistant/local_due_phrase.h"
#include "core/assistant/local_request.h"
#include "core/hub/hub_tools.h"
#include "core/tools/validate.h"

namespace ensemble::core::assistant {
namespace {

using nlohmann::json;

// Monday 30 November 2026.
constexpr char kToday[] = "2026-11-30";
constexpr char kId1[] = "01JDRAFTBR1EF0000000000001";
constexpr char kId2[] = "01JDRAFTMEM000000000000002";

LocalPlanStep Step(const std::string& message, std::vector<LocalCallRecord> calls = {}) {
  Result<LocalPlanStep> step =
      PlanLocalStep(hub::HubToolRegistry(), {message, kToday, "Europe/Berlin", std::move(calls)});
  EXPECT_TRUE(step.ok()) << message << ": " << step.status().ToString();
  if (!step.ok()) return {};
  for (const LocalCall& call : step->calls) {
    EXPECT_TRUE(tools::ValidateToolCall(hub::HubToolRegistry(), call.name, call.args).ok())
        << message << ": " << call.name << " " << call.args.dump();
  }
  return std::move(step).value();
}

// The one call the first step makes, as {"name": args}.
json FirstCall(const std::string& message) {
  LocalPlanStep step = Step(message);
  EXPECT_FALSE(step.final) << message << " -> " << step.reply;
  EXPECT_EQ(step.calls.size(), 1u) << message;
  if (step.calls.size() != 1) return nullptr;
  return {{step.calls[0].name, step.calls[0].args}};
}

json Creates(std::initializer_list<std::pair<const char*, const char*>> tasks) {
  json list = json::array();
  for (const auto& [title, due] : tasks) {
    json row = {{"title", title}};
    if (due[0] != '\0') row["due"] = due;
    list.push_back(row);
  }
  return {{"hub_create_tasks", {{"tasks", list}}}};
}

TEST(LocalPlanner, AddsTasksInManyPhrasings) {
  const json call_mira = Creates({{"Call Mira", ""}});
  for (const char* message :
       {"add a task to call Mira", "Add a task to call Mira.", "please add a task to call Mira",
        "can you add a task to call Mira?", "ADD A TASK TO CALL MIRA", "add task: call Mira",
        "todo: call Mira", "Todo - call Mira", "to-do: call Mira", "new task: call Mira",
        "create a task called call Mira", "add call Mira to my list",
        "add call Mira to my to-do list", "add 'call Mira'", "add \u201Ccall Mira\u201D",
        "remind me to call Mira", "make a new task to call Mira", "add a todo: call Mira"}) {
    SCOPED_TRACE(message);
    json call = FirstCall(message);
    if (std::string(message) == "ADD A TASK TO CALL MIRA") {
      EXPECT_EQ(call, Creates({{"CALL MIRA", ""}}));  // Titles keep the person's case.
    } else {
      EXPECT_EQ(call, call_mira);
    }
  }
}

TEST(LocalPlanner, AddsSeveralTasksInOneCall) {
  const json two = Creates({{"Draft brief", ""}, {"Call Mira", ""}});
  EXPECT_EQ(FirstCall("add 'Draft brief' and 'Call Mira'"), two);
  EXPECT_EQ(FirstCall("Add \u201CDraft brief\u201D and \u201CCall Mira\u201D"), two);
  EXPECT_EQ(FirstCall("add two tasks: draft brief and call Mira"), two);
  EXPECT_EQ(FirstCall("create tasks: Draft brief, Call Mira"), two);
  EXPECT_EQ(FirstCall("todos: draft brief; call Mira"), two);
  EXPECT_EQ(FirstCall("add tasks:\n- Draft brief\n- Call Mira"), two);
  EXPECT_EQ(FirstCall("add 'Draft brief' and 'Call Mira' by Friday"),
            Creates({{"Draft brief", "2026-12-04"}, {"Call Mira", "2026-12-04"}}));
  EXPECT_EQ(FirstCall("add tasks: call Mira tomorrow, pay rent on Friday"),
            Creates({{"Call Mira", "2026-12-01"}, {"Pay rent", "2026-12-04"}}));
  // One task's title may hold "and".
  EXPECT_EQ(FirstCall("add a task to buy salt and pepper"), Creates({{"Buy salt and pepper", ""}}));
}

TEST(LocalPlanner, ResolvesDueWordsFromToday) {
  // Today is Monday 30 November 2026.
  const std::pair<const char*, const char*> cases[] = {
      {"remind me to pay rent today", "2026-11-30"},
      {"remind me to pay rent tonight", "2026-11-30"},
      {"remind me to pay rent tomorrow", "2026-12-01"},
      {"remind me to pay rent the day after tomorrow", "2026-12-02"},
      {"remind me to pay rent by Friday", "2026-12-04"},
      {"remind me to pay rent on fri", "2026-12-04"},
      {"remind me to pay rent by Monday", "2026-12-07"},  // A weekday is the next one.
      {"remind me to pay rent this Wednesday", "2026-12-02"},
      {"remind me to pay rent next Friday", "2026-12-11"},
      {"remind me to pay rent next week", "2026-12-07"},
      {"remind me to pay rent this week", "2026-12-06"},
      {"remind me to pay rent by the end of the week", "2026-12-06"},
      {"remind me to pay rent in 3 days", "2026-12-03"},
      {"remind me to pay rent in two weeks", "2026-12-14"},
      {"remind me to pay rent by 2027-01-15", "2027-01-15"},
      {"remind me to pay rent on Dec 3", "2026-12-03"},
      {"remind me to pay rent by 3rd of December", "2026-12-03"},
      {"remind me to pay rent by November 2", "2027-11-02"},  // Already past this year.
      {"remind me to pay rent due tomorrow", "2026-12-01"},
  };
  for (const auto& [message, due] : cases) {
    SCOPED_TRACE(message);
    EXPECT_EQ(FirstCall(message), Creates({{"Pay rent", due}}));
  }
  // A bare weekday stays in the title: it may be part of it.
  EXPECT_EQ(FirstCall("add a task to plan Friday"), Creates({{"Plan Friday", ""}}));
}

TEST(LocalPlanner, WeekdaysCountFromTodayAcrossMonthAndYear) {
  Result<LocalPlanStep> step = PlanLocalStep(
      hub::HubToolRegistry(), {"remind me to file taxes by Monday", "2026-12-31", "", {}});
  ASSERT_TRUE(step.ok());
  // 31 December 2026 is a Thursday; the next Monday is 4 January 2027.
  EXPECT_EQ(step->calls[0].args["tasks"][0]["due"], "2027-01-04");
}

TEST(LocalPlanner, ListsTasks) {
  for (const char* message :
       {"list my tasks", "show tasks", "what's open", "Show me my tasks.", "what are my tasks?",
        "my tasks", "open tasks", "what's on my list", "what do I have to do", "show my todos"}) {
    SCOPED_TRACE(message);
    EXPECT_EQ(FirstCall(message), json({{"hub_list_tasks", json::object()}}));
  }
  EXPECT_EQ(FirstCall("show done tasks"),
            json({{"hub_list_tasks", {{"status", "done"}, {"includeDone", true}}}}));
  EXPECT_EQ(FirstCall("list tasks in progress"), json({{"hub_list_tasks", {{"status", "doing"}}}}));
  EXPECT_EQ(FirstCall("show all tasks"), json({{"hub_list_tasks", {{"includeDone", true}}}}));
  EXPECT_EQ(FirstCall("what am I working on"), json({{"hub_list_tasks", {{"status", "doing"}}}}));
}

TEST(LocalPlanner, ListsWhatIsDue) {
  const std::pair<const char*, json> cases[] = {
      {"what's due today",
       {{"from", "2026-11-30"}, {"to", "2026-11-30"}, {"includeOverdue", true}}},
      {"what's due", {{"from", "2026-11-30"}, {"to", "2026-11-30"}, {"includeOverdue", true}}},
      {"what is due tomorrow?",
       {{"from", "2026-12-01"}, {"to", "2026-12-01"}, {"includeOverdue", false}}},
      {"what's due this week",
       {{"from", "2026-11-30"}, {"to", "2026-12-06"}, {"includeOverdue", true}}},
      {"whats due next week",
       {{"from", "2026-12-07"}, {"to", "2026-12-13"}, {"includeOverdue", false}}},
      {"what's due on Friday",
       {{"from", "2026-12-04"}, {"to", "2026-12-04"}, {"includeOverdue", false}}},
      {"what's overdue", {{"from", "2026-11-30"}, {"to", "2026-11-30"}, {"includeOverdue", true}}},
      {"show overdue tasks",
       {{"from", "2026-11-30"}, {"to", "2026-11-30"}, {"includeOverdue", true}}},
      {"what's on today", {{"from", "2026-11-30"}, {"to", "2026-11-30"}, {"includeOverdue", true}}},
      {"what do I need to do today",
       {{"from", "2026-11-30"}, {"to", "2026-11-30"}, {"includeOverdue", true}}},
  };
  for (const auto& [message, args] : cases) {
    SCOPED_TRACE(message);
    EXPECT_EQ(FirstCall(message), json({{"hub_list_due", args}}));
  }
}

json Lookup(const char* query) {
  return {{"hub_list_tasks", {{"query", query}, {"includeDone", true}, {"limit", kLookupLimit}}}};
}

LocalCallRecord Found(json rows) {
  return {
      "hub_list_tasks", Lookup("Draft brief")["hub_list_tasks"], {{"tasks", std::move(rows)}}, {}};
}

TEST(LocalPlanner, CompletesAndMovesByTitleInManyPhrasings) {
  const std::pair<const char*, const char*> complete[] = {
      {"mark Draft brief done", "Draft brief"},
      {"Mark 'Draft brief' as done.", "Draft brief"},
      {"mark the Draft brief task as complete", "Draft brief"},
      {"complete Draft brief", "Draft brief"},
      {"I finished Draft brief", "Draft brief"},
      {"i've finished the draft brief", "draft brief"},
      {"I'm done with draft brief", "draft brief"},
      {"Draft brief is done", "Draft brief"},
      {"check off Draft brief", "Draft brief"},
      {"tick Draft brief off", "Draft brief"},
      {"set Draft brief to done", "Draft brief"},
  };
  for (const auto& [message, title] : complete) {
    SCOPED_TRACE(message);
    EXPECT_EQ(FirstCall(message), Lookup(title));
    EXPECT_EQ(Step(message).intent, "complete");
  }
  const std::pair<const char*, const char*> move[] = {
      {"move Draft brief to Doing", "doing"},
      {"move Draft brief to in progress", "doing"},
      {"Move 'Draft brief' to the Done column", "done"},
      {"move Draft brief to Todo", "todo"},
      {"move Draft brief to to-do", "todo"},
      {"mark Draft brief in progress", "doing"},
      {"I'm working on Draft brief", "doing"},
      {"reopen Draft brief", "todo"},
  };
  for (const auto& [message, status] : move) {
    SCOPED_TRACE(message);
    EXPECT_EQ(FirstCall(message), Lookup("Draft brief"));
    EXPECT_EQ(Step(message).intent, "move");
    LocalPlanStep second = Step(message, {Found({{{"id", kId1}, {"title", "Draft brief"}}})});
    ASSERT_EQ(second.calls.size(), 1u);
    EXPECT_EQ(second.calls[0].args["fields"]["status"], status);
  }
}

TEST(LocalPlanner, CompleteIsALookupThenOneUpdateThenAReply) {
  const json row = {{"id", kId1}, {"title", "Draft brief"}, {"status", "todo"}};
  LocalPlanStep second = Step("mark Draft brief done", {Found({row})});
  ASSERT_EQ(second.calls.size(), 1u);
  EXPECT_EQ(second.step, 2);
  EXPECT_EQ(second.calls[0].name, "hub_update_task");
  EXPECT_EQ(second.calls[0].args,
            json({{"id", kId1}, {"fields", {{"status", "done"}}}, {"base", {{"status", "todo"}}}}));

  LocalCallRecord update{"hub_update_task",
                         second.calls[0].args,
                         {{"task", {{"id", kId1}, {"title", "Draft brief"}, {"status", "done"}}}},
                         {}};
  LocalPlanStep third = Step("mark Draft brief done", {Found({row}), update});
  EXPECT_TRUE(third.final);
  EXPECT_EQ(third.step, 3);
  EXPECT_LE(third.step, kMaxLocalPlannerSteps);
  EXPECT_EQ(third.reply, "Marked \u201CDraft brief\u201D as done.");
  EXPECT_EQ(third.reply.find(kId1), std::string::npos);

  LocalPlanStep moved =
      Step("move Draft brief to Doing",
           {Found({row}), {"hub_update_task", json::object(), json::object(), {}}});
  EXPECT_EQ(moved.reply, "Moved \u201CDraft brief\u201D to Doing.");
}

TEST(LocalPlanner, PrefersTheExactTitleAndTheTaskNotAlreadyThere) {
  const json rows = {{{"id", kId2}, {"title", "Draft brief v2"}, {"status", "todo"}},
                     {{"id", kId1}, {"title", "draft  brief"}, {"status", "doing"}}};
  LocalPlanStep step = Step("mark Draft brief done", {Found(rows)});
  ASSERT_EQ(step.calls.size(), 1u);
  EXPECT_EQ(step.calls[0].args["id"], kId1);

  const json twins = {{{"id", kId1}, {"title", "Draft brief"}, {"status", "done"}},
                      {{"id", kId2}, {"title", "Draft brief"}, {"status", "todo"}}};
  step = Step("mark Draft brief done", {Found(twins)});
  ASSERT_EQ(step.calls.size(), 1u);
  EXPECT_EQ(step.calls[0].args["id"], kId2);
}

TEST(LocalPlanner, SeveralMatchesAskWhichWithChoices) {
  const json rows = {
      {{"id", kId1}, {"title", "Draft brief"}, {"status", "todo"}, {"due", "2026-12-03"}},
      {{"id", kId2}, {"title", "Draft memo"}, {"status", "doing"}}};
  LocalPlanStep step =
      Step("complete draft",
           {{"hub_list_tasks", Lookup("draft")["hub_list_tasks"], {{"tasks", rows}}, {}}});
  EXPECT_TRUE(step.final);
  EXPECT_TRUE(step.calls.empty());
  EXPECT_EQ(step.reply,
            "Several tasks match \u201Cdraft\u201D. Which one did you mean?\nChoices:\n"
            "- \u201CDraft brief\u201D (due 3 Dec)\n- \u201CDraft memo\u201D (doing)");
  EXPECT_EQ(step.reply.find(kId1), std::string::npos);
}

TEST(LocalPlanner, NoMatchOrAlreadyDoneSaysSo) {
  EXPECT_EQ(Step("mark Draft brief done", {Found(json::array())}).reply,
            "I couldn't find a task called \u201CDraft brief\u201D.");
  EXPECT_EQ(Step("mark Draft brief done",
                 {Found({{{"id", kId1}, {"title", "Draft brief"}, {"status", "done"}}})})
                .reply,
            "\u201CDraft brief\u201D is already done.");
  EXPECT_EQ(Step("move Draft brief to doing",
                 {Found({{{"id", kId1}, {"title", "Draft brief"}, {"status", "doing"}}})})
                .reply,
            "\u201CDraft brief\u201D is already in Doing.");
  // A row without a usable id cannot be changed.
  EXPECT_EQ(Step("mark Draft brief done", {Found({{{"title", "Draft brief"}}})}).reply,
            "I couldn't find a task called \u201CDraft brief\u201D.");
}

TEST(LocalPlanner, ATypedAtTitleNamesTheTaskWithoutTheAt) {
  EXPECT_EQ(FirstCall("mark @Renew passport as done"), Lookup("Renew passport"));
  EXPECT_EQ(FirstCall("move @Renew passport to doing"), Lookup("Renew passport"));
  const json row = {{"id", kId1}, {"title", "Renew passport"}, {"status", "todo"}};
  LocalPlanStep step = Step("mark @Renew passport as done", {Found({row})});
  ASSERT_EQ(step.calls.size(), 1u);
  EXPECT_EQ(step.calls[0].args["id"], kId1);
  EXPECT_EQ(Step("mark @Renew passport as done", {Found(json::array())}).reply,
            "I couldn't find a task called \u201CRenew passport\u201D.");
}

TEST(LocalPlanner, AMentionPicksItsTaskByIdAmongSameNamedOnes) {
  const json twins = {{{"id", kId1}, {"title", "Renew passport"}, {"status", "todo"}},
                      {{"id", kId2}, {"title", "Renew passport"}, {"status", "todo"}}};
  LocalPlanInput input{"mark @Renew passport as done", kToday, "", {Found(twins)}};
  // Without the mention two tasks match, so it asks which.
  Result<LocalPlanStep> asks = PlanLocalStep(hub::HubToolRegistry(), input);
  ASSERT_TRUE(asks.ok());
  EXPECT_TRUE(asks->final);
  EXPECT_NE(asks->reply.find("Choices:"), std::string::npos);

  input.mentions = {{"task", kId2, "Renew passport"}};
  Result<LocalPlanStep> picked = PlanLocalStep(hub::HubToolRegistry(), input);
  ASSERT_TRUE(picked.ok()) << picked.status().ToString();
  ASSERT_EQ(picked->calls.size(), 1u);
  EXPECT_EQ(picked->calls[0].name, "hub_update_task");
  EXPECT_EQ(picked->calls[0].args["id"], kId2);
  EXPECT_EQ(picked->calls[0].args["fields"]["status"], "done");

  // A mention of another kind, or another label, is not this task.
  input.mentions = {{"page", kId2, "Renew passport"}, {"task", kId1, "Passport photo"}};
  EXPECT_TRUE(PlanLocalStep(hub::HubToolRegistry(), input)->final);
}

TEST(LocalPlanner, JsonEdgeReadsMentions) {
  const json rows = {{{"id", kId1}, {"title", "Renew passport"}, {"status", "todo"}},
                     {{"id", kId2}, {"title", "Renew passport"}, {"status", "todo"}}};
  const json call = {{"name", "hub_list_tasks"},
                     {"args", Lookup("Renew passport")["hub_list_tasks"]},
                     {"result", {{"tasks", rows}}}};
  Result<json> ok = PlanLocallyJson(
      hub::HubToolRegistry(),
      {{"message", "mark @Renew passport as done"},
       {"today", kToday},
       {"calls", {call}},
       {"mentions", {{{"kind", "task"}, {"id", kId1}, {"label", "Renew passport"}}}}});
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ((*ok)["calls"][0]["args"]["id"], kId1);
  for (const json& bad : {json("x"), json({{{"kind", "task"}, {"id", kId1}}}),
                          json({{{"kind", "task"}, {"id", ""}, {"label", "x"}}}),
                          json({{{"kind", "task"}, {"id", kId1}, {"label", "x"}, {"nope", 1}}})}) {
    SCOPED_TRACE(bad.dump());
    EXPECT_EQ(PlanLocallyJson(hub::HubToolRegistry(),
                              {{"message", "x"}, {"today", kToday}, {"mentions", bad}})
                  .status()
                  .code(),
              codes::kInvalidArgument);
  }
}

TEST(LocalPlanner, RepliesFromResultsWithTitlesNeverIds) {
  const json args = {{"tasks", {{{"title", "Draft brief"}}, {{"title", "Call Mira"}}}}};
  const json result = {
      {"tasks",
       {{{"id", kId1}, {"title", "Draft brief"}}, {{"id", kId2}, {"title", "Call Mira"}}}}};
  LocalPlanStep added =
      Step("add 'Draft brief' and 'Call Mira'", {{"hub_create_tasks", args, result, {}}});
  EXPECT_TRUE(added.final);
  EXPECT_EQ(added.reply, "Added 2 tasks: \u201CDraft brief\u201D and \u201CCall Mira\u201D.");

  LocalPlanStep rent =
      Step("remind me to pay rent tomorrow",
           {{"hub_create_tasks",
             json::object(),
             {{"tasks", {{{"id", kId1}, {"title", "Pay rent"}, {"due", "2026-12-01"}}}}},
             {}}});
  EXPECT_EQ(rent.reply, "Added 1 task: \u201CPay rent\u201D. Due tomorrow.");

  const json listed = {
      {"tasks",
       {{{"id", kId1}, {"title", "Draft brief"}, {"status", "doing"}, {"due", "2026-11-27"}},
        {{"id", kId2}, {"title", kId2}}}}};
  LocalPlanStep list = Step("list my tasks", {{"hub_list_tasks", json::object(), listed, {}}});
  EXPECT_EQ(list.reply,
            "Your open tasks (2):\n- \u201CDraft brief\u201D (doing, due 27 Nov, overdue)\n"
            "- an untitled task");
  EXPECT_EQ(list.reply.find(kId2), std::string::npos);
  EXPECT_EQ(
      Step("list my tasks", {{"hub_list_tasks", json::object(), {{"tasks", json::array()}}, {}}})
          .reply,
      "You have no open tasks.");
}

TEST(LocalPlanner, DueRepliesNameTheRange) {
  const json due_args = {{"from", "2026-11-30"}, {"to", "2026-11-30"}, {"includeOverdue", true}};
  const json rows = {{"items",
                      {{{"id", kId1}, {"title", "Draft brief"}, {"due", "2026-11-27"}},
                       {{"id", kId2}, {"title", "Call Mira"}, {"due", "2026-11-30"}}}}};
  EXPECT_EQ(Step("what's due today", {{"hub_list_due", due_args, rows, {}}}).reply,
            "Due today (2):\n- \u201CDraft brief\u201D (due 27 Nov, overdue)\n"
            "- \u201CCall Mira\u201D (due 30 Nov)");
  EXPECT_EQ(Step("what's overdue", {{"hub_list_due", due_args, rows, {}}}).reply,
            "Overdue (1):\n- \u201CDraft brief\u201D (due 27 Nov, overdue)");
  EXPECT_EQ(Step("what's due on friday", {{"hub_list_due", due_args, json::array(), {}}}).reply,
            "Nothing is due on Friday, 4 Dec.");
}

TEST(LocalPlanner, ToolErrorsAreReportedNotHidden) {
  LocalPlanStep step = Step("add a task to call Mira",
                            {{"hub_create_tasks", Creates({{"Call Mira", ""}})["hub_create_tasks"],
                              nullptr, "Tasks are read-only here"}});
  EXPECT_TRUE(step.final);
  EXPECT_EQ(step.reply, "I couldn't add the task: Tasks are read-only here.");
  step =
      Step("mark Draft brief done",
           {Found({{{"id", kId1}, {"title", "Draft brief"}, {"status", "todo"}}}),
            {"hub_update_task", json::object(), nullptr, "The task changed since you read it."}});
  EXPECT_EQ(step.reply,
            "I couldn't change \u201CDraft brief\u201D: The task changed since you read it.");
}

TEST(LocalPlanner, RefusesWhatItWouldMisread) {
  const std::pair<const char*, const char*> cases[] = {
      {"add a column to the board", "boards"},
      {"move the meeting to Friday", "meetings"},
      {"move Draft brief to Friday", "changing due dates"},
      {"move Draft brief to the Launch project", "projects"},
      {"add a task to the board", "boards"},
      {"add a task for Mira to review the brief", ""},
      {"add Mira to the project", "projects"},
      {"delete the Draft brief task", "deletions"},
      {"summarize my meeting notes", "meetings"},
      {"what's the weather tomorrow?", "web searches"},
      {"list my meetings", "meetings"},
      {"mark all tasks done", "several tasks at once"},
      {"mark 'Draft brief' and 'Call Mira' done", "several tasks at once"},
      {"write a poem", ""},
      {"add a reminder to call Mira", "reminders"},
      {"add milk", ""},  // No task word, no quotes, no list: not read as a title.
      {"what is done", ""},
      {"what's open in the Launch project", "projects"},
  };
  for (const auto& [message, topic] : cases) {
    SCOPED_TRACE(message);
    LocalPlanStep step = Step(message);
    EXPECT_TRUE(step.final);
    EXPECT_TRUE(step.calls.empty());
    EXPECT_TRUE(step.needs_model);
    EXPECT_EQ(step.intent, "unsupported");
    const std::string expected = std::string(kLocalAbilitiesText) + " For " +
                                 (topic[0] ? topic : std::string(kAnythingElseTopic)) +
                                 std::string(kSetUpModelText);
    EXPECT_EQ(step.reply, expected);
  }
}

TEST(LocalPlanner, AsksForWhatIsMissing) {
  for (const char* message : {"add a task", "remind me to", "todo: tomorrow", "add a task: it"}) {
    SCOPED_TRACE(message);
    LocalPlanStep step = Step(message);
    EXPECT_TRUE(step.final);
    EXPECT_FALSE(step.needs_model);
    EXPECT_EQ(step.reply, kAskTitleReply);
  }
  for (const char* message : {"mark it done", "move this to Doing", "complete that"}) {
    SCOPED_TRACE(message);
    EXPECT_EQ(Step(message).reply, kAskWhichTaskReply);
  }
  LocalPlanStep empty = Step("  please  ");
  EXPECT_TRUE(empty.final);
  EXPECT_EQ(empty.reply.rfind(kLocalAbilitiesText, 0), 0u);
}

TEST(LocalPlanner, LongMessagesNeedAModel) {
  LocalPlanStep step = Step("add a task to " + std::string(kMaxLocalMessageChars, 'x'));
  EXPECT_TRUE(step.needs_model);
  EXPECT_TRUE(step.calls.empty());
}

TEST(LocalPlanner, RefusesCallsThatAreNotItsPlan) {
  Result<LocalPlanStep> step =
      PlanLocalStep(hub::HubToolRegistry(),
                    {"list my tasks", kToday, "", {{"hub_list_due", json::object(), nullptr, {}}}});
  EXPECT_EQ(step.status().code(), codes::kInvalidArgument);
  step = PlanLocalStep(hub::HubToolRegistry(), {"list my tasks",
                                                kToday,
                                                "",
                                                {{"hub_list_tasks", json::object(), nullptr, {}},
                                                 {"hub_list_tasks", json::object(), nullptr, {}}}});
  EXPECT_EQ(step.status().code(), codes::kInvalidArgument);
  step = PlanLocalStep(hub::HubToolRegistry(), {"list my tasks", "30/11/2026", "", {}});
  EXPECT_EQ(step.status().code(), codes::kInvalidArgument);
  step = PlanLocalStep(
      hub::HubToolRegistry(),
      {"write a poem", kToday, "", {{"hub_list_tasks", json::object(), nullptr, {}}}});
  EXPECT_EQ(step.status().code(), codes::kInvalidArgument);
}

TEST(LocalPlanner, JsonEdgeChecksTheRequest) {
  EXPECT_EQ(PlanLocallyJson(hub::HubToolRegistry(), json::array()).status().code(),
            codes::kInvalidArgument);
  EXPECT_EQ(PlanLocallyJson(hub::HubToolRegistry(), {{"message", "list my tasks"}}).status().code(),
            codes::kInvalidArgument);
  Result<json> unknown =
      PlanLocallyJson(hub::HubToolRegistry(), {{"message", "x"}, {"today", kToday}, {"nope", 1}});
  EXPECT_EQ(unknown.status().code(), codes::kInvalidArgument);
  EXPECT_NE(unknown.status().message().find("nope"), std::string::npos);
  EXPECT_EQ(PlanLocallyJson(hub::HubToolRegistry(),
                            {{"message", "x"}, {"today", kToday}, {"calls", {{{"args", {}}}}}})
                .status()
                .code(),
            codes::kInvalidArgument);
  Result<json> ok =
      PlanLocallyJson(hub::HubToolRegistry(), {{"message", "list my tasks"}, {"today", kToday}});
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->dump(),
            R"({"calls":[{"args":{},"name":"hub_list_tasks"}],"final":false,"intent":"list",)"
            R"("needsModel":false,"reply":"","step":1})");
}

std::filesystem::path SourceDir() {
  const char* root = std::getenv("ENSEMBLE_SOURCE_DIR");
  return std::filesystem::path(root ? root : ".");
}

TEST(LocalPlanner, SharedVectors) {
  std::ifstream in(SourceDir() / "tests/vectors/assistant/local_planner.json", std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  const json table = json::parse(text.str(), nullptr, false);
  ASSERT_TRUE(table.is_object()) << "tests/vectors/assistant/local_planner.json is missing";
  ASSERT_GE(table["cases"].size(), 20u);
  for (const json& c : table["cases"]) {
    SCOPED_TRACE(c["name"].get<std::string>());
    Result<json> out = PlanLocallyJson(hub::HubToolRegistry(), c["request"]);
    if (c.contains("error")) {
      EXPECT_EQ(out.status().code(), c["error"].get<std::string>());
      continue;
    }
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    EXPECT_EQ(out->dump(), c["expect"].dump());
    for (const json& call : (*out)["calls"]) {
      EXPECT_TRUE(tools::ValidateToolCall(hub::HubToolRegistry(), call["name"].get<std::string>(),
                                          call["args"])
                      .ok());
    }
  }
}

}  // namespace
}  // namespace ensemble::core::assistant
