// ScratchStore: a fresh, empty store for one test, removed afterwards. SQLite
// lives in a new temporary folder; PostgreSQL is a new database created on
// the server named by ENSEMBLE_TEST_DATABASE_URL and dropped afterwards.
//
// Without that variable PostgreSQL tests skip, unless ENSEMBLE_REQUIRE_PG=1
// (CI), where they fail: a missing database must not pass silently there.
//
// Thread-safety: none; one per test.

#ifndef ENSEMBLE_TESTS_SERVER_SCRATCH_STORE_H_
#define ENSEMBLE_TESTS_SERVER_SCRATCH_STORE_H_

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <memory>
#include <ostream>
#include <string>

#include "core/base/status.h"
#include "core/store/database.h"
#include "server/config.h"

namespace ensemble::testing {

enum class StoreKind { kSqlite, kPostgres };

// "Sqlite" / "Postgres", for parameterized test names.
std::string StoreKindTestName(const ::testing::TestParamInfo<StoreKind>& info);
// Prints the kind by name (in failure messages and ctest's test names).
void PrintTo(StoreKind kind, std::ostream* os);

// The admin URL from ENSEMBLE_TEST_DATABASE_URL, or empty.
std::string TestDatabaseUrl();
bool PostgresRequired();

// `url` pointing at database `name` instead (URI or key=value form).
std::string WithDatabaseName(const std::string& url, const std::string& name);

// Skips the current test when `kind` is PostgreSQL and none is configured
// (fails instead when ENSEMBLE_REQUIRE_PG=1). Use in SetUp or a test body.
#define ENSEMBLE_SKIP_IF_STORE_MISSING(kind)                                          \
  do {                                                                                \
    if ((kind) == ::ensemble::testing::StoreKind::kPostgres &&                        \
        ::ensemble::testing::TestDatabaseUrl().empty()) {                             \
      if (::ensemble::testing::PostgresRequired()) {                                  \
        FAIL() << "ENSEMBLE_REQUIRE_PG=1 but ENSEMBLE_TEST_DATABASE_URL is not set";  \
      }                                                                               \
      GTEST_SKIP() << "set ENSEMBLE_TEST_DATABASE_URL to run the PostgreSQL variant"; \
    }                                                                                 \
  } while (0)

// A one-value query, such as "SELECT COUNT(*) FROM tasks"; -1 (and a test
// failure) when it fails or returns no row.
int64_t QueryInt(core::store::Database& db, const std::string& sql);

class ScratchStore {
 public:
  static core::Result<std::unique_ptr<ScratchStore>> Create(StoreKind kind);
  ~ScratchStore();

  StoreKind kind() const { return kind_; }
  // A private temporary folder (also for web roots and other files).
  const std::filesystem::path& dir() const { return dir_; }
  // A server Config whose store is this one (data_dir or database_url set).
  const server::Config& config() const { return config_; }
  // A new connection to the store, not migrated by itself.
  core::Result<std::unique_ptr<core::store::Database>> Connect() const;
  // The environment a server process (ServerProcess) needs to use this
  // PostgreSQL store, with its data, web and wasm folders in dir().
  std::map<std::string, std::string> ProcessEnv() const;

 private:
  explicit ScratchStore(StoreKind kind) : kind_(kind) {}

  StoreKind kind_;
  std::filesystem::path dir_;
  std::string pg_database_;  // Empty for SQLite.
  server::Config config_;
};

}  // namespace ensemble::testing

#endif  // ENSEMBLE_TESTS_SERVER_SCRATCH_STORE_H_
