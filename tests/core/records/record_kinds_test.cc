// The generic record machinery (core/records) through the kinds that use it:
// validation from the descriptor, defaults, the _base rule, soft deletion,
// restore, and edits of deleted records being reported.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "core/boards/board.h"
#include "core/hub/hub.h"
#include "core/pages/page.h"
#include "core/people/person.h"
#include "core/projects/project.h"
#include "core/records/record_mutators.h"
#include "core/store/migrations.h"
#include "core/store/sqlite_database.h"
#include "core/sync/mutator.h"
#include "core/tasks/task.h"

namespace ensemble::core::records {
namespace {

using nlohmann::json;

constexpr char kId[] = "01JB0000000000000000000001";
constexpr char kOtherId[] = "01JB0000000000000000000002";

class RecordKinds : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = std::move(store::SqliteDatabase::Open(":memory:")).value();
    ASSERT_TRUE(hub::Migrate(*db_).ok());
  }

  // Runs mutator `name` from the hub's registry in a transaction committed
  // only on success, as both sync sides do.
  Status Run(const std::string& name, const json& args, int64_t now = 1000,
             json* details = nullptr) {
    const sync::Mutator* m = hub::Config().mutators->Find(name);
    if (!m) return Status(codes::kUnknownMutation, name);
    store::Transaction txn(*db_);
    sync::MutationContext ctx(*db_, now);
    Status st = (*m)(ctx, args);
    if (details) *details = ctx.details();
    if (st.ok()) EXPECT_TRUE(txn.Commit().ok());
    return st;
  }

  json Row(const RecordKind& kind, const std::string& id) {
    auto row = ReadRecord(kind, *db_, id);
    EXPECT_TRUE(row.ok() && row->has_value()) << id;
    return row.ok() && row->has_value() ? **row : json();
  }

  std::unique_ptr<store::SqliteDatabase> db_;
};

TEST_F(RecordKinds, EveryKindIsRegisteredAndSyncs) {
  const RecordKind* kinds[] = {&tasks::kTaskKind, &projects::kProjectKind, &people::kPersonKind,
                               &pages::kPageKind, &boards::kBoardKind};
  sync::SyncConfig config = hub::Config();
  for (const RecordKind* kind : kinds) {
    const std::string k(kind->kind);
    SCOPED_TRACE(k);
    for (const char* verb : {".create", ".update", ".delete", ".restore"}) {
      EXPECT_NE(config.mutators->Find(k + verb), nullptr) << verb;
    }
    ASSERT_NE(config.FindKind(kind->kind), nullptr);
    EXPECT_EQ(config.FindKind(kind->kind)->table, kind->table);
    // The columns every synced table has, and the index pull relies on.
    auto cols = db_->Query("SELECT * FROM " + std::string(kind->table) + " LIMIT 0");
    ASSERT_TRUE(cols.ok());
    for (const char* c : {"id", "space_id", "version", "deleted", "created_at", "updated_at",
                          "row_version"}) {
      EXPECT_NE(std::find(cols->columns.begin(), cols->columns.end(), c), cols->columns.end()) << c;
    }
    for (const FieldSpec& f : kind->fields) {
      EXPECT_NE(std::find(cols->columns.begin(), cols->columns.end(), f.name), cols->columns.end())
          << f.name;
    }
    auto index = db_->Query(
        "SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND tbl_name = $1 AND sql LIKE "
        "'%(row_version)%'",
        {store::Value(std::string(kind->table))});
    EXPECT_EQ(store::AsInt(index->rows[0][0]), 1);
  }
}

TEST_F(RecordKinds, MigrationsAreAppendedInOrder) {
  int64_t previous = 0;
  for (const store::Migration& m : hub::Migrations()) {
    EXPECT_GT(m.version, previous) << m.name;
    previous = m.version;
  }
  EXPECT_EQ(*store::SchemaVersion(*db_), previous);
  EXPECT_EQ(hub::Migrations()[0].version, 1);  // Tasks, shipped.
  EXPECT_EQ(hub::Migrations()[1].version, 2);  // Sync tables, shipped.
}

TEST_F(RecordKinds, CreateFillsDefaultsAndTrimsOnlyWhereTheKindSaysSo) {
  ASSERT_TRUE(Run("project.create", {{"id", kId}, {"spaceId", "s"}, {"title", "  Q3  "}}, 5000).ok());
  json p = Row(projects::kProjectKind, kId);
  EXPECT_EQ(p["title"], "Q3");
  EXPECT_EQ(p["description"], "");
  EXPECT_EQ(p["status"], "active");
  EXPECT_EQ(p["version"], 1);
  EXPECT_EQ(p["deleted"], 0);
  EXPECT_EQ(p["created_at"], 5000);
  EXPECT_EQ(p["updated_at"], 5000);
  EXPECT_EQ(p["space_id"], "s");

  ASSERT_TRUE(
      Run("page.create", {{"id", kId}, {"spaceId", "s"}, {"title", "Notes"}, {"body", "  - a\n  - b\n"}})
          .ok());
  EXPECT_EQ(Row(pages::kPageKind, kId)["body"], "  - a\n  - b\n");

  ASSERT_TRUE(Run("person.create", {{"id", kId}, {"spaceId", "s"}, {"name", " Ana "}}).ok());
  EXPECT_EQ(Row(people::kPersonKind, kId)["name"], "Ana");
  EXPECT_TRUE(Row(people::kPersonKind, kId)["email"].is_null());
}

TEST_F(RecordKinds, CreateRefusesWhatTheDescriptorForbids) {
  const std::pair<const char*, json> kBad[] = {
      {"project.create", {{"id", kId}, {"spaceId", "s"}}},
      {"project.create", {{"id", kId}, {"spaceId", "s"}, {"title", "x"}, {"status", "someday"}}},
      {"project.create", {{"id", kId}, {"spaceId", "s"}, {"title", "x"}, {"owner", "me"}}},
      {"project.create",
       {{"id", kId}, {"spaceId", "s"}, {"title", "x"},
        {"description", std::string(projects::kMaxDescriptionChars + 1, 'd')}}},
      {"person.create", {{"id", kId}, {"spaceId", "s"}, {"name", "  "}}},
      {"person.create",
       {{"id", kId}, {"spaceId", "s"}, {"name", "Ana"},
        {"email", std::string(people::kMaxEmailChars + 1, 'e')}}},
      {"person.create", {{"id", kId}, {"spaceId", "s"}, {"name", "Ana"}, {"email", 5}}},
      {"page.create", {{"id", kId}, {"spaceId", "s"}, {"title", "x"}, {"body", nullptr}}},
      {"board.create", {{"id", "nope"}, {"spaceId", "s"}, {"title", "x"}}},
      {"board.create", {{"id", kId}, {"spaceId", ""}, {"title", "x"}}},
      {"board.create", {{"id", kId}, {"spaceId", "s"}, {"title", "\xC0\xAF"}}},
  };
  for (const auto& [name, args] : kBad) {
    EXPECT_EQ(Run(name, args).code(), codes::kInvalidArgument) << name << " " << args.dump();
  }
  for (const char* table : {"projects", "people", "pages", "boards"}) {
    EXPECT_EQ(store::AsInt(db_->Query(std::string("SELECT COUNT(*) FROM ") + table)->rows[0][0]), 0)
        << table;
  }
}

TEST_F(RecordKinds, CreateTwiceIsAlreadyExists) {
  json args = {{"id", kId}, {"spaceId", "s"}, {"title", "Team"}};
  ASSERT_TRUE(Run("board.create", args).ok());
  EXPECT_EQ(Run("board.create", args).code(), codes::kAlreadyExists);
}

TEST_F(RecordKinds, NullableFieldsTakeAndDropAValue) {
  ASSERT_TRUE(Run("person.create", {{"id", kId}, {"spaceId", "s"}, {"name", "Ana"},
                                    {"email", " ana@example.com "}})
                  .ok());
  EXPECT_EQ(Row(people::kPersonKind, kId)["email"], "ana@example.com");
  ASSERT_TRUE(Run("person.update", {{"id", kId}, {"fields", {{"email", nullptr}}}}).ok());
  EXPECT_TRUE(Row(people::kPersonKind, kId)["email"].is_null());
}

TEST_F(RecordKinds, UpdateMergesDisjointFieldsUnderBase) {
  ASSERT_TRUE(Run("board.create", {{"id", kId}, {"spaceId", "s"}, {"title", "a"}}).ok());
  ASSERT_TRUE(Run("board.update", {{"id", kId}, {"fields", {{"description", "theirs"}}}}).ok());
  ASSERT_TRUE(
      Run("board.update", {{"id", kId}, {"fields", {{"title", "b"}}}, {"base", {{"title", "a"}}}}, 3000)
          .ok());
  json b = Row(boards::kBoardKind, kId);
  EXPECT_EQ(b["title"], "b");
  EXPECT_EQ(b["description"], "theirs");
  EXPECT_EQ(b["version"], 3);
  EXPECT_EQ(b["updated_at"], 3000);
}

TEST_F(RecordKinds, OverwritingAConcurrentChangeIsASaveConflictAndWritesNothing) {
  ASSERT_TRUE(Run("project.create", {{"id", kId}, {"spaceId", "s"}, {"title", "a"}}).ok());
  ASSERT_TRUE(Run("project.update", {{"id", kId}, {"fields", {{"status", "done"}}}}).ok());
  json details;
  Status st = Run("project.update",
                  {{"id", kId},
                   {"fields", {{"status", "archived"}, {"title", "mine"}}},
                   {"base", {{"status", "active"}}}},
                  2000, &details);
  EXPECT_EQ(st.code(), codes::kSaveConflict);
  EXPECT_EQ(details["fields"], json::array({"status"}));
  EXPECT_EQ(details["current"], json({{"status", "done"}}));
  EXPECT_EQ(details["version"], 2);
  json p = Row(projects::kProjectKind, kId);
  EXPECT_EQ(p["title"], "a");
  EXPECT_EQ(p["status"], "done");
  EXPECT_EQ(p["version"], 2);
}

TEST_F(RecordKinds, UpdateRefusesUnknownFieldsAndBadBase) {
  ASSERT_TRUE(Run("page.create", {{"id", kId}, {"spaceId", "s"}, {"title", "a"}}).ok());
  EXPECT_EQ(Run("page.update", {{"id", kId}, {"fields", {{"status", "x"}}}}).code(),
            codes::kInvalidArgument);
  EXPECT_EQ(Run("page.update", {{"id", kId}, {"fields", {{"body", "b"}}}, {"base", {{"title", "a"}}}})
                .code(),
            codes::kInvalidArgument);
  EXPECT_EQ(Run("page.update", {{"id", kId}, {"fields", {{"body", "b"}}}, {"base", {{"body", 1}}}})
                .code(),
            codes::kInvalidArgument);
  EXPECT_EQ(Run("page.update", {{"id", kId}, {"fields", {{"title", ""}}}}).code(),
            codes::kInvalidArgument);
  EXPECT_EQ(Row(pages::kPageKind, kId)["version"], 1);
}

TEST_F(RecordKinds, DeleteIsSoftAndRestoreBringsTheRecordBack) {
  ASSERT_TRUE(Run("page.create", {{"id", kId}, {"spaceId", "s"}, {"title", "a"}, {"body", "b"}}).ok());
  ASSERT_TRUE(Run("page.delete", {{"id", kId}}, 2000).ok());
  json deleted = Row(pages::kPageKind, kId);
  EXPECT_EQ(deleted["deleted"], 1);
  EXPECT_EQ(deleted["version"], 2);
  EXPECT_EQ(deleted["updated_at"], 2000);
  EXPECT_EQ(deleted["body"], "b");  // Kept, so Trash can give it back.
  // Deleting again is not a failure (another device may have got there
  // first), and writes nothing.
  EXPECT_TRUE(Run("page.delete", {{"id", kId}}, 2500).ok());
  EXPECT_EQ(Row(pages::kPageKind, kId), deleted);

  ASSERT_TRUE(Run("page.restore", {{"id", kId}}, 3000).ok());
  json restored = Row(pages::kPageKind, kId);
  EXPECT_EQ(restored["deleted"], 0);
  EXPECT_EQ(restored["version"], 3);
  EXPECT_EQ(restored["updated_at"], 3000);
  EXPECT_EQ(restored["body"], "b");
  EXPECT_TRUE(Run("page.restore", {{"id", kId}}, 3500).ok());
  EXPECT_EQ(Row(pages::kPageKind, kId), restored);
}

TEST_F(RecordKinds, DeletedRecordEditIsReported) {
  ASSERT_TRUE(Run("project.create",
                  {{"id", kId}, {"spaceId", "s"}, {"title", "Q3"}, {"description", "plan"}})
                  .ok());
  ASSERT_TRUE(Run("project.delete", {{"id", kId}}).ok());
  json details;
  Status st = Run("project.update", {{"id", kId}, {"fields", {{"title", "Q4"}}}}, 2000, &details);
  EXPECT_EQ(st.code(), codes::kRecordDeleted);
  EXPECT_NE(st.message().find("Trash"), std::string::npos) << st.message();
  EXPECT_EQ(details["deleted"], true);
  EXPECT_EQ(details["current"],
            json({{"title", "Q3"}, {"description", "plan"}, {"status", "active"}}));
  EXPECT_EQ(details["version"], 2);
  EXPECT_EQ(Row(projects::kProjectKind, kId)["title"], "Q3");
  EXPECT_EQ(Row(projects::kProjectKind, kId)["version"], 2);

  // Restored, the same edit applies.
  ASSERT_TRUE(Run("project.restore", {{"id", kId}}).ok());
  EXPECT_TRUE(Run("project.update", {{"id", kId}, {"fields", {{"title", "Q4"}}}}).ok());
  EXPECT_EQ(Row(projects::kProjectKind, kId)["title"], "Q4");
}

TEST_F(RecordKinds, MissingRecordIsNotFound) {
  for (const char* name : {"board.delete", "board.restore"}) {
    EXPECT_EQ(Run(name, {{"id", kOtherId}}).code(), codes::kNotFound) << name;
  }
  EXPECT_EQ(Run("board.update", {{"id", kOtherId}, {"fields", {{"title", "x"}}}}).code(),
            codes::kNotFound);
  EXPECT_EQ(Run("board.delete", {{"id", kOtherId}, {"hard", true}}).code(), codes::kInvalidArgument);
}

TEST(FieldChecks, DatesAreRealCalendarDates) {
  EXPECT_TRUE(IsIsoDate("2028-02-29"));
  EXPECT_FALSE(IsIsoDate("2027-02-29"));
  EXPECT_FALSE(IsIsoDate("2026-13-01"));
  EXPECT_FALSE(IsIsoDate("2026-1-01"));
  EXPECT_FALSE(IsIsoDate("2026-01-0a"));
}

}  // namespace
}  // namespace ensemble::core::records
