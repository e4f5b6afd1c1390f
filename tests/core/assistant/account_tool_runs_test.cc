// The settings and Needs-me tools (core/assistant/account_tool_runs.h): read,
// find, a held change checked at proposal time and written at Apply, and the
// Needs me list; and what a context without settings (the browser) says.

#include "core/assistant/account_tool_runs.h"

#include <gmock/gmock.h>

#include "core/accounts/account_settings.h"
#include "core/assistant/conversation_store.h"
#include "core/assistant/proposal_store.h"
#include "core/model/model_catalog.h"
#include "tests/core/tools/tool_run_fixture.h"

namespace ensemble::core::assistant {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

class AccountToolRunsTest : public tools::ToolRunTest {
 protected:
  void SetUp() override {
    tools::ToolRunTest::SetUp();
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
  ASSERT_EQ(assistant["data"]["settings"].size(), 3u);
  EXPECT_EQ(assistant["data"]["settings"][2]["key"], "assistant.effort");
  EXPECT_EQ(assistant["data"]["settings"][2]["value"], "none");
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

TEST_F(AccountToolRunsTest, WithoutAModelTheChoiceIsTheBuiltInPlanner) {
  json listed = Ok("hub_list_model_choices", json::object());
  ASSERT_EQ(listed["data"]["choices"].size(), 1u);
  EXPECT_EQ(listed["data"]["choices"][0]["model"], "local-planner");
  EXPECT_EQ(listed["data"]["choices"][0]["current"], true);
  EXPECT_EQ(listed["data"]["effort"], "none");
  EXPECT_THAT(listed["summary"].get<std::string>(), HasSubstr("No model is set up"));
  // Nothing to reason harder with.
  const json high = {{"changes", {{{"key", "assistant.effort"}, {"value", "high"}}}}};
  Result<std::string> preview = Preview("hub_update_settings", high);
  EXPECT_EQ(preview.status().code(), codes::kUnsupportedOption);
  EXPECT_THAT(preview.status().message(), HasSubstr("no model is set up"));
  // Turning effort off needs no model.
  EXPECT_TRUE(Preview("hub_update_settings",
                      {{"changes", {{{"key", "assistant.effort"}, {"value", "none"}}}}})
                  .ok());
}

TEST_F(AccountToolRunsTest, ModelChoicesNameTheModelItsEffortsAndTheSavedOne) {
  ctx_.model = model::ChooseModel("openai", "o3-mini");
  ASSERT_TRUE(
      accounts::PatchAccountSettings(*db_, "ada", {{"assistant.effort", "high"}}, kNow).ok());
  json listed = Ok("hub_list_model_choices", json::object());
  ASSERT_EQ(listed["data"]["choices"].size(), 2u);
  const json& current = listed["data"]["choices"][0];
  EXPECT_EQ(current["provider"], "openai");
  EXPECT_EQ(current["model"], "o3-mini");
  EXPECT_EQ(current["efforts"], (json{"low", "medium", "high"}));
  EXPECT_EQ(current["current"], true);
  EXPECT_EQ(listed["data"]["choices"][1]["current"], false);
  EXPECT_EQ(listed["data"]["effort"], "high");
  EXPECT_THAT(listed["summary"].get<std::string>(),
              HasSubstr("You use o3-mini (openai), effort high; it takes effort low, medium or "
                        "high."));

  // A model that takes none: the saved effort is called out.
  ctx_.model = model::ChooseModel("ollama", "llama3.1:8b");
  listed = Ok("hub_list_model_choices", json::object());
  EXPECT_THAT(listed["summary"].get<std::string>(), HasSubstr("it takes no effort option"));
  EXPECT_THAT(listed["summary"].get<std::string>(), HasSubstr("turns are refused"));
}

TEST_F(AccountToolRunsTest, AnEffortIsCheckedAgainstTheModelAtProposalAndAtApply) {
  ctx_.model = model::ChooseModel("openai", "gpt-5-mini");
  const json minimal = {{"changes", {{{"key", "assistant.effort"}, {"value", "minimal"}}}}};
  Result<std::string> preview = Preview("hub_update_settings", minimal);
  ASSERT_TRUE(preview.ok()) << preview.status().ToString();
  EXPECT_THAT(*preview, HasSubstr("Assistant effort to minimal"));

  // The model changed between the proposal and Apply: the run checks again.
  ctx_.model = model::ChooseModel("openai", "o3");
  tools::ToolCall call{"hub_update_settings", minimal, &ctx_};
  Result<json> applied = Tool("hub_update_settings").run(call);
  EXPECT_EQ(applied.status().code(), codes::kUnsupportedOption);
  EXPECT_THAT(applied.status().message(), HasSubstr("does not offer effort 'minimal'"));
  EXPECT_EQ(Saved()["assistant"]["effort"], "none");

  Ok("hub_update_settings", {{"changes", {{{"key", "assistant.effort"}, {"value", "medium"}}}}});
  EXPECT_EQ(Saved()["assistant"]["effort"], "medium");
  // An unknown effort name is the settings' own INVALID_ARGUMENT.
  EXPECT_EQ(Preview("hub_update_settings",
                    {{"changes", {{{"key", "assistant.effort"}, {"value", "max"}}}}})
                .status()
                .code(),
            codes::kInvalidArgument);
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
