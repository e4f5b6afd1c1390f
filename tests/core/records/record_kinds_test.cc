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
  sync::SyncConfig config = hub::Config();
  ASSERT_GE(config.tables.size(), 13u);
  // One list: the synced tables are the kinds' own.
  EXPECT_EQ(hub::RecordKinds().all.size(), config.tables.size());
  EXPECT_EQ(hub::FindRecordKind("no_such_kind"), nullptr);
  for (const sync::SyncedTable& table : config.tables) {
    const std::string k(table.kind);
    SCOPED_TRACE(k);
    // Every synced table has its descriptor, so every replica types its fields.
    const RecordKind* kind = hub::FindRecordKind(table.kind);
    ASSERT_NE(kind, nullptr);
    for (const char* verb : {".create", ".update", ".delete", ".restore"}) {
      EXPECT_NE(config.mutators->Find(k + verb), nullptr) << verb;
    }
    ASSERT_NE(config.FindKind(kind->kind), nullptr);
    EXPECT_EQ(config.FindKind(kind->kind)->table, kind->table);
    // The columns every synced table has, and the index pull relies on.
    auto cols = db_->Query("SELECT * FROM " + std::string(kind->table) + " LIMIT 0");
    ASSERT_TRUE(cols.ok());
    for (const char* c :
         {"id", "space_id", "version", "deleted", "created_at", "updated_at", "row_version"}) {
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

TEST_F(RecordKinds, ALiveRecordIsFoundOnlyInItsSpaceAndOutOfTrash) {
  ASSERT_TRUE(Run("task.create", {{"id", kId}, {"spaceId", "here"}, {"title", "a"}}).ok());
  const sync::SyncedTable tasks = tasks::kTaskKind.synced_table();
  EXPECT_TRUE(CheckLiveRecord(*db_, tasks, kId, "here").ok());
  // Another space, Trash and no record at all get the same answer.
  const Status elsewhere = CheckLiveRecord(*db_, tasks, kId, "there");
  EXPECT_EQ(elsewhere.code(), codes::kNotFound);
  EXPECT_EQ(elsewhere.message(), std::string("no task with id ") + kId);
  EXPECT_EQ(CheckLiveRecord(*db_, tasks, kOtherId, "here").message(),
            std::string("no task with id ") + kOtherId);
  ASSERT_TRUE(Run("task.delete", {{"id", kId}}).ok());
  EXPECT_EQ(CheckLiveRecord(*db_, tasks, kId, "here").message(), elsewhere.message());
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
  ASSERT_TRUE(
      Run("project.create", {{"id", kId}, {"spaceId", "s"}, {"title", "  Q3  "}}, 5000).ok());
  json p = Row(projects::kProjectKind, kId);
  EXPECT_EQ(p["title"], "Q3");
  EXPECT_EQ(p["description"], "");
  EXPECT_EQ(p["status"], "active");
  EXPECT_EQ(p["version"], 1);
  EXPECT_EQ(p["deleted"], 0);
  EXPECT_EQ(p["created_at"], 5000);
  EXPECT_EQ(p["updated_at"], 5000);
  EXPECT_EQ(p["space_id"], "s");

  ASSERT_TRUE(Run("page.create",
                  {{"id", kId}, {"spaceId", "s"}, {"title", "Notes"}, {"body", "  - a\n  - b\n"}})
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
       {{"id", kId},
        {"spaceId", "s"},
        {"title", "x"},
        {"description", std::string(projects::kMaxDescriptionChars + 1, 'd')}}},
      {"person.create", {{"id", kId}, {"spaceId", "s"}, {"name", "  "}}},
      {"person.create",
       {{"id", kId},
        {"spaceId", "s"},
        {"name", "Ana"},
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
  ASSERT_TRUE(Run("person.create",
                  {{"id", kId}, {"spaceId", "s"}, {"name", "Ana"}, {"email", " ana@example.com "}})
                  .ok());
  EXPECT_EQ(Row(people::kPersonKind, kId)["email"], "ana@example.com");
  ASSERT_TRUE(Run("person.update", {{"id", kId}, {"fields", {{"email", nullptr}}}}).ok());
  EXPECT_TRUE(Row(people::kPersonKind, kId)["email"].is_null());
}

TEST_F(RecordKinds, UpdateMergesDisjointFieldsUnderBase) {
  ASSERT_TRUE(Run("board.create", {{"id", kId}, {"spaceId", "s"}, {"title", "a"}}).ok());
  ASSERT_TRUE(Run("board.update", {{"id", kId}, {"fields", {{"description", "theirs"}}}}).ok());
  ASSERT_TRUE(Run("board.update",
                  {{"id", kId}, {"fields", {{"title", "b"}}}, {"base", {{"title", "a"}}}}, 3000)
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
  EXPECT_EQ(
      Run("page.update", {{"id", kId}, {"fields", {{"body", "b"}}}, {"base", {{"title", "a"}}}})
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
  ASSERT_TRUE(
      Run("page.create", {{"id", kId}, {"spaceId", "s"}, {"title", "a"}, {"body", "b"}}).ok());
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
  EXPECT_EQ(details["current"], json({{"title", "Q3"},
                                      {"description", "plan"},
                                      {"status", "active"},
                                      {"start", nullptr},
                                      {"due", nullptr},
                                      {"people", json::array()},
                                      {"deliverables", json::array()}}));
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
  EXPECT_EQ(Run("board.delete", {{"id", kOtherId}, {"hard", true}}).code(),
            codes::kInvalidArgument);
}

// A kind of every field type, on a table of its own, driven through the
// generic mutators directly (the hub's kinds take these types one by one).
Status ColumnsAreTitled(const json& v) {
  if (!v.is_array()) return Status(codes::kInvalidArgument, "layout must be a list");
  for (const json& c : v) {
    if (!c.is_object() || !c.contains("title")) {
      return Status(codes::kInvalidArgument, "every column needs a title");
    }
  }
  return Status::Ok();
}

constexpr FieldSpec kWidgetFields[] = {
    {.name = "title", .required = true, .trim = true, .max_chars = 50},
    {.name = "rank", .type = FieldType::kInt, .min = 1, .max = 5},
    {.name = "labels", .type = FieldType::kTextList, .max_chars = 10, .max_items = 3},
    {.name = "links", .type = FieldType::kIdList, .max_items = 2},
    {.name = "parent", .type = FieldType::kId, .nullable = true},
    {.name = "layout", .type = FieldType::kJson, .max_chars = 200, .check = ColumnsAreTitled},
};
constexpr RecordKind kWidgetKind = {"widget", "widgets", kWidgetFields};

class TypedFields : public RecordKinds {
 protected:
  void SetUp() override {
    RecordKinds::SetUp();
    ASSERT_TRUE(
        db_->Exec(
               "CREATE TABLE widgets (id TEXT PRIMARY KEY, space_id TEXT, title TEXT, "
               "rank INTEGER, labels TEXT, links TEXT, parent TEXT, layout TEXT, version INTEGER, "
               "deleted INTEGER, created_at INTEGER, updated_at INTEGER, "
               "row_version INTEGER)")
            .ok());
  }
  Status Write(Status (*op)(const RecordKind&, sync::MutationContext&, const json&),
               const json& args, json* details = nullptr) {
    store::Transaction txn(*db_);
    sync::MutationContext ctx(*db_, 1000);
    Status st = op(kWidgetKind, ctx, args);
    if (details) *details = ctx.details();
    if (st.ok()) EXPECT_TRUE(txn.Commit().ok());
    return st;
  }
  Status Create(json fields) {
    fields["id"] = kId;
    fields["spaceId"] = "s1";
    return Write(CreateRecord, fields);
  }
};

TEST_F(TypedFields, DefaultsRoundTripAsJsonValues) {
  ASSERT_TRUE(Create({{"title", "W"}}).ok());
  json fields = FieldsOf(kWidgetKind, Row(kWidgetKind, kId));
  EXPECT_EQ(fields["rank"], 1);
  EXPECT_EQ(fields["labels"], json::array());
  EXPECT_EQ(fields["links"], json::array());
  EXPECT_EQ(fields["layout"], json::array());
  EXPECT_TRUE(fields["parent"].is_null());
  // Stored as JSON text, so both stores and the pull carry one column type.
  auto raw = db_->Query("SELECT labels, layout FROM widgets");
  ASSERT_TRUE(raw.ok());
  EXPECT_EQ(store::AsText(raw->rows[0][0]), "[]");
}

TEST_F(TypedFields, ListsAreTrimmedAndRepeatsDropped) {
  ASSERT_TRUE(Create({{"title", "W"},
                      {"labels", {" urgent ", "urgent", "", "home"}},
                      {"links", {kOtherId, kOtherId}},
                      {"layout", json::array({{{"title", "To do"}}})}})
                  .ok());
  json fields = FieldsOf(kWidgetKind, Row(kWidgetKind, kId));
  EXPECT_EQ(fields["labels"], json({"urgent", "home"}));
  EXPECT_EQ(fields["links"], json({kOtherId}));
  EXPECT_EQ(fields["layout"][0]["title"], "To do");
}

TEST_F(TypedFields, BadValuesAreRefusedAndNothingWritten) {
  const json bad[] = {
      {{"title", "W"}, {"rank", 6}},
      {{"title", "W"}, {"rank", "2"}},
      {{"title", "W"}, {"labels", {"a", "b", "c", "d"}}},
      {{"title", "W"}, {"labels", {"much too long a label"}}},
      {{"title", "W"}, {"labels", "a"}},
      {{"title", "W"}, {"links", {"not an id"}}},
      {{"title", "W"}, {"parent", "nope"}},
      {{"title", "W"}, {"layout", json::array({{{"name", "x"}}})}},
      {{"title", "W"}, {"layout", std::string(300, 'x')}},
      {{"title", "W"}, {"layout", json::array({{{"title", std::string(300, 'x')}}})}},
  };
  for (const json& fields : bad) {
    EXPECT_EQ(Create(fields).code(), codes::kInvalidArgument) << fields.dump();
  }
  auto count = db_->Query("SELECT COUNT(*) FROM widgets");
  ASSERT_TRUE(count.ok());
  EXPECT_EQ(store::AsInt(count->rows[0][0]), 0);
}

TEST_F(TypedFields, BaseRuleComparesListsByValue) {
  ASSERT_TRUE(Create({{"title", "W"}, {"labels", {"a"}}}).ok());
  // Based on the stored list: merges.
  ASSERT_TRUE(
      Write(UpdateRecord,
            {{"id", kId}, {"fields", {{"labels", {"a", "b"}}}}, {"base", {{"labels", {"a"}}}}})
          .ok());
  // Based on an older list, and the new value differs: a conflict with the
  // server's list as a list.
  json details;
  EXPECT_EQ(
      Write(UpdateRecord,
            {{"id", kId}, {"fields", {{"labels", {"c"}}}}, {"base", {{"labels", {"a"}}}}}, &details)
          .code(),
      codes::kSaveConflict);
  EXPECT_EQ(details["current"]["labels"], json({"a", "b"}));
}

TEST_F(TypedFields, ExpectedVersionWithoutBaseRefusesAStaleEdit) {
  ASSERT_TRUE(Create({{"title", "W"}}).ok());
  ASSERT_TRUE(
      Write(UpdateRecord, {{"id", kId}, {"fields", {{"rank", 2}}}, {"expectedVersion", 1}}).ok());
  json details;
  EXPECT_EQ(Write(UpdateRecord, {{"id", kId}, {"fields", {{"title", "X"}}}, {"expectedVersion", 1}},
                  &details)
                .code(),
            codes::kVersionConflict);
  EXPECT_EQ(details["version"], 2);
  EXPECT_EQ(details["current"]["title"], "W");
  EXPECT_EQ(FieldsOf(kWidgetKind, Row(kWidgetKind, kId))["title"], "W");
  // With a base, the field rule decides and the version is not consulted.
  EXPECT_TRUE(Write(UpdateRecord, {{"id", kId},
                                   {"fields", {{"title", "X"}}},
                                   {"base", {{"title", "W"}}},
                                   {"expectedVersion", 1}})
                  .ok());
  EXPECT_EQ(Write(UpdateRecord, {{"id", kId}, {"fields", {{"title", "Y"}}}, {"expectedVersion", 0}})
                .code(),
            codes::kInvalidArgument);
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
