// The board tools' hooks (core/boards/board_tool_runs.h) over an
// in-memory SQLite store migrated as the hub's: every tool run from
// schema-valid input; boards named by id, link and title; cards of tasks and
// notes put on, moved and taken off; columns removed only when empty; stale
// input and ids of another space refused with nothing written; delete held
// for Apply; summaries by title and no Undo entries.

#include "core/boards/board_tool_runs.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "core/assistant/hub_tools.h"
#include "core/base/id.h"
#include "core/hub/hub.h"
#include "core/hub/hub_tools.h"
#include "core/store/sqlite_database.h"
#include "core/tools/tool_context.h"
#include "core/tools/validate.h"
#include "tests/core/tools/tool_run_fixture.h"
#include "tests/fakes/fake_env.h"

namespace ensemble::core::boards {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr const char* kBoardTools[] = {
    "hub_list_boards",  "hub_read_board",    "hub_create_board",     "hub_update_board",
    "hub_delete_board", "hub_move_to_board", "hub_remove_from_board"};

class BoardToolRunsTest : public tools::ToolRunTest {
 protected:
  json Ok(const std::string& name, json input) {
    Result<json> r = Run(name, input);
    EXPECT_TRUE(r.ok()) << name << " " << input.dump() << ": " << r.status().ToString();
    if (!r.ok()) return json();
    EXPECT_FALSE(r->contains("undo")) << name << ": board changes have no Undo";
    return *r;
  }

  // Prepares (as a held write is) and previews; `prepared` gets the input
  // Apply will run.
  Result<std::string> Preview(const std::string& name, json input, json* prepared = nullptr) {
    EXPECT_TRUE(tools::ValidateToolCall(hub::HubToolRegistry(), name, input).ok()) << input.dump();
    const tools::ToolDef& def = Tool(name);
    tools::ToolCall call{name, std::move(input), &ctx_};
    if (def.prepare) ENSEMBLE_RETURN_IF_ERROR(def.prepare(call));
    if (prepared) {
      *prepared = call.input;
      // What Apply revalidates.
      EXPECT_TRUE(tools::ValidateToolCall(hub::HubToolRegistry(), name, call.input).ok())
          << call.input.dump();
    }
    return def.preview(call);
  }

  std::string Mutate(const std::string& name, json args) {
    Status st = hub::DirectMutationSink(*db_, kNow)({{name, args}});
    EXPECT_TRUE(st.ok()) << name << ": " << st.ToString();
    return args.value("id", "");
  }

  std::string NewRecordId() {
    clock_.Advance(1);
    return NewId(clock_, random_);
  }

  std::string SeedTask(const std::string& title, const std::string& space = kSpace) {
    return Mutate("task.create", {{"id", NewRecordId()}, {"spaceId", space}, {"title", title}});
  }

  std::string SeedBoard(const std::string& title, const std::string& space = kSpace) {
    const json cols = json::array({{{"id", "todo"}, {"title", "To do"}},
                                   {{"id", "doing"}, {"title", "Doing"}},
                                   {{"id", "done"}, {"title", "Done"}}});
    return Mutate("board.create",
                  {{"id", NewRecordId()}, {"spaceId", space}, {"title", title}, {"columns", cols}});
  }

  int64_t Count(const std::string& sql) {
    auto rows = db_->Query(sql);
    return rows.ok() ? store::AsInt(rows->rows[0][0]) : -1;
  }

  testing::FakeClock clock_{kNow};
};

TEST_F(BoardToolRunsTest, EveryBoardToolHasItsHooksAndNoneHasUndo) {
  for (const char* name : kBoardTools) {
    EXPECT_TRUE(Tool(name).run) << name;
    EXPECT_FALSE(Tool(name).undoable) << name;
    if (Tool(name).is_write) {
      EXPECT_TRUE(Tool(name).preview) << name;
    }
  }
  for (const char* name :
       {"hub_update_board", "hub_delete_board", "hub_move_to_board", "hub_remove_from_board"}) {
    EXPECT_TRUE(Tool(name).prepare) << name;
  }
  // Deleting a board always waits for Apply (spec 002 §2).
  EXPECT_TRUE(Tool("hub_delete_board").always_hold);
}

TEST_F(BoardToolRunsTest, CreateMakesABoardWithDefaultOrGivenColumns) {
  json r = Ok("hub_create_board", {{"title", " Launch "}});
  EXPECT_EQ(r["summary"], "Made board \u201CLaunch\u201D with columns To do, Doing and Done.");
  const json& board = r["data"]["board"];
  EXPECT_TRUE(IsValidId(board["id"].get<std::string>()));
  ASSERT_EQ(board["columns"].size(), 3u);
  EXPECT_EQ(board["href"], "/board?board=" + board["id"].get<std::string>());

  r = Ok("hub_create_board", {{"title", "Hiring"},
                              {"description", "Who we talk to"},
                              {"columns", {{{"title", "Sourced"}}, {{"title", "Hired"}}}}});
  EXPECT_EQ(r["summary"], "Made board \u201CHiring\u201D with columns Sourced and Hired.");
  json read = Ok("hub_read_board", {{"board", "hiring"}});
  EXPECT_EQ(read["data"]["board"]["description"], "Who we talk to");
  EXPECT_EQ(read["data"]["board"]["columns"][1]["title"], "Hired");
  EXPECT_EQ(Count("SELECT COUNT(*) FROM boards WHERE space_id = 'personal'"), 2);

  EXPECT_EQ(*Preview("hub_create_board", {{"title", "Ops"}, {"columns", json::array()}}),
            "Make board \u201COps\u201D with columns To do, Doing and Done.");
}

TEST_F(BoardToolRunsTest, ListPagesAndFiltersByTitleWords) {
  SeedBoard("Q3 Launch");
  SeedBoard("Hiring");
  SeedBoard("Launch retro");
  SeedBoard("Theirs", kOtherSpace);
  json r = Ok("hub_list_boards", json::object());
  EXPECT_EQ(r["data"]["total"], 3);
  EXPECT_THAT(r["summary"].get<std::string>(), HasSubstr("Found 3 boards"));
  EXPECT_THAT(r["summary"].get<std::string>(), Not(HasSubstr("Theirs")));
  r = Ok("hub_list_boards", {{"query", "LAUNCH"}});
  ASSERT_EQ(r["data"]["boards"].size(), 2u);
  EXPECT_EQ(r["data"]["boards"][0]["title"], "Q3 Launch");
  EXPECT_EQ(r["data"]["boards"][0]["columns"].size(), 3u);
  r = Ok("hub_list_boards", {{"limit", 1}, {"offset", 1}});
  EXPECT_EQ(r["data"]["boards"][0]["title"], "Hiring");
  EXPECT_EQ(r["data"]["nextOffset"], 2);
  EXPECT_THAT(r["summary"].get<std::string>(), HasSubstr("continue with offset 2"));
  EXPECT_EQ(Ok("hub_list_boards", {{"query", "nothing"}})["summary"],
            "No boards match \u201Cnothing\u201D.");
}

TEST_F(BoardToolRunsTest, ReadByIdLinkOrTitleWithColumnsCardsAndTaskTitles) {
  const std::string board = SeedBoard("Launch");
  const std::string task = SeedTask("Draft brief");
  Ok("hub_move_to_board", {{"board", board}, {"itemId", task}, {"column", "Doing"}});
  Ok("hub_move_to_board", {{"board", board}, {"note", "Ask legal"}, {"column", "todo"}});
  for (const std::string& ref :
       {board, "https://app.example/board?board=" + board + "&tab=1", std::string(" launch ")}) {
    json r = Ok("hub_read_board", {{"board", ref}});
    EXPECT_EQ(r["summary"], "Read board \u201CLaunch\u201D: 3 columns, 2 cards.") << ref;
    const json& cols = r["data"]["board"]["columns"];
    ASSERT_EQ(cols.size(), 3u);
    EXPECT_EQ(cols[0]["cards"][0]["kind"], "note");
    EXPECT_EQ(cols[0]["cards"][0]["note"], "Ask legal");
    EXPECT_EQ(cols[1]["id"], "doing");
    EXPECT_EQ(cols[1]["cards"][0]["taskId"], task);
    EXPECT_EQ(cols[1]["cards"][0]["title"], "Draft brief");
    EXPECT_TRUE(IsValidId(cols[1]["cards"][0]["id"].get<std::string>()));
  }
  SeedBoard("Launch");
  Result<json> two = Run("hub_read_board", {{"board", "Launch"}});
  EXPECT_EQ(two.status().code(), codes::kInvalidArgument);
  EXPECT_THAT(two.status().message(), HasSubstr("Choices:"));
  EXPECT_EQ(Run("hub_read_board", {{"board", "Roadmap"}}).status().code(), codes::kNotFound);
}

TEST_F(BoardToolRunsTest, MovePutsATaskOnThenMovesItsCardAndKeepsItsStatus) {
  const std::string board = SeedBoard("Launch");
  const std::string task = SeedTask("Draft brief");
  json prepared;
  EXPECT_EQ(
      *Preview("hub_move_to_board",
               {{"board", "Launch"}, {"itemId", task}, {"itemKind", "task"}, {"column", "to do"}},
               &prepared),
      "Put \u201CDraft brief\u201D on \u201CLaunch\u201D in To do.");
  EXPECT_EQ(prepared["board"], board);
  EXPECT_EQ(prepared["column"], "todo");
  json r = Ok("hub_move_to_board", prepared);
  EXPECT_EQ(r["summary"], "Put \u201CDraft brief\u201D on \u201CLaunch\u201D in To do.");
  const std::string card = r["data"]["card"]["id"];

  EXPECT_EQ(*Preview("hub_move_to_board", {{"board", board}, {"itemId", task}, {"column", "Done"}}),
            "Move \u201CDraft brief\u201D to Done on \u201CLaunch\u201D.");
  r = Ok("hub_move_to_board", {{"board", board}, {"itemId", card}, {"column", "Done"}});
  EXPECT_EQ(r["summary"], "Moved \u201CDraft brief\u201D to Done on \u201CLaunch\u201D.");
  EXPECT_EQ(Count("SELECT COUNT(*) FROM board_cards"), 1);
  EXPECT_EQ(Count("SELECT COUNT(*) FROM board_cards WHERE \"column\" = 'done'"), 1);
  // The task's own status is hub_update_task's, not the column's.
  EXPECT_EQ(Count("SELECT COUNT(*) FROM tasks WHERE status = 'todo'"), 1);

  const int before = writes_;
  r = Ok("hub_move_to_board", {{"board", board}, {"itemId", task}, {"column", "done"}});
  EXPECT_THAT(r["summary"].get<std::string>(), HasSubstr("is already in Done"));
  EXPECT_EQ(writes_, before);

  Result<json> bad =
      Run("hub_move_to_board", {{"board", board}, {"itemId", task}, {"column", "Later"}});
  EXPECT_EQ(bad.status().code(), codes::kInvalidArgument);
  EXPECT_THAT(bad.status().message(), HasSubstr("its columns are To do, Doing and Done"));
}

TEST_F(BoardToolRunsTest, NoteCardsArePutMovedAndTakenOff) {
  const std::string board = SeedBoard("Launch");
  json r = Ok("hub_move_to_board", {{"board", board}, {"note", "Call Mira"}, {"column", "Doing"}});
  EXPECT_EQ(r["summary"], "Added the note \u201CCall Mira\u201D to \u201CLaunch\u201D in Doing.");
  const std::string card = r["data"]["card"]["id"];
  r = Ok("hub_move_to_board",
         {{"board", board}, {"itemId", card}, {"itemKind", "note"}, {"column", "Done"}});
  EXPECT_EQ(r["summary"], "Moved the note \u201CCall Mira\u201D to Done on \u201CLaunch\u201D.");
  EXPECT_EQ(*Preview("hub_remove_from_board", {{"board", board}, {"itemId", card}}),
            "Take the note \u201CCall Mira\u201D off \u201CLaunch\u201D.");
  r = Ok("hub_remove_from_board", {{"board", board}, {"itemId", card}});
  EXPECT_EQ(r["summary"], "Took the note \u201CCall Mira\u201D off \u201CLaunch\u201D.");
  EXPECT_EQ(Count("SELECT COUNT(*) FROM board_cards WHERE deleted = 0"), 0);
  EXPECT_EQ(Run("hub_move_to_board", {{"board", board}, {"column", "Done"}}).status().code(),
            codes::kInvalidArgument);
}

TEST_F(BoardToolRunsTest, RemoveTakesTheCardOffAndTheTaskStays) {
  const std::string board = SeedBoard("Launch");
  const std::string task = SeedTask("Draft brief");
  Ok("hub_move_to_board", {{"board", board}, {"itemId", task}, {"column", "todo"}});
  json prepared;
  EXPECT_EQ(*Preview("hub_remove_from_board", {{"board", "Launch"}, {"itemId", task}}, &prepared),
            "Take \u201CDraft brief\u201D off \u201CLaunch\u201D; the task stays.");
  EXPECT_NE(prepared["itemId"], task) << "prepare fixes the card";
  json r = Ok("hub_remove_from_board", prepared);
  EXPECT_EQ(r["summary"], "Took \u201CDraft brief\u201D off \u201CLaunch\u201D; the task stays.");
  EXPECT_EQ(Count("SELECT COUNT(*) FROM board_cards WHERE deleted = 0"), 0);
  EXPECT_EQ(Count("SELECT COUNT(*) FROM tasks WHERE deleted = 0"), 1);
  // Applied again (stale): the card is gone.
  EXPECT_EQ(Run("hub_remove_from_board", prepared).status().code(), codes::kNotFound);
  Result<json> off = Run("hub_remove_from_board", {{"board", board}, {"itemId", task}});
  EXPECT_EQ(off.status().code(), codes::kNotFound);
  EXPECT_THAT(off.status().message(), HasSubstr("is not on"));
}

TEST_F(BoardToolRunsTest, UpdateKeepsColumnIdsByTitleAndRefusesRemovingAColumnWithCards) {
  const std::string board = SeedBoard("Launch");
  const std::string task = SeedTask("Draft brief");
  Ok("hub_move_to_board", {{"board", board}, {"itemId", task}, {"column", "Doing"}});
  // Titles only: "Doing" keeps its id, so the card stays in it.
  json r = Ok("hub_update_board", {{"board", board},
                                   {"title", "Q3 Launch"},
                                   {"columns", {{{"title", "Doing"}}, {{"title", "Review"}}}}});
  EXPECT_EQ(r["summary"],
            "Updated board \u201CLaunch\u201D: title to \u201CQ3 Launch\u201D, columns Doing and "
            "Review.");
  json read = Ok("hub_read_board", {{"board", board}});
  const json& cols = read["data"]["board"]["columns"];
  ASSERT_EQ(cols.size(), 2u);
  EXPECT_EQ(cols[0]["id"], "doing");
  EXPECT_EQ(cols[0]["cards"].size(), 1u);
  EXPECT_TRUE(IsValidId(cols[1]["id"].get<std::string>()));

  const int before = writes_;
  Result<json> refused =
      Run("hub_update_board", {{"board", board}, {"columns", {{{"title", "Review"}}}}});
  EXPECT_EQ(refused.status().code(), codes::kFailedPrecondition);
  EXPECT_THAT(refused.status().message(),
              HasSubstr("column \u201CDoing\u201D of \u201CQ3 Launch\u201D still has 1 card"));
  EXPECT_EQ(writes_, before);
  EXPECT_EQ(Run("hub_update_board", {{"board", board}}).status().code(), codes::kInvalidArgument);
  r = Ok("hub_update_board",
         {{"board", board}, {"tiles", {{{"kind", "chart"}, {"title", "Flow"}}}}});
  EXPECT_EQ(r["summary"], "Updated board \u201CQ3 Launch\u201D: 1 tile.");
}

TEST_F(BoardToolRunsTest, AnUpdateAppliedAfterTheBoardChangedIsRefused) {
  const std::string board = SeedBoard("Launch");
  json prepared;
  EXPECT_EQ(*Preview("hub_update_board", {{"board", "Launch"}, {"title", "Q3"}}, &prepared),
            "Change board \u201CLaunch\u201D: title to \u201CQ3\u201D.");
  EXPECT_EQ(prepared["base"]["title"], "Launch");
  Mutate("board.update", {{"id", board}, {"fields", {{"title", "Launch v2"}}}});
  Result<json> stale = Run("hub_update_board", prepared);
  EXPECT_EQ(stale.status().code(), codes::kSaveConflict);
  EXPECT_THAT(stale.status().message(), HasSubstr("read the board again"));
  EXPECT_EQ(Ok("hub_read_board", {{"board", board}})["data"]["board"]["title"], "Launch v2");
}

TEST_F(BoardToolRunsTest, DeleteIsHeldNamesTheBoardAndLeavesItsCards) {
  const std::string board = SeedBoard("Launch");
  Ok("hub_move_to_board", {{"board", board}, {"itemId", SeedTask("A")}, {"column", "todo"}});
  Ok("hub_move_to_board", {{"board", board}, {"note", "B"}, {"column", "todo"}});
  json prepared;
  EXPECT_EQ(*Preview("hub_delete_board", {{"board", "launch"}}, &prepared),
            "Delete board \u201CLaunch\u201D; its 2 cards stay.");
  EXPECT_EQ(prepared["board"], board);
  json r = Ok("hub_delete_board", prepared);
  EXPECT_EQ(r["summary"], "Deleted board \u201CLaunch\u201D; its 2 cards stay.");
  EXPECT_EQ(Count("SELECT COUNT(*) FROM boards WHERE deleted = 1"), 1);
  EXPECT_EQ(Count("SELECT COUNT(*) FROM board_cards WHERE deleted = 0"), 2);
  // A board in Trash is not found by the tools any more.
  EXPECT_EQ(Run("hub_read_board", {{"board", board}}).status().code(), codes::kNotFound);
  EXPECT_EQ(Run("hub_delete_board", prepared).status().code(), codes::kNotFound);
}

TEST_F(BoardToolRunsTest, IdsOfAnotherSpaceAreNotFoundAndNothingIsWritten) {
  const std::string theirs = SeedBoard("Theirs", kOtherSpace);
  const std::string their_task = SeedTask("Their task", kOtherSpace);
  const std::string mine = SeedBoard("Mine");
  const int before = writes_;
  const std::pair<const char*, json> calls[] = {
      {"hub_read_board", {{"board", theirs}}},
      {"hub_read_board", {{"board", "/board?board=" + theirs}}},
      {"hub_read_board", {{"board", "Theirs"}}},
      {"hub_update_board", {{"board", theirs}, {"title", "Mine now"}}},
      {"hub_delete_board", {{"board", theirs}}},
      {"hub_move_to_board", {{"board", theirs}, {"note", "x"}, {"column", "todo"}}},
      {"hub_move_to_board", {{"board", mine}, {"itemId", their_task}, {"column", "todo"}}},
      {"hub_remove_from_board", {{"board", mine}, {"itemId", their_task}}},
  };
  for (const auto& [name, input] : calls) {
    EXPECT_EQ(Run(name, input).status().code(), codes::kNotFound) << name << " " << input.dump();
  }
  EXPECT_EQ(writes_, before);
  EXPECT_EQ(Count("SELECT COUNT(*) FROM board_cards"), 0);
  EXPECT_EQ(Count("SELECT COUNT(*) FROM boards WHERE title = 'Theirs' AND deleted = 0"), 1);
}

TEST_F(BoardToolRunsTest, WritesNeedASinkAndReadsAMembership) {
  SeedBoard("Launch");
  ctx_.write = nullptr;
  EXPECT_EQ(Run("hub_create_board", {{"title", "X"}}).status().code(), codes::kFailedPrecondition);
  ctx_.account_id = "stranger";
  EXPECT_EQ(Run("hub_list_boards", json::object()).status().code(), codes::kNotFound);
}

}  // namespace
}  // namespace ensemble::core::boards
