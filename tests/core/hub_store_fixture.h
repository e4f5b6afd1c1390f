// A hub store in memory and a way to run one mutation on it, for the tests of
// the record domains (people, reminders, desk lists, ...).

#ifndef ENSEMBLE_TESTS_CORE_HUB_STORE_FIXTURE_H_
#define ENSEMBLE_TESTS_CORE_HUB_STORE_FIXTURE_H_

#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "core/hub/hub.h"
#include "core/records/record_mutators.h"
#include "core/store/sqlite_database.h"
#include "core/sync/mutator.h"

namespace ensemble::core {

// One replica: a store of its own.
class HubStore {
 public:
  HubStore() {
    db_ = std::move(store::SqliteDatabase::Open(":memory:")).value();
    EXPECT_TRUE(hub::Migrate(*db_).ok());
  }

  // Runs mutation `name` in its own transaction, committed when it succeeds;
  // the mutator's failure details land in details_.
  Status Mutate(const std::string& name, const nlohmann::json& args) {
    const sync::Mutator* m = hub::Config().mutators->Find(name);
    if (!m) return Status(codes::kUnknownMutation, name);
    store::Transaction txn(*db_);
    sync::MutationContext ctx(*db_, ++now_);
    Status st = (*m)(ctx, args);
    details_ = ctx.details();
    if (!st.ok()) last_failure_ = st.ToString();
    if (st.ok()) EXPECT_TRUE(txn.Commit().ok());
    return st;
  }

  nlohmann::json Row(const records::RecordKind& kind, const std::string& id) {
    auto row = records::ReadRecord(kind, *db_, id);
    EXPECT_TRUE(row.ok() && row->has_value()) << id;
    return row.ok() && row->has_value() ? **row : nlohmann::json();
  }

  std::unique_ptr<store::SqliteDatabase> db_;
  nlohmann::json details_;
  std::string last_failure_;  // the last failed mutation's code and message
  int64_t now_ = 1000;
};

class HubStoreTest : public ::testing::Test, public HubStore {};

}  // namespace ensemble::core

#endif  // ENSEMBLE_TESTS_CORE_HUB_STORE_FIXTURE_H_
