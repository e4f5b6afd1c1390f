#include "core/store/sqlite_database.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "core/store/migrations.h"

namespace ensemble::core::store {
namespace {

std::unique_ptr<SqliteDatabase> OpenMemory() {
  auto db = SqliteDatabase::Open(":memory:");
  EXPECT_TRUE(db.ok()) << db.status().ToString();
  return std::move(db).value();
}

TEST(SqliteDatabase, ValuesComeBackTyped) {
  auto db = OpenMemory();
  ASSERT_TRUE(db->ExecScript("CREATE TABLE t (i BIGINT, d DOUBLE PRECISION, s TEXT, n TEXT)").ok());
  ASSERT_TRUE(
      db->Exec("INSERT INTO t VALUES ($1, $2, $3, $4)",
               {Value(int64_t{9007199254740993}), Value(2.5), Value("héllo 'q'"), Value(Null{})})
          .ok());
  auto rows = db->Query("SELECT i, d, s, n FROM t");
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 1u);
  EXPECT_EQ(std::get<int64_t>(rows->rows[0][0]), 9007199254740993);
  EXPECT_EQ(std::get<double>(rows->rows[0][1]), 2.5);
  EXPECT_EQ(std::get<std::string>(rows->rows[0][2]), "héllo 'q'");
  EXPECT_TRUE(IsNull(rows->rows[0][3]));
  EXPECT_EQ(rows->columns, (std::vector<std::string>{"i", "d", "s", "n"}));
}

TEST(SqliteDatabase, ParametersMayRepeatAndBeUnused) {
  auto db = OpenMemory();
  auto rows = db->Query("SELECT $2 || $2", {Value("unused"), Value("ab")});
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_EQ(AsText(rows->rows[0][0]), "abab");
}

TEST(SqliteDatabase, BadStatementIsAStorageError) {
  auto db = OpenMemory();
  auto rows = db->Query("SELEKT 1");
  ASSERT_FALSE(rows.ok());
  EXPECT_EQ(rows.status().code(), codes::kStorage);
  EXPECT_NE(rows.status().message().find("syntax"), std::string::npos);
}

TEST(SqliteDatabase, ACopyReplacesTheDestinationAndStandsAlone) {
  auto source = OpenMemory();
  ASSERT_TRUE(source->ExecScript("CREATE TABLE t (s TEXT); INSERT INTO t VALUES ('one')").ok());
  auto dest = OpenMemory();
  ASSERT_TRUE(dest->ExecScript("CREATE TABLE old (s TEXT); INSERT INTO old VALUES ('x')").ok());
  ASSERT_TRUE(dest->Query("SELECT s FROM old").ok());  // Cached against the old schema.

  ASSERT_TRUE(source->CopyInto(*dest).ok());
  EXPECT_FALSE(dest->Query("SELECT s FROM old").ok());
  ASSERT_TRUE(dest->Exec("INSERT INTO t VALUES ('two')").ok());
  EXPECT_EQ(dest->Query("SELECT s FROM t")->size(), 2u);
  EXPECT_EQ(source->Query("SELECT s FROM t")->size(), 1u);
}

// A WAL database in a fresh folder, with a table of page-sized rows.
class WalDatabase {
 public:
  WalDatabase() {
    dir_ = std::filesystem::temp_directory_path() /
           ("ensemble-wal-" + std::to_string(reinterpret_cast<uintptr_t>(this)) + "-" +
            std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
    std::filesystem::create_directories(dir_);
    auto db = SqliteDatabase::Open((dir_ / "db.sqlite").string());
    EXPECT_TRUE(db.ok()) << db.status().ToString();
    db_ = std::move(db).value();
    EXPECT_TRUE(db_->ExecScript("PRAGMA journal_mode=WAL; CREATE TABLE t (b BLOB)").ok());
  }
  ~WalDatabase() {
    db_.reset();
    std::filesystem::remove_all(dir_);
  }
  // Commits `rows` rows of about a page each: as many log frames.
  void Write(int rows) {
    Transaction txn(*db_);
    ASSERT_TRUE(txn.status().ok());
    ASSERT_TRUE(db_->Exec("INSERT INTO t SELECT randomblob(3900) FROM (WITH RECURSIVE c(x) AS "
                          "(SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < $1) SELECT x FROM c)",
                          {Value(int64_t{rows})})
                    .ok());
    ASSERT_TRUE(txn.Commit().ok());
  }
  // The database file itself: it grows only when a checkpoint copies the
  // log into it.
  uintmax_t FileBytes() const { return std::filesystem::file_size(dir_ / "db.sqlite"); }
  SqliteDatabase& db() { return *db_; }

 private:
  std::filesystem::path dir_;
  std::unique_ptr<SqliteDatabase> db_;
};

TEST(SqliteDatabase, ACommitPastTheLogLimitCheckpoints) {
  WalDatabase wal;
  wal.Write(kSqliteCheckpointFrames / 2);
  EXPECT_LT(wal.FileBytes(), 64u * 1024);  // Still in the log.
  wal.Write(kSqliteCheckpointFrames / 2 + 10);
  EXPECT_GT(wal.FileBytes(), uintmax_t{kSqliteCheckpointFrames} * 3900);
  EXPECT_FALSE(wal.db().checkpoint_due());
}

TEST(SqliteDatabase, ADeferredCheckpointWaitsForTheCaller) {
  WalDatabase wal;
  wal.db().set_defer_checkpoints(true);
  wal.Write(kSqliteCheckpointFrames + 10);
  EXPECT_TRUE(wal.db().checkpoint_due());
  EXPECT_LT(wal.FileBytes(), 64u * 1024);
  wal.db().set_defer_checkpoints(false);
  ASSERT_TRUE(wal.db().Checkpoint().ok());
  EXPECT_FALSE(wal.db().checkpoint_due());
  EXPECT_GT(wal.FileBytes(), uintmax_t{kSqliteCheckpointFrames} * 3900);
  // Nothing was lost on the way.
  auto rows = wal.db().Query("SELECT COUNT(*) FROM t");
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ(AsInt(rows->rows[0][0]), kSqliteCheckpointFrames + 10);
}

TEST(Transaction, RollsBackUnlessCommitted) {
  auto db = OpenMemory();
  ASSERT_TRUE(db->ExecScript("CREATE TABLE t (x BIGINT)").ok());
  {
    Transaction txn(*db);
    ASSERT_TRUE(txn.status().ok());
    ASSERT_TRUE(db->Exec("INSERT INTO t VALUES (1)").ok());
  }
  EXPECT_EQ(AsInt(db->Query("SELECT COUNT(*) FROM t")->rows[0][0]), 0);
}

int64_t SynchronousLevel(Database& db) { return AsInt(db.Query("PRAGMA synchronous")->rows[0][0]); }

TEST(Transaction, ARelaxedOneWaitsForNoDiskAndPutsTheLevelBack) {
  auto db = OpenMemory();
  ASSERT_TRUE(db->ExecScript("CREATE TABLE t (x BIGINT); PRAGMA synchronous = FULL").ok());
  {
    Transaction txn(*db, Durability::kRelaxed);
    ASSERT_TRUE(txn.status().ok()) << txn.status().ToString();
    EXPECT_EQ(SynchronousLevel(*db), 1);  // NORMAL
    ASSERT_TRUE(db->Exec("INSERT INTO t VALUES (1)").ok());
    ASSERT_TRUE(txn.Commit().ok());
  }
  EXPECT_EQ(SynchronousLevel(*db), 2);  // FULL again
  EXPECT_EQ(AsInt(db->Query("SELECT COUNT(*) FROM t")->rows[0][0]), 1);
  {
    Transaction rolled_back(*db, Durability::kRelaxed);
    ASSERT_TRUE(db->Exec("INSERT INTO t VALUES (2)").ok());
  }
  EXPECT_EQ(SynchronousLevel(*db), 2);
  {
    Transaction full(*db);
    EXPECT_EQ(SynchronousLevel(*db), 2);
    // A savepoint inside takes its enclosing transaction's durability.
    Transaction inner(*db, Durability::kRelaxed);
    EXPECT_EQ(SynchronousLevel(*db), 2);
    ASSERT_TRUE(inner.Commit().ok());
    ASSERT_TRUE(full.Commit().ok());
  }
  ASSERT_TRUE(db->ExecScript("PRAGMA synchronous = OFF").ok());
  {
    Transaction relaxed(*db, Durability::kRelaxed);
    EXPECT_EQ(SynchronousLevel(*db), 0);  // Never made stricter.
  }
  EXPECT_EQ(SynchronousLevel(*db), 0);
}

TEST(Transaction, InnerTransactionIsASavepoint) {
  auto db = OpenMemory();
  ASSERT_TRUE(db->ExecScript("CREATE TABLE t (x BIGINT)").ok());
  Transaction outer(*db);
  ASSERT_TRUE(db->Exec("INSERT INTO t VALUES (1)").ok());
  {
    Transaction failed(*db);
    ASSERT_TRUE(db->Exec("INSERT INTO t VALUES (2)").ok());
  }  // Rolled back to the savepoint only.
  {
    Transaction kept(*db);
    ASSERT_TRUE(db->Exec("INSERT INTO t VALUES (3)").ok());
    ASSERT_TRUE(kept.Commit().ok());
  }
  ASSERT_TRUE(outer.Commit().ok());
  auto rows = db->Query("SELECT x FROM t ORDER BY x");
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ(AsInt(rows->rows[0][0]), 1);
  EXPECT_EQ(AsInt(rows->rows[1][0]), 3);
}

TEST(Migrations, ApplyEachVersionOnce) {
  auto db = OpenMemory();
  const Migration kSteps[] = {{1, "a", "CREATE TABLE a (x BIGINT);"},
                              {2, "b", "CREATE TABLE b (x BIGINT);"}};
  ASSERT_TRUE(Migrate(*db, kSteps).ok());
  ASSERT_TRUE(Migrate(*db, kSteps).ok());  // Running again is a no-op, not an error.
  EXPECT_EQ(*SchemaVersion(*db), 2);
}

TEST(Migrations, AFailingStepLeavesNothingHalfApplied) {
  auto db = OpenMemory();
  const Migration kSteps[] = {{1, "a", "CREATE TABLE a (x BIGINT);"},
                              {2, "broken", "CREATE TABLE b (x BIGINT); NOT SQL;"}};
  EXPECT_FALSE(Migrate(*db, kSteps).ok());
  EXPECT_EQ(*SchemaVersion(*db), 0);
  EXPECT_FALSE(db->Query("SELECT * FROM a").ok());
}

}  // namespace
}  // namespace ensemble::core::store
