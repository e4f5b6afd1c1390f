// The person record (core/people/person.h): its added fields, and the
// identity lookup: an exact address finds the person (whatever its case or
// surrounding spaces), in the space only, never a person in Trash; a name
// alone finds nobody.

#include "core/people/person.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "core/hub/hub.h"
#include "core/records/record_mutators.h"
#include "core/store/sqlite_database.h"
#include "core/sync/mutator.h"

namespace ensemble::core::people {
namespace {

using nlohmann::json;

constexpr char kMira[] = "01JB0000000000000000000001";
constexpr char kOtherMira[] = "01JB0000000000000000000002";

class PersonTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = std::move(store::SqliteDatabase::Open(":memory:")).value();
    ASSERT_TRUE(hub::Migrate(*db_).ok());
  }

  Status Run(const std::string& name, const json& args) {
    const sync::Mutator* m = hub::Config().mutators->Find(name);
    if (!m) return Status(codes::kUnknownMutation, name);
    store::Transaction txn(*db_);
    sync::MutationContext ctx(*db_, 1000);
    Status st = (*m)(ctx, args);
    if (st.ok()) EXPECT_TRUE(txn.Commit().ok());
    return st;
  }

  std::optional<std::string> Find(const std::string& space, const std::string& email) {
    auto r = FindPersonByEmail(*db_, space, email);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? *r : std::nullopt;
  }

  std::unique_ptr<store::SqliteDatabase> db_;
};

TEST_F(PersonTest, RoleTeamAndRelationshipAreKept) {
  ASSERT_TRUE(Run("person.create", {{"id", kMira},
                                    {"spaceId", "s"},
                                    {"name", "Mira"},
                                    {"role", " Designer "},
                                    {"relationship", "client"}})
                  .ok());
  auto row = records::ReadRecord(kPersonKind, *db_, kMira);
  ASSERT_TRUE(row.ok() && row->has_value());
  EXPECT_EQ((**row)["role"], "Designer");
  EXPECT_EQ((**row)["team"], "");
  EXPECT_EQ((**row)["relationship"], "client");
  EXPECT_EQ(Run("person.update", {{"id", kMira}, {"fields", {{"relationship", "friend"}}}}).code(),
            codes::kInvalidArgument);
}

TEST_F(PersonTest, AnExactAddressFindsThePerson) {
  ASSERT_TRUE(
      Run("person.create",
          {{"id", kMira}, {"spaceId", "s"}, {"name", "Mira"}, {"email", "Mira@Example.com"}})
          .ok());
  EXPECT_EQ(Find("s", " mira@example.COM "), kMira);
  EXPECT_EQ(Find("s", "mira@example.org"), std::nullopt);
  EXPECT_EQ(Find("other", "mira@example.com"), std::nullopt);
  EXPECT_EQ(Find("s", ""), std::nullopt);
  ASSERT_TRUE(Run("person.delete", {{"id", kMira}}).ok());
  EXPECT_EQ(Find("s", "mira@example.com"), std::nullopt);
}

TEST_F(PersonTest, ANameAloneNeverMatches) {
  ASSERT_TRUE(Run("person.create", {{"id", kMira}, {"spaceId", "s"}, {"name", "Mira"}}).ok());
  ASSERT_TRUE(Run("person.create", {{"id", kOtherMira}, {"spaceId", "s"}, {"name", "Mira"}}).ok());
  EXPECT_EQ(Find("s", "Mira"), std::nullopt);
}

TEST(PersonEmail, NormalizedForComparison) {
  EXPECT_EQ(NormalizeEmail("  Ana.Lima@Example.COM "), "ana.lima@example.com");
}

}  // namespace
}  // namespace ensemble::core::people
