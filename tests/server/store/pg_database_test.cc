// The Database contract, run against PgDatabase and mirrored against
// SqliteDatabase: both must type values, roll back and report errors the same
// way, since the core's mutators run unchanged on either.

#include "server/store/pg_database.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "core/hub/hub.h"
#include "core/store/database.h"
#include "core/store/migrations.h"
#include "tests/server/scratch_store.h"

namespace ensemble::testing {
namespace {

using core::Status;
using core::store::Database;
using core::store::Null;
using core::store::Rows;
using core::store::Transaction;
using core::store::Value;

class StoreContract : public ::testing::TestWithParam<StoreKind> {
 protected:
  void SetUp() override {
    ENSEMBLE_SKIP_IF_STORE_MISSING(GetParam());
    auto store = ScratchStore::Create(GetParam());
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    store_ = std::move(*store);
    auto db = store_->Connect();
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    db_ = std::move(*db);
    ASSERT_TRUE(db_->ExecScript("CREATE TABLE t (k TEXT PRIMARY KEY, i BIGINT,"
                                " d DOUBLE PRECISION, s TEXT)")
                    .ok());
  }
  void TearDown() override {
    db_.reset();
    store_.reset();
  }

  Rows Query(const std::string& sql, const std::vector<Value>& params = {}) {
    auto rows = db_->Query(sql, params);
    EXPECT_TRUE(rows.ok()) << sql << ": " << rows.status().ToString();
    return rows.ok() ? *rows : Rows{};
  }
  void Insert(const std::string& key) {
    EXPECT_TRUE(db_->Exec("INSERT INTO t (k) VALUES ($1)", {Value(key)}).ok()) << key;
  }
  std::vector<std::string> Keys() {
    std::vector<std::string> out;
    for (const auto& row : Query("SELECT k FROM t ORDER BY k").rows) {
      out.push_back(core::store::AsText(row[0]));
    }
    return out;
  }

  std::unique_ptr<ScratchStore> store_;
  std::unique_ptr<Database> db_;
};

TEST_P(StoreContract, ReportsItsDialect) {
  EXPECT_EQ(db_->dialect(), GetParam() == StoreKind::kPostgres ? core::store::Dialect::kPostgres
                                                               : core::store::Dialect::kSqlite);
}

TEST_P(StoreContract, TypedValuesRoundTrip) {
  const std::vector<std::vector<Value>> rows = {
      {Value("a"), Value(std::numeric_limits<int64_t>::max()), Value(0.1),
       Value("héllo wörld ✓ 🎉 日本")},
      {Value("b"), Value(std::numeric_limits<int64_t>::min()), Value(-2.5e300),
       Value("it's \"quoted\" \\ back; DROP TABLE t; --")},
      {Value("c"), Value(int64_t{9007199254740993}), Value(1.0 / 3.0), Value("")},
      {Value("d"), Value(Null{}), Value(Null{}), Value(Null{})},
      {Value("e"), Value(int64_t{-1}), Value(0.0), Value("line\nbreak\ttab")},
  };
  for (const auto& row : rows) {
    ASSERT_TRUE(db_->Exec("INSERT INTO t (k, i, d, s) VALUES ($1, $2, $3, $4)", row).ok());
  }
  Rows got = Query("SELECT k, i, d, s FROM t ORDER BY k");
  EXPECT_EQ(got.columns, (std::vector<std::string>{"k", "i", "d", "s"}));
  ASSERT_EQ(got.size(), rows.size());
  for (size_t r = 0; r < rows.size(); ++r) {
    EXPECT_EQ(got.rows[r], rows[r]) << "row " << r;
  }
  // Parameters compare with stored values of their type.
  Rows by_int = Query("SELECT k FROM t WHERE i = $1", {Value(std::numeric_limits<int64_t>::max())});
  ASSERT_EQ(by_int.size(), 1u);
  EXPECT_EQ(by_int.rows[0][0], Value("a"));
}

TEST_P(StoreContract, ForEachRowHandsOverEachRowAsQueryReadsIt) {
  for (const std::vector<Value>& row :
       std::vector<std::vector<Value>>{{Value("a"), Value(int64_t{-7}), Value("héllo ✓")},
                                       {Value("b"), Value(Null{}), Value(Null{})},
                                       {Value("c"), Value(int64_t{1} << 40), Value("")}}) {
    ASSERT_TRUE(db_->Exec("INSERT INTO t (k, i, s) VALUES ($1, $2, $3)", row).ok());
  }
  std::vector<std::string> seen;
  Status st =
      db_->ForEachRow("SELECT k, i, s FROM t WHERE k >= $1 ORDER BY k", {Value("a")},
                      [&](const core::store::RowView& row) {
                        seen.push_back(std::string(row.Text(0)) + "|" +
                                       (row.IsNull(1) ? "null" : std::to_string(row.Int(1))) + "|" +
                                       std::string(row.Text(2)) + (row.IsNull(2) ? "(null)" : ""));
                        return Status::Ok();
                      });
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(seen, (std::vector<std::string>{"a|-7|héllo ✓", "b|null|(null)", "c|1099511627776|"}));

  // The visitor's error stops the rows and is returned; the statement is
  // ready for its next run.
  int visited = 0;
  st = db_->ForEachRow("SELECT k, i, s FROM t WHERE k >= $1 ORDER BY k", {Value("a")},
                       [&](const core::store::RowView&) {
                         ++visited;
                         return Status(core::codes::kInvalidArgument, "enough");
                       });
  EXPECT_EQ(st.code(), core::codes::kInvalidArgument);
  EXPECT_EQ(visited, 1);
  EXPECT_EQ(Keys(), (std::vector<std::string>{"a", "b", "c"}));

  // A bad statement is the store's error, as Query's.
  st = db_->ForEachRow("SELECT nope FROM t", {},
                       [](const core::store::RowView&) { return Status::Ok(); });
  EXPECT_EQ(st.code(), core::codes::kStorage);
}

TEST_P(StoreContract, ExpressionsAreTypedLikeSqlite) {
  Rows r = Query(
      "SELECT 2 AS two, 1.5 AS half, 'x' AS txt, NULL AS nul, 1 = 1 AS yes,"
      " 1 = 2 AS no, COUNT(*) AS n FROM t");
  EXPECT_EQ(r.columns, (std::vector<std::string>{"two", "half", "txt", "nul", "yes", "no", "n"}));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r.rows[0],
            (std::vector<Value>{Value(int64_t{2}), Value(1.5), Value("x"), Value(Null{}),
                                Value(int64_t{1}), Value(int64_t{0}), Value(int64_t{0})}));
  Rows echo = Query("SELECT $1 AS i, $2 AS d, $3 AS s, $4 AS n",
                    {Value(int64_t{42}), Value(2.25), Value("text"), Value(Null{})});
  ASSERT_EQ(echo.size(), 1u);
  EXPECT_EQ(echo.rows[0],
            (std::vector<Value>{Value(int64_t{42}), Value(2.25), Value("text"), Value(Null{})}));
}

TEST_P(StoreContract, StatementsWithoutRowsReturnNone) {
  auto rows = db_->Query("INSERT INTO t (k) VALUES ('x')");
  ASSERT_TRUE(rows.ok());
  EXPECT_TRUE(rows->empty());
  Rows returning = Query("UPDATE t SET i = 7 WHERE k = 'x' RETURNING i");
  ASSERT_EQ(returning.size(), 1u);
  EXPECT_EQ(returning.rows[0][0], Value(int64_t{7}));
}

TEST_P(StoreContract, ExecScriptRunsSeveralStatements) {
  ASSERT_TRUE(db_->ExecScript("INSERT INTO t (k) VALUES ('a'); INSERT INTO t (k) VALUES ('b');"
                              "UPDATE t SET i = 1;")
                  .ok());
  EXPECT_EQ(Keys(), (std::vector<std::string>{"a", "b"}));
}

TEST_P(StoreContract, UpsertWorks) {
  const std::string upsert =
      "INSERT INTO t (k, i) VALUES ($1, $2) ON CONFLICT (k) DO UPDATE SET i = excluded.i";
  ASSERT_TRUE(db_->Exec(upsert, {Value("a"), Value(int64_t{1})}).ok());
  ASSERT_TRUE(db_->Exec(upsert, {Value("a"), Value(int64_t{2})}).ok());
  EXPECT_EQ(Query("SELECT i FROM t").rows, (std::vector<std::vector<Value>>{{Value(int64_t{2})}}));
}

TEST_P(StoreContract, TransactionRollsBackUnlessCommitted) {
  {
    Transaction txn(*db_);
    ASSERT_TRUE(txn.status().ok());
    Insert("dropped");
  }
  {
    Transaction txn(*db_);
    ASSERT_TRUE(txn.status().ok());
    Insert("kept");
    ASSERT_TRUE(txn.Commit().ok());
  }
  EXPECT_EQ(Keys(), (std::vector<std::string>{"kept"}));
}

TEST_P(StoreContract, NestedTransactionsAreSavepoints) {
  {
    Transaction outer(*db_);
    ASSERT_TRUE(outer.status().ok());
    Insert("a");
    {
      Transaction inner(*db_);
      ASSERT_TRUE(inner.status().ok());
      Insert("b");  // Rolled back with the savepoint.
    }
    {
      Transaction inner(*db_);
      ASSERT_TRUE(inner.status().ok());
      Insert("c");
      ASSERT_TRUE(inner.Commit().ok());
    }
    ASSERT_TRUE(outer.Commit().ok());
  }
  EXPECT_EQ(Keys(), (std::vector<std::string>{"a", "c"}));
}

TEST_P(StoreContract, FailedStatementInASavepointLeavesTheOuterTransactionUsable) {
  // What ServerSync does when a mutator fails: undo its savepoint, go on.
  {
    Transaction outer(*db_);
    ASSERT_TRUE(outer.status().ok());
    Insert("a");
    {
      Transaction inner(*db_);
      ASSERT_TRUE(inner.status().ok());
      Insert("b");
      auto dup = db_->Exec("INSERT INTO t (k) VALUES ('a')");
      EXPECT_EQ(dup.code(), "STORAGE_ERROR");
    }
    Insert("d");
    ASSERT_TRUE(outer.Commit().ok());
  }
  EXPECT_EQ(Keys(), (std::vector<std::string>{"a", "d"}));
}

TEST_P(StoreContract, BadStatementIsStorageError) {
  auto syntax = db_->Query("SELEC 1");
  ASSERT_FALSE(syntax.ok());
  EXPECT_EQ(syntax.status().code(), "STORAGE_ERROR");
  EXPECT_FALSE(syntax.status().message().empty());

  auto missing = db_->Query("SELECT * FROM no_such_table");
  EXPECT_EQ(missing.status().code(), "STORAGE_ERROR");
  EXPECT_EQ(db_->ExecScript("CREATE TABLE t (x TEXT)").code(), "STORAGE_ERROR");
  Insert("a");
  EXPECT_EQ(db_->Exec("INSERT INTO t (k) VALUES ('a')").code(), "STORAGE_ERROR");
  // The connection is still good afterwards.
  EXPECT_EQ(Query("SELECT COUNT(*) FROM t").rows[0][0], Value(int64_t{1}));
}

TEST_P(StoreContract, HubMigrationsApplyOnceOnEitherStore) {
  ASSERT_TRUE(core::hub::Migrate(*db_).ok());
  auto first = core::store::SchemaVersion(*db_);
  ASSERT_TRUE(first.ok());
  EXPECT_GT(*first, 0);
  ASSERT_TRUE(core::hub::Migrate(*db_).ok());
  EXPECT_EQ(*core::store::SchemaVersion(*db_), *first);
}

TEST_P(StoreContract, RepeatedStatementReturnsTheSameTypedRows) {
  ASSERT_TRUE(db_->Exec("INSERT INTO t (k, i, d, s) VALUES ($1, $2, $3, $4)",
                        {Value("a"), Value(int64_t{-7}), Value(0.1), Value("x")})
                  .ok());
  const std::vector<Value> want = {Value("a"), Value(int64_t{-7}), Value(0.1), Value("x")};
  // PostgreSQL switches a prepared statement to a generic plan after five
  // runs; many more must still answer the same.
  constexpr int kRuns = 50;
  for (int run = 0; run < kRuns; ++run) {
    Rows got = Query("SELECT k, i, d, s FROM t WHERE k = $1", {Value("a")});
    EXPECT_EQ(got.columns, (std::vector<std::string>{"k", "i", "d", "s"}));
    ASSERT_EQ(got.size(), 1u) << "run " << run;
    EXPECT_EQ(got.rows[0], want) << "run " << run;
  }
  // The same text bound with other types each time keeps each value's type.
  const std::vector<Value> echoes = {Value(int64_t{42}), Value(2.25), Value("text"), Value(Null{})};
  for (int run = 0; run < kRuns; ++run) {
    const Value& v = echoes[run % echoes.size()];
    Rows got = Query("SELECT $1 AS v", {v});
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got.rows[0][0], v) << "run " << run;
  }
}

TEST_P(StoreContract, MoreDistinctStatementsThanTheCacheHoldsStillWork) {
  const int64_t count = static_cast<int64_t>(server::store::kPgMaxPreparedStatements) * 2 + 10;
  // Twice round: the second time every statement has been evicted once.
  for (int round = 0; round < 2; ++round) {
    for (int64_t i = 0; i < count; ++i) {
      Rows got = Query("SELECT $1 + " + std::to_string(i) + " AS v", {Value(i)});
      ASSERT_EQ(got.size(), 1u);
      EXPECT_EQ(got.rows[0][0], Value(2 * i)) << i;
    }
  }
  if (GetParam() == StoreKind::kPostgres) {
    // Evicted statements are freed on the server too.
    Rows n = Query("SELECT COUNT(*) FROM pg_prepared_statements");
    ASSERT_EQ(n.size(), 1u);
    EXPECT_LE(core::store::AsInt(n.rows[0][0]),
              static_cast<int64_t>(server::store::kPgMaxPreparedStatements));
  }
}

TEST_P(StoreContract, StatementsEvictedInsideATransactionAreKept) {
  const int64_t count = static_cast<int64_t>(server::store::kPgMaxPreparedStatements) + 20;
  {
    Transaction txn(*db_);
    ASSERT_TRUE(txn.status().ok());
    for (int64_t i = 0; i < count; ++i) {
      const std::string sql = "INSERT INTO t (k, i) VALUES ($1, " + std::to_string(i) + ")";
      ASSERT_TRUE(db_->Exec(sql, {Value(std::to_string(i))}).ok()) << i;
    }
    ASSERT_TRUE(txn.Commit().ok());
  }
  EXPECT_EQ(Query("SELECT COUNT(*) FROM t").rows[0][0], Value(count));
}

TEST_P(StoreContract, DeferredStatementsAreAppliedByCommit) {
  {
    Transaction txn(*db_);
    ASSERT_TRUE(txn.status().ok());
    ASSERT_TRUE(db_->ExecDeferred("INSERT INTO t (k) VALUES ($1)", {Value("a")}).ok());
    ASSERT_TRUE(db_->ExecDeferred("INSERT INTO t (k) VALUES ($1)", {Value("b")}).ok());
    ASSERT_TRUE(txn.Commit().ok());
  }
  EXPECT_EQ(Keys(), (std::vector<std::string>{"a", "b"}));
}

TEST_P(StoreContract, DeferredStatementsAreSeenByTheNextQuery) {
  Transaction txn(*db_);
  ASSERT_TRUE(txn.status().ok());
  ASSERT_TRUE(db_->ExecDeferred("INSERT INTO t (k, i) VALUES ($1, 7)", {Value("a")}).ok());
  EXPECT_EQ(Query("SELECT i FROM t WHERE k = 'a'").rows.at(0)[0], Value(int64_t{7}));
}

TEST_P(StoreContract, RollbackDiscardsDeferredStatements) {
  {
    Transaction txn(*db_);
    ASSERT_TRUE(txn.status().ok());
    ASSERT_TRUE(db_->ExecDeferred("INSERT INTO t (k) VALUES ($1)", {Value("a")}).ok());
  }  // Not committed.
  Insert("b");
  EXPECT_EQ(Keys(), (std::vector<std::string>{"b"}));
}

TEST_P(StoreContract, AFailedDeferredStatementFailsTheTransaction) {
  Insert("a");
  {
    Transaction txn(*db_);
    ASSERT_TRUE(txn.status().ok());
    ASSERT_TRUE(db_->Exec("INSERT INTO t (k) VALUES ($1)", {Value("b")}).ok());
    // Duplicate key: SQLite fails at once, PostgreSQL with the next round trip.
    Status st = db_->ExecDeferred("INSERT INTO t (k) VALUES ($1)", {Value("a")});
    if (st.ok()) st = db_->Query("SELECT 1").status();
    EXPECT_EQ(st.code(), core::codes::kStorage);
  }
  EXPECT_EQ(Keys(), (std::vector<std::string>{"a"}));
}

TEST_P(StoreContract, ManyDeferredStatementsAreSentInBoundedBatches) {
  const int64_t count = static_cast<int64_t>(server::store::kPgMaxDeferredStatements) * 3 + 5;
  {
    Transaction txn(*db_);
    ASSERT_TRUE(txn.status().ok());
    for (int64_t i = 0; i < count; ++i) {
      ASSERT_TRUE(db_->ExecDeferred("INSERT INTO t (k, i) VALUES ($1, $2)",
                                    {Value(std::to_string(i)), Value(i)})
                      .ok());
    }
    ASSERT_TRUE(txn.Commit().ok());
  }
  EXPECT_EQ(Query("SELECT COUNT(*), CAST(SUM(i) AS BIGINT) FROM t").rows.at(0),
            (std::vector<Value>{Value(count), Value(count * (count - 1) / 2)}));
}

TEST_P(StoreContract, ARolledBackSavepointUndoesOnlyItsDeferredWork) {
  {
    Transaction txn(*db_);
    ASSERT_TRUE(txn.status().ok());
    ASSERT_TRUE(db_->ExecDeferred("INSERT INTO t (k) VALUES ($1)", {Value("kept")}).ok());
    {
      Transaction inner(*db_);
      ASSERT_TRUE(inner.status().ok());
      ASSERT_TRUE(db_->ExecDeferred("INSERT INTO t (k) VALUES ($1)", {Value("undone")}).ok());
    }
    {
      Transaction inner(*db_);
      ASSERT_TRUE(inner.status().ok());
      ASSERT_TRUE(db_->ExecDeferred("INSERT INTO t (k) VALUES ($1)", {Value("released")}).ok());
      ASSERT_TRUE(inner.Commit().ok());
    }
    ASSERT_TRUE(txn.Commit().ok());
  }
  EXPECT_EQ(Keys(), (std::vector<std::string>{"kept", "released"}));
}

INSTANTIATE_TEST_SUITE_P(Server, StoreContract,
                         ::testing::Values(StoreKind::kSqlite, StoreKind::kPostgres),
                         StoreKindTestName);

// PostgreSQL only: after an error its transaction is aborted, and COMMIT
// quietly rolls back. PgDatabase must report that rather than claim success.
TEST(ServerPgDatabase, CommitAfterAFailedStatementReportsTheRollback) {
  ENSEMBLE_SKIP_IF_STORE_MISSING(StoreKind::kPostgres);
  auto store = ScratchStore::Create(StoreKind::kPostgres);
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  auto db = (*store)->Connect();
  ASSERT_TRUE(db.ok());
  ASSERT_TRUE((*db)->ExecScript("CREATE TABLE t (k TEXT PRIMARY KEY)").ok());
  ASSERT_TRUE((*db)->Begin(core::store::Durability::kFull).ok());
  ASSERT_TRUE((*db)->Exec("INSERT INTO t (k) VALUES ('a')").ok());
  EXPECT_FALSE((*db)->Exec("SELEC 1").ok());
  core::Status commit = (*db)->Commit();
  EXPECT_EQ(commit.code(), "STORAGE_ERROR");
  EXPECT_EQ((*db)->Query("SELECT COUNT(*) FROM t")->rows[0][0], Value(int64_t{0}));
}

// A scratch PostgreSQL database with table t, for the prepared statement
// cache's tests.
class ServerPgPrepared : public ::testing::Test {
 protected:
  void SetUp() override {
    ENSEMBLE_SKIP_IF_STORE_MISSING(StoreKind::kPostgres);
    auto store = ScratchStore::Create(StoreKind::kPostgres);
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    store_ = std::move(*store);
    auto db = store_->Connect();
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    db_ = std::move(*db);
    ASSERT_TRUE(db_->ExecScript("CREATE TABLE t (k TEXT PRIMARY KEY, i BIGINT)").ok());
  }
  void TearDown() override {
    db_.reset();
    store_.reset();
  }
  int64_t Count() {
    auto rows = db_->Query("SELECT COUNT(*) FROM t");
    EXPECT_TRUE(rows.ok()) << rows.status().ToString();
    return rows.ok() ? core::store::AsInt(rows->rows[0][0]) : -1;
  }

  std::unique_ptr<ScratchStore> store_;
  std::unique_ptr<Database> db_;
};

constexpr char kInsert[] = "INSERT INTO t (k, i) VALUES ($1, $2)";

TEST_F(ServerPgPrepared, FailedStatementInATransactionDoesNotPoisonTheCache) {
  ASSERT_TRUE(db_->Exec(kInsert, {Value("a"), Value(int64_t{1})}).ok());  // Prepared now.
  {
    Transaction txn(*db_);
    ASSERT_TRUE(txn.status().ok());
    // The cached statement fails (duplicate key) and aborts the transaction.
    EXPECT_EQ(db_->Exec(kInsert, {Value("a"), Value(int64_t{2})}).code(), "STORAGE_ERROR");
    // A statement first seen in the aborted transaction cannot be prepared.
    auto aborted = db_->Query("SELECT k FROM t WHERE i = $1", {Value(int64_t{1})});
    EXPECT_EQ(aborted.status().code(), "STORAGE_ERROR");
  }  // Rolled back.
  ASSERT_TRUE(db_->Exec(kInsert, {Value("b"), Value(int64_t{2})}).ok());
  auto found = db_->Query("SELECT k FROM t WHERE i = $1", {Value(int64_t{1})});
  ASSERT_TRUE(found.ok()) << found.status().ToString();
  EXPECT_EQ(found->rows, (std::vector<std::vector<Value>>{{Value("a")}}));
  {
    Transaction txn(*db_);
    ASSERT_TRUE(txn.status().ok());
    ASSERT_TRUE(db_->Exec(kInsert, {Value("c"), Value(int64_t{3})}).ok());
    ASSERT_TRUE(txn.Commit().ok());
  }
  EXPECT_EQ(Count(), 3);
}

TEST_F(ServerPgPrepared, QueriesStillWorkAfterTheServerDropsPreparedStatements) {
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(db_->Exec(kInsert, {Value("a" + std::to_string(i)), Value(int64_t{i})}).ok());
  }
  ASSERT_EQ(Count(), 3);
  ASSERT_TRUE(db_->ExecScript("DEALLOCATE ALL").ok());
  // Each cached statement meets SQLSTATE 26000 once and is prepared again.
  ASSERT_TRUE(db_->Exec(kInsert, {Value("b"), Value(int64_t{9})}).ok());
  EXPECT_EQ(Count(), 4);
  ASSERT_TRUE(db_->Exec(kInsert, {Value("c"), Value(int64_t{9})}).ok());
  EXPECT_EQ(Count(), 5);
  // And the re-prepared statements work inside a transaction too.
  {
    Transaction txn(*db_);
    ASSERT_TRUE(txn.status().ok());
    ASSERT_TRUE(db_->Exec(kInsert, {Value("d"), Value(int64_t{9})}).ok());
    EXPECT_EQ(Count(), 6);
    ASSERT_TRUE(txn.Commit().ok());
  }
  EXPECT_EQ(Count(), 6);
}

TEST_F(ServerPgPrepared, ReconnectingForgetsThePreparedStatements) {
  ASSERT_TRUE(db_->Exec(kInsert, {Value("a"), Value(int64_t{1})}).ok());
  ASSERT_EQ(Count(), 1);
  // The server ends this session; the next statement reconnects.
  EXPECT_FALSE(db_->Query("SELECT pg_terminate_backend(pg_backend_pid())").ok());
  // Inside a transaction a statement the new session lacks would abort it, so
  // the cache must have been forgotten on reconnect.
  {
    Transaction txn(*db_);
    ASSERT_TRUE(txn.status().ok()) << txn.status().ToString();
    ASSERT_TRUE(db_->Exec(kInsert, {Value("b"), Value(int64_t{2})}).ok());
    EXPECT_EQ(Count(), 2);
    ASSERT_TRUE(txn.Commit().ok());
  }
  EXPECT_EQ(Count(), 2);
}

TEST(ServerPgDatabase, ARelaxedTransactionTurnsOffSynchronousCommitForItselfOnly) {
  ENSEMBLE_SKIP_IF_STORE_MISSING(StoreKind::kPostgres);
  auto store = ScratchStore::Create(StoreKind::kPostgres);
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  auto db = (*store)->Connect();
  ASSERT_TRUE(db.ok());
  ASSERT_TRUE((*db)->ExecScript("CREATE TABLE t (k TEXT PRIMARY KEY)").ok());
  auto setting = [&] {
    return core::store::AsText((*db)->Query("SHOW synchronous_commit")->rows[0][0]);
  };
  {
    Transaction txn(**db, core::store::Durability::kRelaxed);
    ASSERT_TRUE(txn.status().ok());
    ASSERT_TRUE((*db)->Exec("INSERT INTO t (k) VALUES ('a')").ok());
    EXPECT_EQ(setting(), "off");
    ASSERT_TRUE(txn.Commit().ok());
  }
  EXPECT_EQ(setting(), "on");
  {
    Transaction txn(**db);
    EXPECT_EQ(setting(), "on");
  }
  EXPECT_EQ(core::store::AsInt((*db)->Query("SELECT COUNT(*) FROM t")->rows[0][0]), 1);
}

TEST(ServerPgDatabase, OpenFailureIsStorageErrorWithoutTheUrl) {
  // Port 1 on localhost: nothing listens there, so this fails at once.
  auto db = server::store::PgDatabase::Open(
      "postgresql://someone:hunter2@127.0.0.1:1/nothing?connect_timeout=2");
  ASSERT_FALSE(db.ok());
  EXPECT_EQ(db.status().code(), "STORAGE_ERROR");
  EXPECT_EQ(db.status().message().find("hunter2"), std::string::npos);
}

}  // namespace
}  // namespace ensemble::testing
