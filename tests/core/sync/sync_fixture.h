// The in-process sync fixture shared by the tests in tests/core/sync/: a
// server on an in-memory SQLite store and clients with their own replicas,
// joined by direct calls (no network).
//
// Thread-safety: none; one test at a time.

#ifndef ENSEMBLE_TESTS_CORE_SYNC_SYNC_FIXTURE_H_
#define ENSEMBLE_TESTS_CORE_SYNC_SYNC_FIXTURE_H_

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "core/base/id.h"
#include "core/hub/hub.h"
#include "core/store/sqlite_database.h"
#include "core/sync/client_replica.h"
#include "core/sync/row_codec.h"
#include "core/sync/server_sync.h"
#include "core/tasks/task.h"
#include "tests/fakes/fake_env.h"

namespace ensemble::core::sync {

using nlohmann::json;

inline std::unique_ptr<store::SqliteDatabase> NewDb() {
  auto db = std::move(store::SqliteDatabase::Open(":memory:")).value();
  EXPECT_TRUE(hub::Migrate(*db).ok());
  return db;
}

struct Client {
  explicit Client(uint64_t seed) : env{testing::FakeClock(), testing::FakeRandom(seed), {}} {
    db = NewDb();
    replica = std::move(ClientReplica::Open(*db, env.env(), hub::Config())).value();
  }
  std::string NewTask(const std::string& title) {
    std::string id = NewId(env.clock, env.random);
    env.clock.Advance(1);
    auto r =
        replica->Mutate("task.create", {{"id", id}, {"spaceId", "personal"}, {"title", title}});
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return id;
  }
  tasks::Task Get(const std::string& id) { return **tasks::GetTask(*db, id); }

  testing::FakeEnv env;
  std::unique_ptr<store::SqliteDatabase> db;
  std::unique_ptr<ClientReplica> replica;
};

// Every row `sql` reads from `db`, as JSON objects, in its order.
inline nlohmann::json RowsOf(store::Database& db, const std::string& sql) {
  auto rows = db.Query(sql);
  EXPECT_TRUE(rows.ok()) << sql << ": " << rows.status().ToString();
  nlohmann::json out = nlohmann::json::array();
  for (size_t i = 0; rows.ok() && i < rows->size(); ++i) out.push_back(RowToJson(*rows, i));
  return out;
}

class SyncTest : public ::testing::Test {
 protected:
  SyncTest() : server_db_(NewDb()), server_(hub::Config()) {}

  json Push(Client& c) {
    json request = *c.replica->PushRequest();
    auto response = server_.Push(*server_db_, request);
    EXPECT_TRUE(response.ok()) << response.status().ToString();
    EXPECT_TRUE(c.replica->ApplyPushResponse(*response).ok());
    return *response;
  }
  void Pull(Client& c) {
    for (int page = 0; page < 100; ++page) {
      json req = *c.replica->PullRequest();
      auto resp = server_.Pull(*server_db_, req["clientId"], req["cursor"]);
      ASSERT_TRUE(resp.ok()) << resp.status().ToString();
      auto again = c.replica->ApplyPull(*resp);
      ASSERT_TRUE(again.ok()) << again.status().ToString();
      if (!*again) return;
    }
    FAIL() << "pull did not finish";
  }
  void Sync(Client& c) {
    while (!(*c.replica->PushRequest())["mutations"].empty()) Push(c);
    Pull(c);
  }
  // A record created on `c`'s replica in `space`, with a new id.
  std::string Create(Client& c, const std::string& kind, json args,
                     const std::string& space = "personal") {
    const std::string id = NewId(c.env.clock, c.env.random);
    c.env.clock.Advance(1);
    args["id"] = id;
    args["spaceId"] = space;
    auto r = c.replica->Mutate(kind + ".create", args);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return id;
  }
  void Update(Client& c, const std::string& kind, const std::string& id, json fields) {
    auto r = c.replica->Mutate(kind + ".update", {{"id", id}, {"fields", fields}});
    EXPECT_TRUE(r.ok()) << r.status().ToString();
  }
  int64_t ServerCount(const std::string& sql) {
    return store::AsInt(server_db_->Query(sql)->rows[0][0]);
  }
  json ServerRows(const std::string& table = "tasks") {
    return RowsOf(*server_db_, "SELECT * FROM " + table + " ORDER BY id");
  }
  json ClientRows(Client& c, const std::string& table = "tasks") {
    return RowsOf(*c.db, "SELECT * FROM " + table + " ORDER BY id");
  }

  std::unique_ptr<store::SqliteDatabase> server_db_;
  ServerSync server_;
};

}  // namespace ensemble::core::sync

#endif  // ENSEMBLE_TESTS_CORE_SYNC_SYNC_FIXTURE_H_
