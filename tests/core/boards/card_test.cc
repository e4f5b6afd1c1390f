// Board cards over a store migrated as the hub's: the checks behind
// card.create and card.update (board, column, task, note), the _base rule
// on moves (two devices moving one card conflict; a move and a note edit
// merge), and who may write cards.

#include "core/boards/card.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "core/boards/board.h"
#include "core/hub/hub.h"
#include "core/records/record_mutators.h"
#include "core/store/sqlite_database.h"
#include "core/sync/authorization.h"

namespace ensemble::core::boards {
namespace {

using nlohmann::json;

constexpr char kBoard[] = "01JB0000000000000000000B01";
constexpr char kOtherBoard[] = "01JB0000000000000000000B02";
constexpr char kTask[] = "01JB0000000000000000000T01";
constexpr char kOtherTask[] = "01JB0000000000000000000T02";
constexpr char kCard[] = "01JB0000000000000000000C01";
constexpr char kNoteCard[] = "01JB0000000000000000000C02";

class CardTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = std::move(store::SqliteDatabase::Open(":memory:")).value();
    ASSERT_TRUE(hub::Migrate(*db_).ok());
    const json cols = json::array({{{"id", "todo"}, {"title", "To do"}},
                                   {{"id", "doing"}, {"title", "Doing"}},
                                   {{"id", "done"}, {"title", "Done"}}});
    ASSERT_TRUE(Run("board.create",
                    {{"id", kBoard}, {"spaceId", "s"}, {"title", "Launch"}, {"columns", cols}})
                    .ok());
    ASSERT_TRUE(Run("board.create",
                    {{"id", kOtherBoard}, {"spaceId", "t"}, {"title", "Theirs"}, {"columns", cols}})
                    .ok());
    ASSERT_TRUE(Run("task.create", {{"id", kTask}, {"spaceId", "s"}, {"title", "Draft"}}).ok());
    ASSERT_TRUE(Run("task.create", {{"id", kOtherTask}, {"spaceId", "t"}, {"title", "X"}}).ok());
  }

  Status Run(const std::string& name, const json& args, json* details = nullptr) {
    store::Transaction txn(*db_);
    sync::MutationContext ctx(*db_, 1000);
    Status st = (*hub::Config().mutators->Find(name))(ctx, args);
    if (details) *details = ctx.details();
    if (st.ok()) EXPECT_TRUE(txn.Commit().ok());
    return st;
  }

  json Card(const char* id = kCard) {
    auto row = records::ReadRecord(kCardRecordKind, *db_, id);
    EXPECT_TRUE(row.ok() && row->has_value()) << id;
    return row.ok() && *row ? records::FieldsOf(kCardRecordKind, **row) : json();
  }

  int64_t Cards() {
    auto count = db_->Query("SELECT COUNT(*) FROM board_cards");
    return count.ok() ? store::AsInt(count->rows[0][0]) : -1;
  }

  json TaskCard(const char* id = kCard, const char* column = "todo") {
    return {{"id", id}, {"spaceId", "s"}, {"board", kBoard}, {"column", column}, {"task", kTask}};
  }

  std::unique_ptr<store::SqliteDatabase> db_;
};

TEST_F(CardTest, TaskAndNoteCardsAreStored) {
  ASSERT_TRUE(Run("card.create", TaskCard()).ok());
  json c = Card();
  EXPECT_EQ(c["board"], kBoard);
  EXPECT_EQ(c["column"], "todo");
  EXPECT_EQ(c["task"], kTask);
  EXPECT_EQ(c["note"], "");
  EXPECT_EQ(c["position"], 0);
  ASSERT_TRUE(Run("card.create", {{"id", kNoteCard},
                                  {"spaceId", "s"},
                                  {"board", kBoard},
                                  {"column", "done"},
                                  {"note", "Ship it"},
                                  {"position", 20}})
                  .ok());
  c = Card(kNoteCard);
  EXPECT_TRUE(c["task"].is_null());
  EXPECT_EQ(c["note"], "Ship it");
  EXPECT_EQ(c["position"], 20);
}

TEST_F(CardTest, CreateChecksBoardColumnTaskAndNote) {
  struct Case {
    json args;
    std::string_view code;
  };
  json note_and_task = TaskCard();
  note_and_task["note"] = "both";
  json neither = TaskCard();
  neither.erase("task");
  neither["note"] = "   ";
  json other_board = TaskCard();
  other_board["board"] = kOtherBoard;
  json missing_board = TaskCard();
  missing_board["board"] = "01JB0000000000000000000B99";
  json other_task = TaskCard();
  other_task["task"] = kOtherTask;
  json no_column = TaskCard(kCard, "later");
  json no_board = TaskCard();
  no_board.erase("board");
  json bad_position = TaskCard();
  bad_position["position"] = -1;
  const Case cases[] = {
      {note_and_task, codes::kInvalidArgument}, {neither, codes::kInvalidArgument},
      {other_board, codes::kNotFound},          {missing_board, codes::kNotFound},
      {other_task, codes::kNotFound},           {no_column, codes::kInvalidArgument},
      {no_board, codes::kInvalidArgument},      {bad_position, codes::kInvalidArgument},
  };
  for (const Case& c : cases) EXPECT_EQ(Run("card.create", c.args).code(), c.code) << c.args.dump();
  EXPECT_EQ(Cards(), 0);
}

TEST_F(CardTest, ABoardInTrashOrATaskInTrashTakesNoCards) {
  ASSERT_TRUE(Run("task.delete", {{"id", kTask}}).ok());
  EXPECT_EQ(Run("card.create", TaskCard()).code(), codes::kNotFound);
  ASSERT_TRUE(Run("task.restore", {{"id", kTask}}).ok());
  ASSERT_TRUE(Run("board.delete", {{"id", kBoard}}).ok());
  EXPECT_EQ(Run("card.create", TaskCard()).code(), codes::kFailedPrecondition);
  EXPECT_EQ(Cards(), 0);
}

TEST_F(CardTest, ATaskIsOnABoardOnce) {
  ASSERT_TRUE(Run("card.create", TaskCard()).ok());
  json details;
  EXPECT_EQ(Run("card.create", TaskCard(kNoteCard, "done"), &details).code(),
            codes::kAlreadyExists);
  EXPECT_EQ(details["card"], kCard);
  // Taken off, it can be put on again.
  ASSERT_TRUE(Run("card.delete", {{"id", kCard}}).ok());
  EXPECT_TRUE(Run("card.create", TaskCard(kNoteCard, "done")).ok());
}

TEST_F(CardTest, TwoDevicesMovingOneCardToDifferentColumnsConflict) {
  ASSERT_TRUE(Run("card.create", TaskCard()).ok());
  const json base = {{"column", "todo"}, {"position", 0}};
  ASSERT_TRUE(
      Run("card.update",
          {{"id", kCard}, {"fields", {{"column", "doing"}, {"position", 10}}}, {"base", base}})
          .ok());
  json details;
  EXPECT_EQ(Run("card.update",
                {{"id", kCard}, {"fields", {{"column", "done"}, {"position", 10}}}, {"base", base}},
                &details)
                .code(),
            codes::kSaveConflict);
  EXPECT_EQ(details["fields"], json({"column"}));
  EXPECT_EQ(details["current"]["column"], "doing");
  EXPECT_EQ(Card()["column"], "doing");
  // The same move from both devices is no conflict.
  EXPECT_TRUE(
      Run("card.update",
          {{"id", kCard}, {"fields", {{"column", "doing"}, {"position", 10}}}, {"base", base}})
          .ok());
}

TEST_F(CardTest, AMoveAndANoteEditMerge) {
  ASSERT_TRUE(Run("card.create", {{"id", kNoteCard},
                                  {"spaceId", "s"},
                                  {"board", kBoard},
                                  {"column", "todo"},
                                  {"note", "Call Mira"}})
                  .ok());
  ASSERT_TRUE(Run("card.update", {{"id", kNoteCard},
                                  {"fields", {{"column", "done"}, {"position", 5}}},
                                  {"base", {{"column", "todo"}, {"position", 0}}}})
                  .ok());
  ASSERT_TRUE(Run("card.update", {{"id", kNoteCard},
                                  {"fields", {{"note", "Call Mira back"}}},
                                  {"base", {{"note", "Call Mira"}}}})
                  .ok());
  json c = Card(kNoteCard);
  EXPECT_EQ(c["column"], "done");
  EXPECT_EQ(c["position"], 5);
  EXPECT_EQ(c["note"], "Call Mira back");
}

TEST_F(CardTest, AMoveAndRetitlingTheTaskMerge) {
  ASSERT_TRUE(Run("card.create", TaskCard()).ok());
  ASSERT_TRUE(Run("card.update",
                  {{"id", kCard}, {"fields", {{"column", "done"}}}, {"base", {{"column", "todo"}}}})
                  .ok());
  ASSERT_TRUE(Run("task.update",
                  {{"id", kTask}, {"fields", {{"title", "Final"}}}, {"base", {{"title", "Draft"}}}})
                  .ok());
  EXPECT_EQ(Card()["column"], "done");
  EXPECT_EQ(Card()["task"], kTask);
}

TEST_F(CardTest, UpdatesKeepTheCardsBoardTaskAndKind) {
  ASSERT_TRUE(Run("card.create", TaskCard()).ok());
  const json bad[] = {
      {{"column", "later"}},
      {{"board", kOtherBoard}},
      {{"task", kOtherTask}},
      {{"note", "now a note"}},
      {{"position", kMaxCardPosition + 1}},
  };
  for (const json& fields : bad) {
    EXPECT_EQ(Run("card.update", {{"id", kCard}, {"fields", fields}}).code(),
              codes::kInvalidArgument)
        << fields.dump();
  }
  EXPECT_EQ(Card()["column"], "todo");
  EXPECT_EQ(
      Run("card.update", {{"id", "01JB0000000000000000000C99"}, {"fields", {{"position", 1}}}})
          .code(),
      codes::kNotFound);
  ASSERT_TRUE(Run("card.delete", {{"id", kCard}}).ok());
  EXPECT_EQ(Run("card.update", {{"id", kCard}, {"fields", {{"column", "done"}}}}).code(),
            codes::kRecordDeleted);
}

TEST_F(CardTest, TakingACardOffKeepsTheTask) {
  ASSERT_TRUE(Run("card.create", TaskCard()).ok());
  ASSERT_TRUE(Run("card.delete", {{"id", kCard}}).ok());
  auto task = db_->Query("SELECT deleted FROM tasks WHERE id = $1", {store::Value(kTask)});
  ASSERT_TRUE(task.ok());
  EXPECT_EQ(store::AsInt(task->rows[0][0]), 0);
}

TEST_F(CardTest, EditorsWriteCardsGuestsAndViewersDoNot) {
  ASSERT_TRUE(Run("card.create", TaskCard()).ok());
  const json update = {{"id", kCard}, {"fields", {{"column", "done"}}}};
  const json create = TaskCard(kNoteCard);
  for (sync::Role role :
       {sync::Role::kOwner, sync::Role::kEditor, sync::Role::kGuest, sync::Role::kViewer}) {
    ASSERT_TRUE(sync::SetMember(*db_, "s", "me", role).ok());
    const bool may = role == sync::Role::kOwner || role == sync::Role::kEditor;
    for (const auto& [name, args] : {std::pair<const char*, json>{"card.create", create},
                                     {"card.update", update},
                                     {"card.delete", update}}) {
      Status st = sync::AuthorizeMutation(*db_, hub::Config(), "me", name, args);
      EXPECT_EQ(st.ok(), may) << sync::RoleName(role) << " " << name << ": " << st.ToString();
    }
  }
  // A card of a space the account cannot open is not found.
  EXPECT_EQ(sync::AuthorizeMutation(*db_, hub::Config(), "stranger", "card.update", update).code(),
            codes::kNotFound);
}

}  // namespace
}  // namespace ensemble::core::boards
