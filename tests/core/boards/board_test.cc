// The board record's fields over a store migrated as the hub's: columns and
// tiles kept as JSON values, their shape checks, and the _base rule over
// them.

#include "core/boards/board.h"

#include <gtest/gtest.h>

#include <memory>
#include <span>
#include <string>

#include "core/hub/hub.h"
#include "core/records/record_mutators.h"
#include "core/store/sqlite_database.h"

namespace ensemble::core::boards {
namespace {

using nlohmann::json;

constexpr char kId[] = "01JB0000000000000000000001";

json Cols(std::initializer_list<std::pair<const char*, const char*>> cols) {
  json out = json::array();
  for (const auto& [id, title] : cols) out.push_back({{"id", id}, {"title", title}});
  return out;
}

class BoardTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = std::move(store::SqliteDatabase::Open(":memory:")).value();
    ASSERT_TRUE(hub::Migrate(*db_).ok());
  }

  Status Run(const std::string& name, const json& args, json* details = nullptr) {
    store::Transaction txn(*db_);
    sync::MutationContext ctx(*db_, 1000);
    Status st = (*hub::Config().mutators->Find(name))(ctx, args);
    if (details) *details = ctx.details();
    if (st.ok()) EXPECT_TRUE(txn.Commit().ok());
    return st;
  }

  json Fields() {
    auto row = records::ReadRecord(kBoardKind, *db_, kId);
    EXPECT_TRUE(row.ok() && row->has_value());
    return records::FieldsOf(kBoardKind, **row);
  }

  std::unique_ptr<store::SqliteDatabase> db_;
};

TEST_F(BoardTest, ColumnsAndTilesDefaultToEmptyLists) {
  ASSERT_TRUE(Run("board.create", {{"id", kId}, {"spaceId", "s"}, {"title", " Launch "}}).ok());
  json f = Fields();
  EXPECT_EQ(f["title"], "Launch");
  EXPECT_EQ(f["description"], "");
  EXPECT_EQ(f["columns"], json::array());
  EXPECT_EQ(f["tiles"], json::array());
}

TEST_F(BoardTest, ColumnsAndTilesRoundTripInOrder) {
  const json cols = Cols({{"todo", "To do"}, {"doing", "Doing"}, {"done", "Done"}});
  const json tiles = json::array({{{"kind", "chart"}, {"title", "Burn-down"}}, {{"kind", "list"}}});
  ASSERT_TRUE(
      Run("board.create",
          {{"id", kId}, {"spaceId", "s"}, {"title", "Launch"}, {"columns", cols}, {"tiles", tiles}})
          .ok());
  EXPECT_EQ(Fields()["columns"], cols);
  EXPECT_EQ(Fields()["tiles"], tiles);
  // Reordering is an update of the whole list.
  const json reordered = Cols({{"done", "Done"}, {"todo", "To do"}});
  ASSERT_TRUE(Run("board.update", {{"id", kId}, {"fields", {{"columns", reordered}}}}).ok());
  EXPECT_EQ(Fields()["columns"], reordered);
}

TEST_F(BoardTest, BadColumnsAndTilesAreRefusedAndNothingWritten) {
  json too_many = json::array();
  for (size_t i = 0; i <= kMaxColumns; ++i) {
    too_many.push_back({{"id", "c" + std::to_string(i)}, {"title", "C"}});
  }
  json too_many_tiles = json::array();
  for (size_t i = 0; i <= kMaxTiles; ++i) too_many_tiles.push_back({{"kind", "list"}});
  const json bad[] = {
      {{"columns", Cols({{"a", "A"}, {"a", "B"}})}},
      {{"columns", Cols({{"a", "  "}})}},
      {{"columns", Cols({{"", "A"}})}},
      {{"columns", json::array({{{"id", "a"}}})}},
      {{"columns", json::array({{{"id", "a"}, {"title", "A"}, {"color", "red"}}})}},
      {{"columns", json::array({"To do"})}},
      {{"columns", json::object()}},
      {{"columns", Cols({{"a", std::string(kMaxColumnTitleChars + 1, 'x').c_str()}})}},
      {{"columns", too_many}},
      {{"tiles", too_many_tiles}},
      {{"tiles", json::array({{{"title", "No kind"}}})}},
      {{"tiles", json::array({{{"kind", "list"}, {"title", 3}}})}},
  };
  for (json args : bad) {
    args["id"] = kId;
    args["spaceId"] = "s";
    args["title"] = "B";
    EXPECT_EQ(Run("board.create", args).code(), codes::kInvalidArgument) << args.dump();
  }
  auto count = db_->Query("SELECT COUNT(*) FROM boards");
  ASSERT_TRUE(count.ok());
  EXPECT_EQ(store::AsInt(count->rows[0][0]), 0);
}

TEST_F(BoardTest, ConcurrentColumnEditsConflictAndATitleEditMerges) {
  const json cols = Cols({{"todo", "To do"}});
  ASSERT_TRUE(
      Run("board.create", {{"id", kId}, {"spaceId", "s"}, {"title", "B"}, {"columns", cols}}).ok());
  ASSERT_TRUE(Run("board.update", {{"id", kId},
                                   {"fields", {{"columns", Cols({{"todo", "Backlog"}})}}},
                                   {"base", {{"columns", cols}}}})
                  .ok());
  json details;
  EXPECT_EQ(Run("board.update",
                {{"id", kId},
                 {"fields", {{"columns", Cols({{"todo", "Later"}})}}},
                 {"base", {{"columns", cols}}}},
                &details)
                .code(),
            codes::kSaveConflict);
  EXPECT_EQ(details["fields"], json({"columns"}));
  ASSERT_TRUE(Run("board.update",
                  {{"id", kId}, {"fields", {{"title", "Team"}}}, {"base", {{"title", "B"}}}})
                  .ok());
  EXPECT_EQ(Fields()["title"], "Team");
  EXPECT_EQ(Fields()["columns"], Cols({{"todo", "Backlog"}}));
}

TEST(BoardMigration, BoardsMadeBeforeColumnsGetEmptyListsAndCardsATable) {
  auto db = std::move(store::SqliteDatabase::Open(":memory:")).value();
  std::span<const store::Migration> all = hub::Migrations();
  size_t before = 0;
  while (before < all.size() && all[before].version < 16) ++before;
  ASSERT_LT(before, all.size());
  ASSERT_TRUE(store::Migrate(*db, all.first(before)).ok());
  ASSERT_TRUE(db->Exec("INSERT INTO boards (id, space_id, title, description, version, deleted,"
                       " created_at, updated_at, row_version) VALUES ($1, 's', 'Old', '', 1, 0,"
                       " 1, 1, 0)",
                       {store::Value(std::string(kId))})
                  .ok());
  ASSERT_TRUE(store::Migrate(*db, all).ok());
  auto row = records::ReadRecord(kBoardKind, *db, kId);
  ASSERT_TRUE(row.ok() && row->has_value());
  EXPECT_EQ((**row)["columns"], json::array());
  EXPECT_EQ((**row)["tiles"], json::array());
  auto cards = db->Query("SELECT COUNT(*) FROM board_cards");
  ASSERT_TRUE(cards.ok());
  EXPECT_EQ(store::AsInt(cards->rows[0][0]), 0);
}

TEST(BoardColumns, FindColumnByIdOnly) {
  const json cols = Cols({{"todo", "To do"}, {"done", "Done"}});
  ASSERT_NE(FindColumn(cols, "done"), nullptr);
  EXPECT_EQ((*FindColumn(cols, "done"))["title"], "Done");
  EXPECT_EQ(FindColumn(cols, "Done"), nullptr);
  EXPECT_EQ(FindColumn(json::object(), "done"), nullptr);
  EXPECT_TRUE(CheckColumns(json::array()).ok());
}

}  // namespace
}  // namespace ensemble::core::boards
