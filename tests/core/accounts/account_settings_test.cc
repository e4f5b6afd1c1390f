// A person's saved settings: defaults, merging patches, refusing unknown keys
// and bad values without changing anything, per account, on the embedded
// SQLite store.

#include "core/accounts/account_settings.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>

#include "core/assistant/hub_tools.h"
#include "core/hub/hub.h"
#include "core/hub/hub_tools.h"
#include "core/store/sqlite_database.h"

namespace ensemble::core::accounts {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

json AllAreas() {
  json out = json::array();
  for (std::string_view a : WriteAreas()) out.push_back(std::string(a));
  return out;
}

class AccountSettingsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = std::move(store::SqliteDatabase::Open(":memory:")).value();
    ASSERT_TRUE(hub::Migrate(*db_).ok());
  }
  json Get(const std::string& account = "ada") {
    auto s = GetAccountSettings(*db_, account);
    EXPECT_TRUE(s.ok()) << s.status().ToString();
    return s.ok() ? AccountSettingsJson(*s) : json();
  }
  Status Patch(const json& patch, const std::string& account = "ada") {
    return PatchAccountSettings(*db_, account, patch, 1000).status();
  }
  std::unique_ptr<store::SqliteDatabase> db_;
};

TEST_F(AccountSettingsTest, AnAccountThatSavedNothingHasTheDefaults) {
  EXPECT_EQ(
      Get(),
      (json{{"assistant",
             {{"writePolicy", "immediate"}, {"allowedWriteAreas", AllAreas()}, {"effort", "none"}}},
            {"general", {{"timeZone", "UTC"}}}}));
  auto s = GetAccountSettings(*db_, "ada");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->assistant.write_policy, tools::WritePolicy::kImmediate);
  EXPECT_TRUE(s->assistant.AllWriteAreasAllowed());
}

TEST_F(AccountSettingsTest, APatchMergesAndIsReadBack) {
  ASSERT_TRUE(Patch({{"assistant", {{"writePolicy", "needs-me"}}}}).ok());
  ASSERT_TRUE(Patch({{"assistant.allowedWriteAreas", {"pages", "tasks", "pages"}}}).ok());
  // Distinct, in WriteAreas() order; the earlier key kept.
  EXPECT_EQ(Get()["assistant"], (json{{"writePolicy", "needs-me"},
                                      {"allowedWriteAreas", {"tasks", "pages"}},
                                      {"effort", "none"}}));
  auto s = GetAccountSettings(*db_, "ada");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->assistant.write_policy, tools::WritePolicy::kNeedsMe);
  EXPECT_FALSE(s->assistant.AllWriteAreasAllowed());
  // The returned settings are the saved ones.
  auto patched =
      PatchAccountSettings(*db_, "ada", {{"assistant", {{"writePolicy", "preview"}}}}, 2);
  ASSERT_TRUE(patched.ok());
  EXPECT_EQ(AccountSettingsJson(*patched), Get());
  EXPECT_EQ(Get()["assistant"]["writePolicy"], "preview");
  // Null puts a key back to its default; an empty list turns every area off.
  ASSERT_TRUE(
      Patch({{"assistant", {{"writePolicy", nullptr}, {"allowedWriteAreas", json::array()}}}})
          .ok());
  EXPECT_EQ(Get()["assistant"], (json{{"writePolicy", "immediate"},
                                      {"allowedWriteAreas", json::array()},
                                      {"effort", "none"}}));
  EXPECT_TRUE(Patch(json::object()).ok());
}

TEST_F(AccountSettingsTest, UnknownKeysAndBadValuesAreRefusedAndNothingChanges) {
  ASSERT_TRUE(Patch({{"assistant", {{"writePolicy", "preview"}}}}).ok());
  const json before = Get();
  struct Case {
    json patch;
    std::string names;
  };
  const Case cases[] = {
      {{{"assistant", {{"writePolicy", "needs-me"}, {"colour", "blue"}}}}, "assistant.colour"},
      {{{"theme", "dark"}}, "theme"},
      {{{"assistant", {{"writePolicy", "sometimes"}}}}, "assistant.writePolicy"},
      {{{"assistant", {{"writePolicy", 3}}}}, "assistant.writePolicy"},
      {{{"assistant", {{"writePolicy", "needs-me"}, {"allowedWriteAreas", {"tasks", "nope"}}}}},
       "\"nope\""},
      {{{"assistant", {{"allowedWriteAreas", "tasks"}}}}, "assistant.allowedWriteAreas"},
      {{{"assistant", {{"allowedWriteAreas", {1}}}}}, "assistant.allowedWriteAreas"},
      {{{"assistant", {{"allowedWriteAreas", {"core"}}}}}, "\"core\""},
      {{{"assistant", {{"writePolicy", "needs-me"}}}, {"assistant.writePolicy", "needs-me"}},
       "assistant.writePolicy"},
      {{{"assistant", "preview"}}, "assistant"},
      {{{"general", {{"timeZone", "Mars/Olympus"}}}}, "general.timeZone"},
      {{{"assistant", {{"effort", "extreme"}}}}, "none, minimal, low, medium, high"},
      {{{"assistant.effort", true}}, "assistant.effort"},
      {{{"general.timeZone", 5}}, "general.timeZone"},
      {json::array(), "settings"},
  };
  for (const Case& c : cases) {
    Status st = Patch(c.patch);
    EXPECT_EQ(st.code(), codes::kInvalidArgument) << c.patch.dump();
    EXPECT_THAT(st.message(), HasSubstr(c.names)) << c.patch.dump();
    EXPECT_EQ(Get(), before) << c.patch.dump();
  }
  // A very long unknown key is named, cut short.
  Status st = Patch({{std::string(500, 'k'), 1}});
  EXPECT_EQ(st.code(), codes::kInvalidArgument);
  EXPECT_LT(st.message().size(), 300u);
}

TEST_F(AccountSettingsTest, TheTimeZoneIsAKnownZoneName) {
  ASSERT_TRUE(Patch({{"general", {{"timeZone", "Europe/Paris"}}}}).ok());
  EXPECT_EQ(Get()["general"]["timeZone"], "Europe/Paris");
  auto s = GetAccountSettings(*db_, "ada");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->general.time_zone, "Europe/Paris");
  EXPECT_EQ(SettingValue(*s, kTimeZoneSetting), "Europe/Paris");
  ASSERT_TRUE(Patch({{"general.timeZone", nullptr}}).ok());
  EXPECT_EQ(Get()["general"]["timeZone"], "UTC");
  // Every allowlisted key reads; anything else is null.
  for (std::string_view key : SettingKeys()) EXPECT_FALSE(SettingValue(*s, key).is_null()) << key;
  EXPECT_TRUE(SettingValue(*s, "assistant.colour").is_null());
}

TEST_F(AccountSettingsTest, TheEffortIsAKnownEffortNameOrNone) {
  ASSERT_TRUE(Patch({{"assistant", {{"effort", "high"}}}}).ok());
  auto s = GetAccountSettings(*db_, "ada");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->assistant.effort, "high");
  EXPECT_EQ(SettingValue(*s, kEffortSetting), "high");
  ASSERT_TRUE(Patch({{"assistant.effort", "none"}}).ok());
  EXPECT_EQ(Get()["assistant"]["effort"], "none");
  ASSERT_TRUE(Patch({{"assistant.effort", "minimal"}}).ok());
  ASSERT_TRUE(Patch({{"assistant.effort", nullptr}}).ok());
  EXPECT_EQ(Get()["assistant"]["effort"], "none");
}

TEST_F(AccountSettingsTest, SettingsBelongToOneAccount) {
  ASSERT_TRUE(Patch({{"assistant", {{"writePolicy", "needs-me"}}}}, "ada").ok());
  EXPECT_EQ(Get("ada")["assistant"]["writePolicy"], "needs-me");
  EXPECT_EQ(Get("bob")["assistant"]["writePolicy"], "immediate");
}

TEST_F(AccountSettingsTest, ASavedValueThatNoLongerReadsIsTheDefault) {
  ASSERT_TRUE(db_->Exec("INSERT INTO account_settings (account_id, key, value, updated_at)"
                        " VALUES ('ada', 'assistant.writePolicy', '\"sometimes\"', 1),"
                        " ('ada', 'assistant.retired', '1', 1)")
                  .ok());
  EXPECT_EQ(Get()["assistant"]["writePolicy"], "immediate");
}

TEST(AccountSettings, EveryWriteToolsAreaIsAWriteArea) {
  const tools::ToolRegistry& registry = hub::HubToolRegistry();
  for (const std::string& name : registry.names()) {
    const tools::ToolDef* def = registry.Find(name);
    ASSERT_NE(def, nullptr);
    if (!def->is_write) continue;
    EXPECT_NE(std::find(WriteAreas().begin(), WriteAreas().end(), def->area), WriteAreas().end())
        << name << " is in area " << def->area;
  }
}

}  // namespace
}  // namespace ensemble::core::accounts
