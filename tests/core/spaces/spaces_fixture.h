// The store the spaces tests share: in memory, migrated as the hub's, with
// three accounts (ana, bo, cy at example.org) and Ana's space "team" named
// "Team".
//
// Thread-safety: none; one per test.

#ifndef ENSEMBLE_TESTS_CORE_SPACES_SPACES_FIXTURE_H_
#define ENSEMBLE_TESTS_CORE_SPACES_SPACES_FIXTURE_H_

#include <gtest/gtest.h>

#include <memory>
#include <tuple>

#include "core/accounts/account.h"
#include "core/hub/hub.h"
#include "core/spaces/space_admin.h"
#include "core/store/sqlite_database.h"

namespace ensemble::core::spaces {

class SpacesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = std::move(store::SqliteDatabase::Open(":memory:")).value();
    ASSERT_TRUE(hub::Migrate(*db_).ok());
    for (const auto& [id, email, name] :
         {std::tuple{"ana", "ana@example.org", "Ana"}, std::tuple{"bo", "bo@example.org", "Bo"},
          std::tuple{"cy", "cy@example.org", "Cy"}}) {
      ASSERT_TRUE(accounts::InsertAccount(*db_, {id, email, name, "$argon2id$x", 1}).ok());
    }
    ASSERT_TRUE(CreateSpace(*db_, "ana", "team", "  Team  ").ok());
  }

  std::unique_ptr<store::SqliteDatabase> db_;
};

}  // namespace ensemble::core::spaces

#endif  // ENSEMBLE_TESTS_CORE_SPACES_SPACES_FIXTURE_H_
