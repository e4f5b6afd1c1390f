// Spaces and members (core/spaces/space_admin.h): making and naming a space,
// sharing by email, role changes, leaving, and the rules that keep an owner
// and never confirm a space to a stranger.

#include "core/spaces/space_admin.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <tuple>

#include "core/accounts/account.h"
#include "core/hub/hub.h"
#include "core/store/sqlite_database.h"

namespace ensemble::core::spaces {
namespace {

using sync::Role;

class SpaceAdminTest : public ::testing::Test {
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

TEST_F(SpaceAdminTest, AMadeSpaceIsListedWithItsNameAndTheOwner) {
  auto spaces = SpacesOf(*db_, "ana");
  ASSERT_TRUE(spaces.ok());
  ASSERT_EQ(spaces->size(), 1u);
  EXPECT_EQ((*spaces)[0].name, "Team");
  EXPECT_EQ((*spaces)[0].role, Role::kOwner);
  EXPECT_EQ((*spaces)[0].members, 1);
  EXPECT_EQ(CreateSpace(*db_, "ana", "team", "Again").status().code(), codes::kAlreadyExists);
  EXPECT_EQ(CreateSpace(*db_, "ana", "x", "   ").status().code(), codes::kInvalidArgument);
  EXPECT_EQ(CreateSpace(*db_, "ana", "x", std::string(kMaxSpaceNameChars + 1, 'a')).status().code(),
            codes::kInvalidArgument);
  EXPECT_EQ(CreateSpace(*db_, "ana", "x", "a\x01").status().code(), codes::kInvalidArgument);
}

TEST_F(SpaceAdminTest, SharingByEmailAddsAMemberInARole) {
  auto added = SetMemberByEmail(*db_, "ana", "team", " Bo@Example.org ", Role::kEditor);
  ASSERT_TRUE(added.ok()) << added.status().ToString();
  EXPECT_EQ(added->account_id, "bo");
  EXPECT_EQ(*sync::RoleIn(*db_, "team", "bo"), Role::kEditor);
  auto members = MembersOf(*db_, "bo", "team");
  ASSERT_TRUE(members.ok());
  ASSERT_EQ(members->size(), 2u);
  EXPECT_EQ((*members)[0].account_id, "ana");  // Owners first.
  EXPECT_EQ((*members)[1].email, "bo@example.org");
  EXPECT_EQ(
      SetMemberByEmail(*db_, "ana", "team", "nobody@example.org", Role::kViewer).status().code(),
      codes::kNotFound);
}

TEST_F(SpaceAdminTest, OnlyOwnersShareAndStrangersSeeNothing) {
  ASSERT_TRUE(SetMemberByEmail(*db_, "ana", "team", "bo@example.org", Role::kEditor).ok());
  EXPECT_EQ(SetMemberByEmail(*db_, "bo", "team", "cy@example.org", Role::kViewer).status().code(),
            codes::kForbidden);
  EXPECT_EQ(RenameSpace(*db_, "bo", "team", "Mine").code(), codes::kForbidden);
  EXPECT_EQ(MembersOf(*db_, "cy", "team").status().code(), codes::kNotFound);
  EXPECT_EQ(SetMemberByEmail(*db_, "cy", "team", "cy@example.org", Role::kOwner).status().code(),
            codes::kNotFound);
  EXPECT_EQ(RemoveMember(*db_, "cy", "team", "bo").code(), codes::kNotFound);
  EXPECT_EQ(RemoveMember(*db_, "bo", "team", "ana").code(), codes::kForbidden);
  EXPECT_FALSE(sync::RoleIn(*db_, "team", "cy")->has_value());
}

TEST_F(SpaceAdminTest, ASpaceAlwaysKeepsAnOwner) {
  EXPECT_EQ(RemoveMember(*db_, "ana", "team", "ana").code(), codes::kFailedPrecondition);
  EXPECT_EQ(SetMemberByEmail(*db_, "ana", "team", "ana@example.org", Role::kEditor).status().code(),
            codes::kFailedPrecondition);
  ASSERT_TRUE(SetMemberByEmail(*db_, "ana", "team", "bo@example.org", Role::kOwner).ok());
  // With a second owner, the first may step down or leave.
  EXPECT_TRUE(SetMemberByEmail(*db_, "ana", "team", "ana@example.org", Role::kEditor).ok());
  EXPECT_TRUE(RemoveMember(*db_, "ana", "team", "ana").ok());
  EXPECT_FALSE(sync::RoleIn(*db_, "team", "ana")->has_value());
  EXPECT_EQ(SpacesOf(*db_, "ana")->size(), 0u);
}

TEST_F(SpaceAdminTest, AMemberMayLeaveAndAnOwnerRenames) {
  ASSERT_TRUE(SetMemberByEmail(*db_, "ana", "team", "bo@example.org", Role::kViewer).ok());
  EXPECT_TRUE(RemoveMember(*db_, "bo", "team", "bo").ok());
  EXPECT_TRUE(RenameSpace(*db_, "ana", "team", "Crew").ok());
  EXPECT_EQ((*SpacesOf(*db_, "ana"))[0].name, "Crew");
}

}  // namespace
}  // namespace ensemble::core::spaces
