// hub_read_sharing (core/spaces/sharing_tool_run.h): the open space's
// members and roles and the person's other spaces; nothing for a space the
// account is not in; local mode said plainly.

#include "core/spaces/sharing_tool_run.h"

#include <gmock/gmock.h>

#include <tuple>

#include "core/accounts/account.h"
#include "core/spaces/space_admin.h"
#include "tests/core/tools/tool_run_fixture.h"

namespace ensemble::core::spaces {
namespace sharing_tool_run_test {

using nlohmann::json;
using ::testing::HasSubstr;

class ReadSharingTest : public tools::ToolRunTest {
 protected:
  void SetUp() override {
    tools::ToolRunTest::SetUp();
    for (const auto& [id, email, name] :
         {std::tuple{"ana", "ana@example.org", "Ana"}, std::tuple{"bo", "bo@example.org", "Bo"},
          std::tuple{"cy", "cy@example.org", ""}}) {
      ASSERT_TRUE(accounts::InsertAccount(*db_, {id, email, name, "$argon2id$x", 1}).ok());
    }
    ASSERT_TRUE(spaces::CreateSpace(*db_, "ana", "launch", "Launch").ok());
    ASSERT_TRUE(spaces::CreateSpace(*db_, "ana", "home", "Home").ok());
    // Members as if they had accepted their invitations.
    ASSERT_TRUE(sync::SetMember(*db_, "launch", "bo", sync::Role::kEditor).ok());
    ASSERT_TRUE(sync::SetMember(*db_, "launch", "cy", sync::Role::kGuest).ok());
    ctx_.space_id = "launch";
    ctx_.account_id = "ana";
  }
};

TEST_F(ReadSharingTest, GivesTheMembersTheirRolesAndTheOtherSpaces) {
  json r = Ok("hub_read_sharing", json::object());
  EXPECT_EQ(r["data"]["space"]["name"], "Launch");
  EXPECT_EQ(r["data"]["space"]["yourRole"], "owner");
  ASSERT_EQ(r["data"]["members"].size(), 3u);
  EXPECT_EQ(r["data"]["members"][0]["you"], true);
  EXPECT_EQ(r["data"]["otherSpaces"],
            json::array({{{"id", "home"}, {"name", "Home"}, {"role", "owner"}}}));
  EXPECT_EQ(r["summary"],
            "\u201CLaunch\u201D has 3 members: you as owner, Bo (bo@example.org) as editor, "
            "cy@example.org as guest. Your other spaces: \u201CHome\u201D (owner).");
  // Bo sees the same members, and not Ana's other space.
  ctx_.account_id = "bo";
  json bo = Ok("hub_read_sharing", json::object());
  EXPECT_EQ(bo["data"]["space"]["yourRole"], "editor");
  EXPECT_TRUE(bo["data"]["otherSpaces"].empty());
}

TEST_F(ReadSharingTest, ASpaceTheAccountIsNotInIsNotFound) {
  ctx_.space_id = "home";
  ctx_.account_id = "bo";
  EXPECT_EQ(Run("hub_read_sharing", json::object()).status().code(), codes::kNotFound);
}

TEST_F(ReadSharingTest, LocalModeSaysNobodySharesIt) {
  ctx_.account_id.clear();
  ctx_.space_id = kSpace;
  EXPECT_THAT(Ok("hub_read_sharing", json::object())["summary"].get<std::string>(),
              HasSubstr("local mode"));
}

}  // namespace sharing_tool_run_test
}  // namespace ensemble::core::spaces
