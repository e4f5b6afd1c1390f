// Spaces and members (core/spaces/space_admin.h): making and naming a space,
// sharing by email, role changes, leaving, and the rules that keep an owner
// and never confirm a space to a stranger.

#include "core/spaces/space_admin.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "core/spaces/invitations.h"
#include "tests/core/spaces/spaces_fixture.h"

namespace ensemble::core::spaces {
namespace {

using sync::Role;

class SpaceAdminTest : public SpacesTest {
 protected:
  // `owner` shares the space with `account` (at `email`) and they accept.
  void Join(const std::string& owner, const std::string& email, const std::string& account,
            Role role) {
    auto shared = Share(*db_, owner, "team", email, role, "inv-" + account, 1);
    ASSERT_TRUE(shared.ok()) << shared.status().ToString();
    ASSERT_TRUE(shared->invitation);
    auto joined = AcceptInvitation(*db_, account, shared->invitation->id);
    ASSERT_TRUE(joined.ok()) << joined.status().ToString();
  }
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

TEST_F(SpaceAdminTest, ASharedMemberIsListedInTheirRole) {
  Join("ana", " Bo@Example.org ", "bo", Role::kEditor);
  EXPECT_EQ(*sync::RoleIn(*db_, "team", "bo"), Role::kEditor);
  auto members = MembersOf(*db_, "bo", "team");
  ASSERT_TRUE(members.ok());
  ASSERT_EQ(members->size(), 2u);
  EXPECT_EQ((*members)[0].account_id, "ana");  // Owners first.
  EXPECT_EQ((*members)[1].email, "bo@example.org");
}

TEST_F(SpaceAdminTest, OnlyOwnersChangeRolesAndStrangersSeeNothing) {
  Join("ana", "bo@example.org", "bo", Role::kEditor);
  EXPECT_EQ(ChangeRole(*db_, "bo", "team", "bo", Role::kViewer).status().code(), codes::kForbidden);
  EXPECT_EQ(RenameSpace(*db_, "bo", "team", "Mine").code(), codes::kForbidden);
  EXPECT_EQ(MembersOf(*db_, "cy", "team").status().code(), codes::kNotFound);
  EXPECT_EQ(ChangeRole(*db_, "cy", "team", "cy", Role::kOwner).status().code(), codes::kNotFound);
  EXPECT_EQ(RemoveMember(*db_, "cy", "team", "bo").code(), codes::kNotFound);
  EXPECT_EQ(RemoveMember(*db_, "bo", "team", "ana").code(), codes::kForbidden);
  EXPECT_FALSE(sync::RoleIn(*db_, "team", "cy")->has_value());
}

TEST_F(SpaceAdminTest, ARoleChangeShortOfOwnerIsAtOnceButOwnerNeedsConsent) {
  Join("ana", "bo@example.org", "bo", Role::kViewer);
  auto changed = ChangeRole(*db_, "ana", "team", "bo", Role::kGuest);
  ASSERT_TRUE(changed.ok()) << changed.status().ToString();
  EXPECT_EQ(changed->email, "bo@example.org");
  EXPECT_EQ(*sync::RoleIn(*db_, "team", "bo"), Role::kGuest);
  EXPECT_EQ(ChangeRole(*db_, "ana", "team", "bo", Role::kOwner).status().code(),
            codes::kFailedPrecondition);
  EXPECT_EQ(*sync::RoleIn(*db_, "team", "bo"), Role::kGuest);
}

TEST_F(SpaceAdminTest, ASpaceAlwaysKeepsAnOwner) {
  EXPECT_EQ(RemoveMember(*db_, "ana", "team", "ana").code(), codes::kFailedPrecondition);
  EXPECT_EQ(ChangeRole(*db_, "ana", "team", "ana", Role::kEditor).status().code(),
            codes::kFailedPrecondition);
  Join("ana", "bo@example.org", "bo", Role::kOwner);
  // With a second owner, the first may step down or leave.
  EXPECT_TRUE(ChangeRole(*db_, "ana", "team", "ana", Role::kEditor).ok());
  EXPECT_TRUE(RemoveMember(*db_, "ana", "team", "ana").ok());
  EXPECT_FALSE(sync::RoleIn(*db_, "team", "ana")->has_value());
  EXPECT_EQ(SpacesOf(*db_, "ana")->size(), 0u);
}

TEST_F(SpaceAdminTest, AMemberMayLeaveAndAnOwnerRenames) {
  Join("ana", "bo@example.org", "bo", Role::kViewer);
  EXPECT_TRUE(RemoveMember(*db_, "bo", "team", "bo").ok());
  EXPECT_TRUE(RenameSpace(*db_, "ana", "team", "Crew").ok());
  EXPECT_EQ((*SpacesOf(*db_, "ana"))[0].name, "Crew");
}

}  // namespace
}  // namespace ensemble::core::spaces
