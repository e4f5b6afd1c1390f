// Races that must have one winner (docs/SECURITY.md, "Sharing with
// consent"): two owners demoting each other at the same moment leave the
// space with an owner, and two first sign-ups under ENSEMBLE_SIGNUP=first
// make one account. Each runs many times on two connections of one store,
// the second PostgreSQL's (where read committed would let both through).

#include <gtest/gtest.h>

#include <barrier>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "core/accounts/account.h"
#include "core/hub/hub.h"
#include "core/spaces/space_admin.h"
#include "core/sync/authorization.h"
#include "tests/server/scratch_store.h"

namespace ensemble::testing {
namespace {

using core::Status;
using core::sync::Role;

#if defined(__SANITIZE_ADDRESS__)
constexpr int kRounds = 25;
#else
constexpr int kRounds = 100;
#endif

class ConcurrentOwners : public ::testing::TestWithParam<StoreKind> {
 protected:
  void SetUp() override {
    ENSEMBLE_SKIP_IF_STORE_MISSING(GetParam());
    auto scratch = ScratchStore::Create(GetParam());
    ASSERT_TRUE(scratch.ok()) << scratch.status().ToString();
    scratch_ = std::move(*scratch);
    for (auto* db : {&a_, &b_}) {
      auto c = scratch_->Connect();
      ASSERT_TRUE(c.ok()) << c.status().ToString();
      *db = std::move(*c);
    }
    ASSERT_TRUE(core::hub::Migrate(*a_).ok());
  }

  // Runs `one` on connection a and `two` on connection b at the same moment,
  // each in its own transaction; returns whether each committed.
  std::pair<Status, Status> Race(const std::function<Status(core::store::Database&)>& one,
                                 const std::function<Status(core::store::Database&)>& two) {
    std::barrier start(2);
    Status first, second;
    auto run = [&start](core::store::Database& db,
                        const std::function<Status(core::store::Database&)>& work, Status& out) {
      start.arrive_and_wait();
      core::store::Transaction txn(db);
      out = txn.status();
      if (out.ok()) out = work(db);
      if (out.ok()) out = txn.Commit();
    };
    std::thread t1(run, std::ref(*a_), std::cref(one), std::ref(first));
    std::thread t2(run, std::ref(*b_), std::cref(two), std::ref(second));
    t1.join();
    t2.join();
    return {first, second};
  }

  std::unique_ptr<ScratchStore> scratch_;
  std::unique_ptr<core::store::Database> a_, b_;
};

core::accounts::Account MakeAccount(const std::string& id) {
  return {id, id + "@example.test", id, "not-a-hash", 1};
}

TEST_P(ConcurrentOwners, TwoOwnersDemotingEachOtherLeaveAnOwner) {
  ASSERT_TRUE(core::accounts::InsertAccount(*a_, MakeAccount("ann")).ok());
  ASSERT_TRUE(core::accounts::InsertAccount(*a_, MakeAccount("ben")).ok());
  for (int round = 0; round < kRounds; ++round) {
    const std::string space = "space-" + std::to_string(round);
    ASSERT_TRUE(core::sync::SetMember(*a_, space, "ann", Role::kOwner).ok());
    ASSERT_TRUE(core::sync::SetMember(*a_, space, "ben", Role::kOwner).ok());
    auto [ann, ben] = Race(
        [&](core::store::Database& db) {
          return core::spaces::ChangeRole(db, "ann", space, "ben", Role::kEditor).status();
        },
        [&](core::store::Database& db) {
          return core::spaces::ChangeRole(db, "ben", space, "ann", Role::kEditor).status();
        });
    SCOPED_TRACE("round " + std::to_string(round) + ": " + ann.ToString() + " / " + ben.ToString());
    EXPECT_FALSE(ann.ok() && ben.ok());
    EXPECT_EQ(QueryInt(*a_, "SELECT COUNT(*) FROM space_members WHERE space_id = '" + space +
                                "' AND role = 'owner'"),
              1);
    if (HasFailure()) return;
  }
}

TEST_P(ConcurrentOwners, TwoFirstSignUpsMakeOneAccount) {
  for (int round = 0; round < kRounds; ++round) {
    ASSERT_TRUE(a_->Exec("DELETE FROM accounts").ok());
    ASSERT_TRUE(a_->Exec("DELETE FROM sync_state WHERE key = 'first_account_claimed'").ok());
    auto sign_up = [](const std::string& id) {
      return [id](core::store::Database& db) -> Status {
        ENSEMBLE_ASSIGN_OR_RETURN(bool first, core::accounts::ClaimFirstAccount(db));
        if (!first) return Status(core::codes::kForbidden, "sign-up is closed");
        return core::accounts::InsertAccount(db, MakeAccount(id));
      };
    };
    auto [one, two] = Race(sign_up("first"), sign_up("second"));
    SCOPED_TRACE("round " + std::to_string(round) + ": " + one.ToString() + " / " + two.ToString());
    EXPECT_NE(one.ok(), two.ok());
    EXPECT_EQ(QueryInt(*a_, "SELECT COUNT(*) FROM accounts"), 1);
    if (HasFailure()) return;
  }
}

INSTANTIATE_TEST_SUITE_P(Stores, ConcurrentOwners,
                         ::testing::Values(StoreKind::kSqlite, StoreKind::kPostgres),
                         StoreKindTestName);

}  // namespace
}  // namespace ensemble::testing
