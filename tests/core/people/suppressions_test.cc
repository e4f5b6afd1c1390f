// Context suppressions (core/people/suppressions.h): an address is
// suppressed while a person or an identity in Trash holds it, lifted by a
// restore, and kept for good when a compaction purges the row; the hub's
// compaction records it before the row goes.

#include "core/people/suppressions.h"

#include <gmock/gmock.h>

#include "core/hub/hub.h"
#include "core/sync/server_sync.h"
#include "tests/core/people/people_fixture.h"

namespace ensemble::core::people {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr char kAna[] = "01JB0000000000000000000001";
constexpr char kBo[] = "01JB0000000000000000000002";
constexpr char kIdentity[] = "01JB0000000000000000000009";

class SuppressionsTest : public PeopleStoreTest {
 protected:
  void SetUp() override {
    ASSERT_TRUE(
        Mutate("person.create",
               {{"id", kAna}, {"spaceId", "s"}, {"name", "Ana"}, {"email", " Ana@Example.com"}})
            .ok());
    ASSERT_TRUE(Mutate("person.create", {{"id", kBo}, {"spaceId", "s"}, {"name", "Bo"}}).ok());
    ASSERT_TRUE(Mutate("person_identity.create", {{"id", kIdentity},
                                                  {"spaceId", "s"},
                                                  {"person", kBo},
                                                  {"identity_kind", "email"},
                                                  {"value", "bo@work.example"}})
                    .ok());
  }

  std::set<std::string> Suppressed(const std::string& space = "s") {
    auto out = SuppressedEmails(*db_, space);
    EXPECT_TRUE(out.ok()) << out.status().ToString();
    return out.ok() ? *out : std::set<std::string>();
  }
};

TEST_F(SuppressionsTest, NothingLiveIsSuppressed) { EXPECT_THAT(Suppressed(), IsEmpty()); }

TEST_F(SuppressionsTest, APersonInTrashSuppressesTheirAddressesUntilRestored) {
  ASSERT_TRUE(Mutate("person.delete", {{"id", kAna}}).ok());
  ASSERT_TRUE(Mutate("person.delete", {{"id", kBo}}).ok());
  EXPECT_THAT(Suppressed(), ElementsAre("ana@example.com", "bo@work.example"));
  EXPECT_THAT(Suppressed("t"), IsEmpty());  // Another space's removals are its own.
  ASSERT_TRUE(Mutate("person.restore", {{"id", kAna}}).ok());
  EXPECT_THAT(Suppressed(), ElementsAre("bo@work.example"));
}

TEST_F(SuppressionsTest, ARemovedIdentityIsSuppressedThoughItsPersonLives) {
  ASSERT_TRUE(Mutate("person_identity.delete", {{"id", kIdentity}}).ok());
  EXPECT_THAT(Suppressed(), ElementsAre("bo@work.example"));
}

TEST_F(SuppressionsTest, APurgeKeepsTheSuppressionForGood) {
  ASSERT_TRUE(Mutate("person.delete", {{"id", kAna}}).ok());
  ASSERT_TRUE(Mutate("person.delete", {{"id", kBo}}).ok());
  sync::ServerSync server(hub::Config());
  auto purged = server.Compact(*db_, 0);
  ASSERT_TRUE(purged.ok()) << purged.status().ToString();
  EXPECT_EQ(*purged, 2);  // The two people; Bo's identity is not itself in Trash.
  auto left = db_->Query("SELECT COUNT(*) FROM people", {});
  ASSERT_TRUE(left.ok());
  EXPECT_EQ(store::AsInt(left->rows[0][0]), 0);
  EXPECT_THAT(Suppressed(), ElementsAre("ana@example.com", "bo@work.example"));
  // A second compaction finds them recorded already.
  ASSERT_TRUE(SuppressPurgedPeople(*db_, 0).ok());
  EXPECT_THAT(Suppressed(), ElementsAre("ana@example.com", "bo@work.example"));
}

}  // namespace
}  // namespace ensemble::core::people
