// A member sees what is shared, and only that (docs/SECURITY.md): per seed,
// three accounts share and unshare their spaces in random roles, write tasks
// and reminders, and sync in a random order; at the end each replica holds
// exactly the rows its account may read: every live task of its spaces
// (however long before the membership it was written), and reminders (the
// owner's own kind) only of the spaces it owns. On both stores.
//
// ENSEMBLE_MEMBERSHIP_SEED=N runs only seed N.

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/base/id.h"
#include "core/hub/hub.h"
#include "core/store/sqlite_database.h"
#include "core/sync/authorization.h"
#include "core/sync/client_replica.h"
#include "core/sync/row_codec.h"
#include "core/sync/server_sync.h"
#include "tests/fakes/fake_env.h"
#include "tests/server/scratch_store.h"

namespace ensemble::testing {
namespace {

using core::sync::Role;
using nlohmann::json;

#if defined(__SANITIZE_ADDRESS__)
constexpr int kSeeds = 8;
#else
constexpr int kSeeds = 40;
#endif
constexpr int kStepsPerSeed = 40;
constexpr int kMaxPullPages = 50;
constexpr const char* kAccounts[] = {"ana", "bo", "cy"};
constexpr int kAccountCount = 3;
constexpr int64_t kReminderAt = 1'900'000'000'000;

std::string SpaceOf(int account) { return std::string("s-") + kAccounts[account]; }

struct Device {
  explicit Device(uint64_t seed) : env{FakeClock(), FakeRandom(seed), {}} {
    db = std::move(core::store::SqliteDatabase::Open(":memory:")).value();
    EXPECT_TRUE(core::hub::Migrate(*db).ok());
    replica =
        std::move(core::sync::ClientReplica::Open(*db, env.env(), core::hub::Config())).value();
  }
  FakeEnv env;
  std::unique_ptr<core::store::SqliteDatabase> db;
  std::unique_ptr<core::sync::ClientReplica> replica;
};

// The first three columns of each row of `sql`, joined by "|", as a set.
std::set<std::string> Live(core::store::Database& db, const std::string& sql) {
  auto rows = db.Query(sql);
  EXPECT_TRUE(rows.ok()) << rows.status().ToString();
  std::set<std::string> out;
  if (!rows.ok()) return out;
  for (const auto& r : rows->rows) {
    out.insert(core::store::AsText(r[0]) + "|" + core::store::AsText(r[1]) + "|" +
               core::store::AsText(r[2]));
  }
  return out;
}

class MembershipSync : public ::testing::TestWithParam<StoreKind> {
 protected:
  void SetUp() override {
    ENSEMBLE_SKIP_IF_STORE_MISSING(GetParam());
    auto scratch = ScratchStore::Create(GetParam());
    ASSERT_TRUE(scratch.ok()) << scratch.status().ToString();
    scratch_ = std::move(*scratch);
  }

  // A fresh, migrated server store for one seed.
  std::unique_ptr<core::store::Database> FreshServer() {
    auto db = scratch_->Connect();
    EXPECT_TRUE(db.ok()) << db.status().ToString();
    for (const char* table : {"tasks", "reminders", "space_members", "spaces", "sync_clients",
                              "sync_verdicts", "account_access"}) {
      (void)(*db)->Exec(std::string("DELETE FROM ") + table);
    }
    EXPECT_TRUE(core::hub::Migrate(**db).ok());
    return std::move(*db);
  }

  void Sync(core::store::Database& server_db, Device& d, const std::string& account) {
    core::sync::ServerSync server(core::hub::Config());
    for (int round = 0; round < 5; ++round) {
      json request = *d.replica->PushRequest();
      if (request["mutations"].empty()) break;
      auto response = server.Push(server_db, request, account);
      ASSERT_TRUE(response.ok()) << response.status().ToString();
      ASSERT_TRUE(d.replica->ApplyPushResponse(*response).ok());
    }
    for (int page = 0; page < kMaxPullPages; ++page) {
      json req = *d.replica->PullRequest();
      auto resp = server.Pull(server_db, account, req["clientId"], req["cursor"]);
      ASSERT_TRUE(resp.ok()) << resp.status().ToString();
      auto again = d.replica->ApplyPull(*resp);
      ASSERT_TRUE(again.ok()) << again.status().ToString();
      if (!*again) return;
    }
    FAIL() << "pull did not finish";
  }

  void RunSeed(uint64_t seed);

  std::unique_ptr<ScratchStore> scratch_;
};

void MembershipSync::RunSeed(uint64_t seed) {
  SCOPED_TRACE("seed " + std::to_string(seed) +
               " (ENSEMBLE_MEMBERSHIP_SEED=" + std::to_string(seed) + " replays it)");
  std::unique_ptr<core::store::Database> server_db = FreshServer();
  ASSERT_TRUE(server_db);
  core::store::Database& db = *server_db;
  std::mt19937_64 rng(seed);
  auto pick = [&rng](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };
  std::vector<std::unique_ptr<Device>> devices;
  for (int a = 0; a < kAccountCount; ++a) {
    ASSERT_TRUE(core::sync::SetMember(db, SpaceOf(a), kAccounts[a], Role::kOwner).ok());
    devices.push_back(std::make_unique<Device>(seed * 10 + static_cast<uint64_t>(a)));
  }
  constexpr Role kRoles[] = {Role::kOwner, Role::kEditor, Role::kGuest, Role::kViewer};
  int written = 0;
  for (int step = 0; step < kStepsPerSeed; ++step) {
    const int who = pick(kAccountCount);
    const int other = (who + 1 + pick(kAccountCount - 1)) % kAccountCount;
    Device& d = *devices[static_cast<size_t>(who)];
    const std::string space = SpaceOf(pick(kAccountCount));
    switch (pick(5)) {
      case 0: {  // The first owner shares their space with another account.
        core::store::Transaction txn(db);
        ASSERT_TRUE(
            core::sync::SetMember(db, SpaceOf(who), kAccounts[other], kRoles[pick(4)]).ok());
        ASSERT_TRUE(txn.Commit().ok());
        break;
      }
      case 1: {  // ... or takes it back.
        core::store::Transaction txn(db);
        ASSERT_TRUE(core::sync::DropMember(db, SpaceOf(who), kAccounts[other]).ok());
        ASSERT_TRUE(txn.Commit().ok());
        break;
      }
      case 2: {  // A task in any space: the server decides whether it may.
        const std::string id = core::NewId(d.env.clock, d.env.random);
        d.env.clock.Advance(1);
        (void)d.replica->Mutate(
            "task.create",
            {{"id", id}, {"spaceId", space}, {"title", "t" + std::to_string(written++)}});
        break;
      }
      case 3: {  // A reminder, which only owners keep and see.
        const std::string id = core::NewId(d.env.clock, d.env.random);
        d.env.clock.Advance(1);
        (void)d.replica->Mutate("reminder.create", {{"id", id},
                                                    {"spaceId", space},
                                                    {"text", "r" + std::to_string(written++)},
                                                    {"at", kReminderAt}});
        break;
      }
      default:
        Sync(db, d, kAccounts[who]);
        break;
    }
    if (HasFatalFailure()) return;
  }
  for (int round = 0; round < 2; ++round) {
    for (int a = 0; a < kAccountCount; ++a)
      Sync(db, *devices[static_cast<size_t>(a)], kAccounts[a]);
  }
  for (int a = 0; a < kAccountCount; ++a) {
    const std::string me = kAccounts[a];
    SCOPED_TRACE("account " + me);
    core::store::Database& mine = *devices[static_cast<size_t>(a)]->db;
    const std::string member_of =
        "(SELECT space_id FROM space_members WHERE account_id = '" + me + "')";
    const std::string owner_of =
        "(SELECT space_id FROM space_members WHERE account_id = '" + me + "' AND role = 'owner')";
    EXPECT_EQ(Live(mine, "SELECT id, title, space_id FROM tasks WHERE deleted = 0"),
              Live(db, "SELECT id, title, space_id FROM tasks WHERE deleted = 0 AND space_id IN " +
                           member_of));
    EXPECT_EQ(
        Live(mine, "SELECT id, text, space_id FROM reminders WHERE deleted = 0"),
        Live(db, "SELECT id, text, space_id FROM reminders WHERE deleted = 0 AND space_id IN " +
                     owner_of));
    // Nothing of a space it left stays behind, not even a tombstone.
    auto spaces_now =
        db.Query("SELECT space_id FROM space_members WHERE account_id = '" + me + "'");
    ASSERT_TRUE(spaces_now.ok());
    std::set<std::string> readable;
    for (const auto& r : spaces_now->rows) readable.insert(core::store::AsText(r[0]));
    auto held = mine.Query("SELECT DISTINCT space_id FROM tasks");
    ASSERT_TRUE(held.ok());
    for (const auto& r : held->rows) EXPECT_TRUE(readable.count(core::store::AsText(r[0])));
  }
}

TEST_P(MembershipSync, EveryReplicaHoldsExactlyWhatItsAccountMayRead) {
  if (const char* one = std::getenv("ENSEMBLE_MEMBERSHIP_SEED")) {
    RunSeed(std::strtoull(one, nullptr, 10));
    return;
  }
  for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
    RunSeed(seed);
    if (HasFailure()) return;
  }
}

// The case the property rests on, spelled out: rows written long before the
// share arrive on the next pull from a cursor past them, and leave on unshare.
TEST_P(MembershipSync, ANewMemberReceivesOldRowsAndARemovedOneDropsThem) {
  std::unique_ptr<core::store::Database> server_db = FreshServer();
  core::store::Database& db = *server_db;
  ASSERT_TRUE(core::sync::SetMember(db, "s-ana", "ana", Role::kOwner).ok());
  ASSERT_TRUE(core::sync::SetMember(db, "s-bo", "bo", Role::kOwner).ok());
  Device ana(1), bo(2);
  ASSERT_TRUE(ana.replica
                  ->Mutate("task.create", {{"id", core::NewId(ana.env.clock, ana.env.random)},
                                           {"spaceId", "s-ana"},
                                           {"title", "written before the share"}})
                  .ok());
  Sync(db, ana, "ana");
  Sync(db, bo, "bo");  // bo's cursor is now past ana's task.
  EXPECT_EQ(QueryInt(*bo.db, "SELECT COUNT(*) FROM tasks"), 0);
  ASSERT_TRUE(core::sync::SetMember(db, "s-ana", "bo", Role::kViewer).ok());
  Sync(db, bo, "bo");
  EXPECT_EQ(QueryInt(*bo.db, "SELECT COUNT(*) FROM tasks WHERE title = 'written before the share'"),
            1);
  ASSERT_TRUE(core::sync::DropMember(db, "s-ana", "bo").ok());
  Sync(db, bo, "bo");
  EXPECT_EQ(QueryInt(*bo.db, "SELECT COUNT(*) FROM tasks"), 0);
}

INSTANTIATE_TEST_SUITE_P(Stores, MembershipSync,
                         ::testing::Values(StoreKind::kSqlite, StoreKind::kPostgres),
                         StoreKindTestName);

}  // namespace
}  // namespace ensemble::testing
