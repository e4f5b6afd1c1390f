// The settings and Needs-me tools (core/assistant/account_tool_runs.h): read,
// find, a held change checked at proposal time and written at Apply, and the
// Needs me list; and what a context without settings (the browser) says.

#include "core/assistant/account_tool_runs.h"

#include <gmock/gmock.h>

#include "core/accounts/account_settings.h"
#include "core/assistant/conversation_store.h"
#include "core/assistant/proposal_store.h"
#include "tests/core/assistant/tool_run_fixture.h"

namespace ensemble::core::assistant {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

class AccountToolRunsTest : public ToolRunTest {
 protected:
  void SetUp() override {
    ToolRunTest::SetUp();
    ctx_.settings_account = "ada";
  }
  json Saved() {
    auto s = accounts::GetAccountSettings(*db_, "ada");
    EXPECT_TRUE(s.ok());
    return s.ok() ? accounts::AccountSettingsJson(*s) : json();
  }
};

TEST_F(AccountToolRunsTest, GetSettingsReadsOneAreaOrAll) {
  json all = Ok("hub_get_settings", json::object());
  EXPECT_EQ(all["data"]["settings"].size(), accounts::SettingKeys().size());
  json assistant = Ok("hub_get_settings", {{"area", "assistant"}});
  ASSERT_EQ(assistant["data"]["settings"].size(), 2u);
  EXPECT_EQ(assistant["data"]["settings"][0]["key"], "assistant.writePolicy");
  EXPECT_EQ(assistant["data"]["settings"][0]["value"], "immediate");
  EXPECT_THAT(assistant["summary"].get<std::string>(),
              HasSubstr("Assistant write mode: immediate"));
  json appearance = Ok("hub_get_settings", {{"area", "appearance"}});
  EXPECT_TRUE(appearance["data"]["settings"].empty());
  EXPECT_THAT(appearance["summary"].get<std::string>(), HasSubstr("No settings of appearance"));
}

TEST_F(AccountToolRunsTest, FindSettingMatchesEveryWord) {
  json found = Ok("hub_find_setting", {{"query", "time zone"}});
  ASSERT_EQ(found["data"]["settings"].size(), 1u);
  EXPECT_EQ(found["data"]["settings"][0]["key"], "general.timeZone");
  EXPECT_EQ(found["data"]["settings"][0]["value"], "UTC");
  json write_mode = Ok("hub_find_setting", {{"query", "Write MODE"}});
  ASSERT_EQ(write_mode["data"]["settings"].size(), 1u);
  EXPECT_EQ(write_mode["data"]["settings"][0]["key"], "assistant.writePolicy");
  json none = Ok("hub_find_setting", {{"query", "dark theme"}});
  EXPECT_TRUE(none["data"]["settings"].empty());
  EXPECT_THAT(none["summary"].get<std::string>(), HasSubstr("No setting matches"));
}

TEST_F(AccountToolRunsTest, UpdateSettingsIsHeldCheckedEarlyAndWrittenAtApply) {
  EXPECT_TRUE(Tool("hub_update_settings").always_hold);
  const json change = {{"changes",
                        {{{"key", "assistant.writePolicy"}, {"value", "preview"}},
                         {{"key", "general.timeZone"}, {"value", "Europe/Paris"}}}}};
  Result<std::string> preview = Preview("hub_update_settings", change);
  ASSERT_TRUE(preview.ok()) << preview.status().ToString();
  EXPECT_THAT(*preview, HasSubstr("Assistant write mode to preview"));
  EXPECT_THAT(*preview, HasSubstr("Time zone to Europe/Paris"));
  EXPECT_EQ(Saved()["assistant"]["writePolicy"], "immediate");  // Previewing writes nothing.

  json done = Ok("hub_update_settings", change);
  EXPECT_EQ(Saved()["assistant"]["writePolicy"], "preview");
  EXPECT_EQ(Saved()["general"]["timeZone"], "Europe/Paris");
  EXPECT_THAT(done["summary"].get<std::string>(), HasSubstr("Changed"));
  EXPECT_EQ(writes_, 0);  // Settings are not synced records.
}

TEST_F(AccountToolRunsTest, BadChangesAreRefusedBeforeAnythingIsWritten) {
  const json bad[] = {
      {{"changes", {{{"key", "appearance.theme"}, {"value", "dark"}}}}},
      {{"changes", {{{"key", "general.timeZone"}, {"value", "Mars/Olympus"}}}}},
      {{"changes",
        {{{"key", "assistant.writePolicy"}, {"value", "preview"}},
         {{"key", "assistant.writePolicy"}, {"value", "needs-me"}}}}},
      {{"changes",
        {{{"key", "assistant.writePolicy"}, {"value", "preview"}},
         {{"key", "assistant.allowedWriteAreas"}, {"value", {"nowhere"}}}}}},
  };
  const json before = Saved();
  for (const json& input : bad) {
    EXPECT_EQ(Preview("hub_update_settings", input).status().code(), codes::kInvalidArgument)
        << input.dump();
    EXPECT_EQ(Run("hub_update_settings", input).status().code(), codes::kInvalidArgument)
        << input.dump();
    EXPECT_EQ(Saved(), before) << input.dump();
  }
}

TEST_F(AccountToolRunsTest, WithoutSettingsTheToolsSaySoReadably) {
  ctx_.settings_account.clear();
  Result<json> r = Run("hub_get_settings", json::object());
  EXPECT_EQ(r.status().code(), codes::kFailedPrecondition);
  EXPECT_THAT(r.status().message(), HasSubstr("online"));
}

TEST_F(AccountToolRunsTest, ListApprovalsShowsWhatWaitsOnNeedsMe) {
  json empty = Ok("hub_list_approvals", json::object());
  EXPECT_EQ(empty["summary"], "Nothing waits for you on Needs me.");

  ASSERT_TRUE(CreateConversation(*db_, "c1", kSpace, "ada", "Plans", kNow).ok());
  Proposal p;
  p.id = "p1";
  p.conversation_id = "c1";
  p.message_id = "m1";
  p.account_id = "ada";
  p.space_id = kSpace;
  p.waits_on = WaitsOn::kNeedsMe;
  p.calls = {{"call-1", "hub_create_tasks", {{"tasks", {{{"title", "Send invoice"}}}}}}};
  ASSERT_TRUE(SaveProposal(*db_, p, kNow).ok());
  json listed = Ok("hub_list_approvals", json::object());
  ASSERT_EQ(listed["data"]["approvals"].size(), 1u);
  EXPECT_EQ(listed["data"]["approvals"][0]["proposalId"], "p1");
  EXPECT_THAT(listed["summary"].get<std::string>(), HasSubstr("1 change waits"));
  // Another person's Needs me is not listed.
  ctx_.settings_account = "bob";
  EXPECT_TRUE(Ok("hub_list_approvals", json::object())["data"]["approvals"].empty());
}

}  // namespace
}  // namespace ensemble::core::assistant
