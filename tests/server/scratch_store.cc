#include "tests/server/scratch_store.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <string>
#include <system_error>

#include "server/store/open_store.h"
#include "server/store/pg_database.h"

namespace ensemble::testing {
namespace {

using core::Result;
using core::Status;

Result<std::filesystem::path> MakeTempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "ensemble-server-test-XXXXXX");
  if (!mkdtemp(pattern.data())) return Status(core::codes::kInternal, "mkdtemp failed");
  return std::filesystem::path(pattern);
}

// Unique across the parallel test processes ctest starts and within one.
std::string UniqueDatabaseName() {
  static std::atomic<int> counter{0};
  auto now = std::chrono::steady_clock::now().time_since_epoch().count();
  return "ensemble_test_" + std::to_string(getpid()) + "_" + std::to_string(counter++) + "_" +
         std::to_string(now % 1000000007);
}

}  // namespace

std::string StoreKindTestName(const ::testing::TestParamInfo<StoreKind>& info) {
  return info.param == StoreKind::kSqlite ? "Sqlite" : "Postgres";
}

void PrintTo(StoreKind kind, std::ostream* os) {
  *os << (kind == StoreKind::kSqlite ? "Sqlite" : "Postgres");
}

std::string TestDatabaseUrl() {
  const char* url = std::getenv("ENSEMBLE_TEST_DATABASE_URL");
  return url ? url : "";
}

bool PostgresRequired() {
  const char* v = std::getenv("ENSEMBLE_REQUIRE_PG");
  return v && std::string(v) == "1";
}

std::string WithDatabaseName(const std::string& url, const std::string& name) {
  for (std::string_view scheme : {"postgresql://", "postgres://"}) {
    if (!url.starts_with(scheme)) continue;
    size_t authority_end = url.find_first_of("/?", scheme.size());
    if (authority_end == std::string::npos) return url + "/" + name;
    size_t query = url.find('?', authority_end);
    std::string rest = query == std::string::npos ? "" : url.substr(query);
    return url.substr(0, authority_end) + "/" + name + rest;
  }
  return url + " dbname=" + name;  // key=value form: the last dbname wins.
}

Result<std::unique_ptr<ScratchStore>> ScratchStore::Create(StoreKind kind) {
  std::unique_ptr<ScratchStore> store(new ScratchStore(kind));
  ENSEMBLE_ASSIGN_OR_RETURN(store->dir_, MakeTempDir());
  store->config_.data_dir = (store->dir_ / "data").string();
  if (kind == StoreKind::kPostgres) {
    const std::string admin_url = TestDatabaseUrl();
    ENSEMBLE_ASSIGN_OR_RETURN(auto admin, server::store::PgDatabase::Open(admin_url));
    std::string name = UniqueDatabaseName();
    ENSEMBLE_RETURN_IF_ERROR(admin->ExecScript("CREATE DATABASE " + name));
    store->pg_database_ = name;
    store->config_.database_url = WithDatabaseName(admin_url, name);
  }
  return store;
}

ScratchStore::~ScratchStore() {
  if (!pg_database_.empty()) {
    auto admin = server::store::PgDatabase::Open(TestDatabaseUrl());
    // FORCE ends sessions a failed test left open.
    Status st =
        admin.ok()
            ? (*admin)->ExecScript("DROP DATABASE IF EXISTS " + pg_database_ + " WITH (FORCE)")
            : admin.status();
    if (!st.ok()) ADD_FAILURE() << "cannot drop " << pg_database_ << ": " << st.ToString();
  }
  std::error_code ec;
  if (!dir_.empty()) std::filesystem::remove_all(dir_, ec);
}

Result<std::unique_ptr<core::store::Database>> ScratchStore::Connect() const {
  return server::store::OpenDatabase(config_);
}

std::map<std::string, std::string> ScratchStore::ProcessEnv() const {
  return {{"ENSEMBLE_DATABASE_URL", config_.database_url},
          {"ENSEMBLE_DATA_DIR", (dir_ / "data").string()},
          {"ENSEMBLE_WEB_ROOT", dir_.string()},
          {"ENSEMBLE_WASM_DIR", dir_.string()}};
}

int64_t QueryInt(core::store::Database& db, const std::string& sql) {
  auto rows = db.Query(sql);
  EXPECT_TRUE(rows.ok()) << sql << ": " << rows.status().ToString();
  if (!rows.ok() || rows->empty()) return -1;
  return core::store::AsInt(rows->rows[0][0], -1);
}

}  // namespace ensemble::testing
