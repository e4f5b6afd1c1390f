// A person's own settings, saved per account on the server (local mode: the
// one local account): an allowlist of typed keys, each validated before
// anything is written. Today the assistant's:
//   assistant.writePolicy        "immediate" (default) | "preview" | "needs-me"
//   assistant.allowedWriteAreas  [area]  the write areas the assistant may be
//                                offered (core/assistant/hub_tools.h areas);
//                                default: every write area
//   assistant.effort             "none" (default: no reasoning_effort is sent)
//                                | "minimal" | "low" | "medium" | "high"; the
//                                model's own list is checked before each
//                                call (core/model/model_catalog.h)
//   general.timeZone             an IANA zone name (the builtin zone data of
//                                core/calendar); default UTC
// (spec 000 §6, §7). A key that is not saved reads as its default, so adding
// a key later needs no migration: rows are (account, key, JSON value).
//
// Thread-safety: stateless functions of the Database given.

#ifndef ENSEMBLE_CORE_ACCOUNTS_ACCOUNT_SETTINGS_H_
#define ENSEMBLE_CORE_ACCOUNTS_ACCOUNT_SETTINGS_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/store/database.h"
#include "core/store/migrations.h"
#include "core/tools/write_areas.h"

namespace ensemble::core::accounts {

inline constexpr std::string_view kWritePolicySetting = "assistant.writePolicy";
inline constexpr std::string_view kAllowedWriteAreasSetting = "assistant.allowedWriteAreas";
inline constexpr std::string_view kEffortSetting = "assistant.effort";
inline constexpr std::string_view kNoEffort = "none";
inline constexpr std::string_view kTimeZoneSetting = "general.timeZone";
inline constexpr std::string_view kDefaultTimeZone = "UTC";
// A key quoted back in an error is cut to this many characters.
inline constexpr size_t kMaxQuotedSettingChars = 80;

// Migration 14: the account_settings table; with it, in the same release,
// the Needs-me column of assistant_proposals (waits_on) and the token usage
// columns of assistant_messages (usage_*), read by core/assistant's stores.
extern const store::Migration kCreateAccountSettingsTable;

struct AssistantSettings {
  tools::WritePolicy write_policy = tools::WritePolicy::kImmediate;
  // Distinct areas, in WriteAreas() order.
  std::vector<std::string> allowed_write_areas;
  // kNoEffort or one of model::KnownEfforts().
  std::string effort = std::string(kNoEffort);

  // True when no write area is turned off (routing needs no filter).
  bool AllWriteAreasAllowed() const;
};

struct GeneralSettings {
  std::string time_zone = std::string(kDefaultTimeZone);
};

struct AccountSettings {
  AssistantSettings assistant;
  GeneralSettings general;
};

// Every allowlisted key, dotted ("assistant.writePolicy"), in display order.
std::span<const std::string_view> SettingKeys();

// The value of one allowlisted key as the JSON of AccountSettingsJson;
// null for a key that is not allowlisted.
nlohmann::json SettingValue(const AccountSettings& settings, std::string_view key);

// Every write area a person may allow, in display order.
std::span<const std::string_view> WriteAreas();

// What an account that saved nothing has.
AccountSettings DefaultAccountSettings();

// {"assistant": {"writePolicy": name, "allowedWriteAreas": [area],
//                "effort": name},
//  "general": {"timeZone": name}}.
nlohmann::json AccountSettingsJson(const AccountSettings& settings);

// The account's settings with defaults filled in. A saved value that no
// longer reads (a hand edit, a key dropped from the allowlist) is ignored.
Result<AccountSettings> GetAccountSettings(store::Database& db, std::string_view account_id);

// OK when PatchAccountSettings would accept `patch` (every key allowlisted,
// every value valid); the same INVALID_ARGUMENT otherwise. Writes nothing.
Status CheckSettingsPatch(const nlohmann::json& patch);

// Merges `patch` into the account's settings and returns the result. The
// patch is an object of allowlisted keys, nested ({"assistant":
// {"writePolicy": "preview"}}) or dotted ({"assistant.writePolicy":
// "preview"}); a null value puts the key back to its default. Every key is
// checked before anything is written: an unknown key, a key given twice or a
// bad value is INVALID_ARGUMENT naming the key, and nothing changes.
Result<AccountSettings> PatchAccountSettings(store::Database& db, std::string_view account_id,
                                             const nlohmann::json& patch, int64_t now);

}  // namespace ensemble::core::accounts

#endif  // ENSEMBLE_CORE_ACCOUNTS_ACCOUNT_SETTINGS_H_
