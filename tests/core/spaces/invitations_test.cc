// Sharing with consent (core/spaces/invitations.h): an invitation makes
// nobody a member until they accept it; declining, withdrawing, an owner's
// promotion, an invitation whose sender lost ownership, and the limits.

#include "core/spaces/invitations.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "tests/core/spaces/spaces_fixture.h"

namespace ensemble::core::spaces {
namespace {

using sync::Role;

class InvitationsTest : public SpacesTest {
 protected:
  Result<Shared> Invite(const std::string& from, const std::string& email, Role role) {
    return Share(*db_, from, "team", email, role, "inv-" + std::to_string(++made_), 100 + made_);
  }
  std::string InviteId(const std::string& from, const std::string& email, Role role) {
    auto shared = Invite(from, email, role);
    EXPECT_TRUE(shared.ok()) << shared.status().ToString();
    if (!shared.ok() || !shared->invitation) return "";
    return shared->invitation->id;
  }
  std::optional<Role> RoleOfIn(const std::string& account) {
    return *sync::RoleIn(*db_, "team", account);
  }

  int made_ = 0;
};

TEST_F(InvitationsTest, NobodyIsAMemberUntilTheyAccept) {
  auto shared = Invite("ana", " Bo@Example.org ", Role::kEditor);
  ASSERT_TRUE(shared.ok()) << shared.status().ToString();
  ASSERT_TRUE(shared->invitation);
  EXPECT_FALSE(shared->member);
  EXPECT_FALSE(RoleOfIn("bo"));
  EXPECT_EQ(MembersOf(*db_, "bo", "team").status().code(), codes::kNotFound);

  auto mine = InvitationsFor(*db_, "bo");
  ASSERT_TRUE(mine.ok());
  ASSERT_EQ(mine->size(), 1u);
  EXPECT_EQ((*mine)[0].space_name, "Team");
  EXPECT_EQ((*mine)[0].from_email, "ana@example.org");
  EXPECT_EQ((*mine)[0].role, Role::kEditor);
  EXPECT_TRUE(InvitationsFor(*db_, "cy")->empty());
  ASSERT_EQ(InvitationsOf(*db_, "ana", "team")->size(), 1u);
  EXPECT_EQ((*InvitationsOf(*db_, "ana", "team"))[0].email, "bo@example.org");

  // Only the invitee answers it.
  EXPECT_EQ(AcceptInvitation(*db_, "cy", (*mine)[0].id).status().code(), codes::kNotFound);
  auto joined = AcceptInvitation(*db_, "bo", (*mine)[0].id);
  ASSERT_TRUE(joined.ok()) << joined.status().ToString();
  EXPECT_EQ(joined->role, Role::kEditor);
  EXPECT_EQ(joined->members, 2);
  EXPECT_EQ(RoleOfIn("bo"), Role::kEditor);
  EXPECT_TRUE(InvitationsFor(*db_, "bo")->empty());
  EXPECT_EQ(AcceptInvitation(*db_, "bo", (*mine)[0].id).status().code(), codes::kNotFound);
}

TEST_F(InvitationsTest, DeclinedOrWithdrawnItLetsNobodyIn) {
  const std::string declined = InviteId("ana", "bo@example.org", Role::kViewer);
  EXPECT_EQ(DeclineInvitation(*db_, "cy", declined).code(), codes::kNotFound);
  ASSERT_TRUE(DeclineInvitation(*db_, "bo", declined).ok());
  EXPECT_EQ(AcceptInvitation(*db_, "bo", declined).status().code(), codes::kNotFound);

  const std::string withdrawn = InviteId("ana", "bo@example.org", Role::kViewer);
  ASSERT_TRUE(WithdrawInvitation(*db_, "ana", "team", withdrawn).ok());
  EXPECT_EQ(AcceptInvitation(*db_, "bo", withdrawn).status().code(), codes::kNotFound);
  EXPECT_FALSE(RoleOfIn("bo"));
  EXPECT_EQ(WithdrawInvitation(*db_, "ana", "team", withdrawn).code(), codes::kNotFound);
}

TEST_F(InvitationsTest, OnlyOwnersInviteOrWithdrawAndOthersSeeNoInvitations) {
  ASSERT_TRUE(AcceptInvitation(*db_, "bo", InviteId("ana", "bo@example.org", Role::kEditor)).ok());
  EXPECT_EQ(Invite("bo", "cy@example.org", Role::kViewer).status().code(), codes::kForbidden);
  EXPECT_EQ(Invite("cy", "cy@example.org", Role::kOwner).status().code(), codes::kNotFound);
  const std::string pending = InviteId("ana", "cy@example.org", Role::kViewer);
  EXPECT_EQ(WithdrawInvitation(*db_, "bo", "team", pending).code(), codes::kForbidden);
  EXPECT_TRUE(InvitationsOf(*db_, "bo", "team")->empty());
  EXPECT_EQ(InvitationsOf(*db_, "cy", "team").status().code(), codes::kNotFound);
  EXPECT_EQ(Invite("ana", "nobody@example.org", Role::kViewer).status().code(), codes::kNotFound);
}

TEST_F(InvitationsTest, BecomingAnOwnerNeedsConsentAndOtherRolesChangeAtOnce) {
  ASSERT_TRUE(AcceptInvitation(*db_, "bo", InviteId("ana", "bo@example.org", Role::kViewer)).ok());
  auto guest = Invite("ana", "bo@example.org", Role::kGuest);
  ASSERT_TRUE(guest.ok());
  ASSERT_TRUE(guest->member);
  EXPECT_EQ(RoleOfIn("bo"), Role::kGuest);

  auto owner = Invite("ana", "bo@example.org", Role::kOwner);
  ASSERT_TRUE(owner.ok());
  ASSERT_TRUE(owner->invitation);
  EXPECT_EQ(RoleOfIn("bo"), Role::kGuest);
  ASSERT_TRUE(AcceptInvitation(*db_, "bo", owner->invitation->id).ok());
  EXPECT_EQ(RoleOfIn("bo"), Role::kOwner);
}

TEST_F(InvitationsTest, InvitingAgainChangesThePendingRoleNotTheCount) {
  const std::string first = InviteId("ana", "bo@example.org", Role::kViewer);
  const std::string again = InviteId("ana", "bo@example.org", Role::kEditor);
  EXPECT_EQ(first, again);
  ASSERT_EQ(InvitationsFor(*db_, "bo")->size(), 1u);
  EXPECT_EQ((*InvitationsFor(*db_, "bo"))[0].role, Role::kEditor);
}

TEST_F(InvitationsTest, AnInvitationFromSomeoneNoLongerAnOwnerIsVoid) {
  ASSERT_TRUE(AcceptInvitation(*db_, "bo", InviteId("ana", "bo@example.org", Role::kOwner)).ok());
  const std::string from_bo = InviteId("bo", "cy@example.org", Role::kEditor);
  ASSERT_TRUE(ChangeRole(*db_, "ana", "team", "bo", Role::kViewer).ok());
  EXPECT_TRUE(InvitationsFor(*db_, "cy")->empty());
  EXPECT_EQ(AcceptInvitation(*db_, "cy", from_bo).status().code(), codes::kFailedPrecondition);
  EXPECT_FALSE(RoleOfIn("cy"));
}

TEST_F(InvitationsTest, APersonHoldsABoundedNumberOfPendingInvitations) {
  for (size_t i = 0; i < kMaxPendingInvitationsPerAccount; ++i) {
    const std::string space = "s" + std::to_string(i);
    ASSERT_TRUE(CreateSpace(*db_, "ana", space, space).ok());
    ASSERT_TRUE(Share(*db_, "ana", space, "bo@example.org", Role::kViewer, "p" + space, 1).ok());
  }
  auto one_more = Invite("ana", "bo@example.org", Role::kViewer);
  EXPECT_EQ(one_more.status().code(), codes::kLimitReached);
  EXPECT_EQ(InvitationsFor(*db_, "bo")->size(), kMaxPendingInvitationsPerAccount);
}

}  // namespace
}  // namespace ensemble::core::spaces
