#include "core/accounts/account_settings.h"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <utility>

#include "core/calendar/time_zone.h"
#include "core/model/model_catalog.h"
#include "core/text/trim.h"
#include "core/tools/write_areas.h"

namespace ensemble::core::accounts {
namespace {

namespace areas = tools::areas;
using nlohmann::json;
using store::AsText;
using store::Value;

// Every area of hub_tools.h but core, which holds reads only.
constexpr std::array<std::string_view, 17> kWriteAreas = {
    areas::kTasks,     areas::kBoards,    areas::kProjects, areas::kPages, areas::kPeople,
    areas::kMeetings,  areas::kReminders, areas::kRoutines, areas::kDesk,  areas::kSkills,
    areas::kCalendar,  areas::kFiles,     areas::kApps,     areas::kWeb,   areas::kSettings,
    areas::kWorkflows, areas::kTrash};

// Groups of the nested form of a patch: {"assistant": {"writePolicy": ...}}.
constexpr std::string_view kGroups[] = {"assistant", "general"};

constexpr std::string_view kSettingKeys[] = {kWritePolicySetting, kAllowedWriteAreasSetting,
                                             kEffortSetting, kTimeZoneSetting};

std::string Quoted(std::string_view key) {
  return "\"" + text::TruncateChars(key, kMaxQuotedSettingChars) + "\"";
}

std::string AreaList() {
  std::string out;
  for (std::string_view a : kWriteAreas) {
    if (!out.empty()) out += ", ";
    out += a;
  }
  return out;
}

Result<tools::WritePolicy> ReadWritePolicy(const json& value) {
  std::optional<tools::WritePolicy> policy =
      value.is_string() ? tools::ParseWritePolicy(value.get<std::string>()) : std::nullopt;
  if (!policy) {
    return InvalidArgument(std::string(kWritePolicySetting) +
                           " must be immediate, preview or needs-me");
  }
  return *policy;
}

// The areas `value` names, distinct and in kWriteAreas order.
Result<std::vector<std::string>> ReadWriteAreas(const json& value) {
  if (!value.is_array() || value.size() > kWriteAreas.size() * 2) {
    return InvalidArgument(std::string(kAllowedWriteAreasSetting) +
                           " must be a list of write areas");
  }
  std::array<bool, kWriteAreas.size()> named{};
  for (const json& item : value) {
    auto it = item.is_string() ? std::find(kWriteAreas.begin(), kWriteAreas.end(),
                                           item.get_ref<const std::string&>())
                               : kWriteAreas.end();
    if (it == kWriteAreas.end()) {
      return InvalidArgument(std::string(kAllowedWriteAreasSetting) + ": " +
                             (item.is_string() ? Quoted(item.get_ref<const std::string&>())
                                               : std::string("a non-string")) +
                             " is not a write area (" + AreaList() + ")");
    }
    named[it - kWriteAreas.begin()] = true;
  }
  std::vector<std::string> out;
  for (size_t i = 0; i < kWriteAreas.size(); ++i) {
    if (named[i]) out.emplace_back(kWriteAreas[i]);
  }
  return out;
}

Result<std::string> ReadEffort(const json& value) {
  std::string names(kNoEffort);
  for (std::string_view e : model::KnownEfforts()) {
    if (value.is_string() && value.get_ref<const std::string&>() == e) return std::string(e);
    names += ", " + std::string(e);
  }
  if (value.is_string() && value.get_ref<const std::string&>() == kNoEffort) {
    return std::string(kNoEffort);
  }
  return InvalidArgument(std::string(kEffortSetting) + " must be one of " + names);
}

// Applies one checked (key, value) to `settings`; a null value is the
// default. INVALID_ARGUMENT naming the key for an unknown key or bad value.
Status Apply(AccountSettings& settings, std::string_view key, const json& value) {
  const AccountSettings defaults = DefaultAccountSettings();
  if (key == kWritePolicySetting) {
    if (value.is_null()) {
      settings.assistant.write_policy = defaults.assistant.write_policy;
      return Status::Ok();
    }
    ENSEMBLE_ASSIGN_OR_RETURN(settings.assistant.write_policy, ReadWritePolicy(value));
    return Status::Ok();
  }
  if (key == kAllowedWriteAreasSetting) {
    if (value.is_null()) {
      settings.assistant.allowed_write_areas = defaults.assistant.allowed_write_areas;
      return Status::Ok();
    }
    ENSEMBLE_ASSIGN_OR_RETURN(settings.assistant.allowed_write_areas, ReadWriteAreas(value));
    return Status::Ok();
  }
  if (key == kEffortSetting) {
    if (value.is_null()) {
      settings.assistant.effort = defaults.assistant.effort;
      return Status::Ok();
    }
    ENSEMBLE_ASSIGN_OR_RETURN(settings.assistant.effort, ReadEffort(value));
    return Status::Ok();
  }
  if (key == kTimeZoneSetting) {
    if (value.is_null()) {
      settings.general.time_zone = defaults.general.time_zone;
      return Status::Ok();
    }
    if (!value.is_string() || !calendar::FindBuiltinZone(value.get_ref<const std::string&>())) {
      return InvalidArgument(std::string(kTimeZoneSetting) +
                             " must be a time zone name such as Europe/Paris or America/New_York");
    }
    settings.general.time_zone = value.get<std::string>();
    return Status::Ok();
  }
  std::string keys;
  for (std::string_view k : kSettingKeys) keys += (keys.empty() ? "" : ", ") + std::string(k);
  return InvalidArgument("unknown setting " + Quoted(key) +
                         " (settings that may be changed: " + keys + ")");
}

// The patch as (dotted key, value) pairs; INVALID_ARGUMENT for a shape that
// is not an object of keys, or a key given twice.
Result<std::map<std::string, json, std::less<>>> Flatten(const json& patch) {
  if (!patch.is_object()) return InvalidArgument("settings must be an object of setting names");
  std::map<std::string, json, std::less<>> out;
  auto add = [&out](std::string key, const json& value) -> Status {
    if (!out.emplace(key, value).second) return InvalidArgument(Quoted(key) + " is given twice");
    return Status::Ok();
  };
  for (const auto& [key, value] : patch.items()) {
    if (std::find(std::begin(kGroups), std::end(kGroups), key) != std::end(kGroups)) {
      if (!value.is_object())
        return InvalidArgument(key + " must be an object of " + key + " settings");
      for (const auto& [inner, inner_value] : value.items()) {
        ENSEMBLE_RETURN_IF_ERROR(add(key + "." + inner, inner_value));
      }
    } else {
      ENSEMBLE_RETURN_IF_ERROR(add(key, value));
    }
  }
  return out;
}

}  // namespace

std::span<const std::string_view> SettingKeys() { return kSettingKeys; }

json SettingValue(const AccountSettings& s, std::string_view key) {
  if (key == kWritePolicySetting) {
    return std::string(tools::WritePolicyName(s.assistant.write_policy));
  }
  if (key == kAllowedWriteAreasSetting) return s.assistant.allowed_write_areas;
  if (key == kEffortSetting) return s.assistant.effort;
  if (key == kTimeZoneSetting) return s.general.time_zone;
  return nullptr;
}

// The version is assigned in the hub's list (core/hub/hub.cc), append only.
const store::Migration kCreateAccountSettingsTable = {
    14, "account settings, proposal waits and reply usage",
    "CREATE TABLE account_settings ("
    " account_id TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,"
    " updated_at BIGINT NOT NULL, PRIMARY KEY (account_id, key));"
    "ALTER TABLE assistant_proposals ADD COLUMN waits_on TEXT NOT NULL DEFAULT 'chat';"
    "CREATE INDEX assistant_proposals_waiting"
    " ON assistant_proposals (account_id, waits_on, state, created_at);"
    "ALTER TABLE assistant_messages ADD COLUMN usage_prompt_tokens BIGINT NOT NULL DEFAULT 0;"
    "ALTER TABLE assistant_messages ADD COLUMN usage_completion_tokens BIGINT NOT NULL DEFAULT 0;"
    "ALTER TABLE assistant_messages ADD COLUMN usage_cached_tokens BIGINT NOT NULL DEFAULT 0;"};

bool AssistantSettings::AllWriteAreasAllowed() const {
  return allowed_write_areas.size() == kWriteAreas.size();
}

std::span<const std::string_view> WriteAreas() { return kWriteAreas; }

AccountSettings DefaultAccountSettings() {
  AccountSettings s;
  s.assistant.allowed_write_areas.assign(kWriteAreas.begin(), kWriteAreas.end());
  return s;
}

json AccountSettingsJson(const AccountSettings& settings) {
  return {
      {"assistant",
       {{"writePolicy", std::string(tools::WritePolicyName(settings.assistant.write_policy))},
        {"allowedWriteAreas", settings.assistant.allowed_write_areas},
        {"effort", settings.assistant.effort}}},
      {"general", {{"timeZone", settings.general.time_zone}}}};
}

Result<AccountSettings> GetAccountSettings(store::Database& db, std::string_view account_id) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows, db.Query("SELECT key, value FROM account_settings WHERE account_id = $1",
                                 {Value(std::string(account_id))}));
  AccountSettings settings = DefaultAccountSettings();
  for (const auto& row : rows.rows) {
    json value = json::parse(AsText(row[1]), nullptr, /*allow_exceptions=*/false);
    if (value.is_discarded() || value.is_null()) continue;
    AccountSettings next = settings;
    if (Apply(next, AsText(row[0]), value).ok()) settings = std::move(next);
  }
  return settings;
}

Status CheckSettingsPatch(const json& patch) {
  ENSEMBLE_ASSIGN_OR_RETURN(auto changes, Flatten(patch));
  AccountSettings settings = DefaultAccountSettings();
  for (const auto& [key, value] : changes) ENSEMBLE_RETURN_IF_ERROR(Apply(settings, key, value));
  return Status::Ok();
}

Result<AccountSettings> PatchAccountSettings(store::Database& db, std::string_view account_id,
                                             const json& patch, int64_t now) {
  ENSEMBLE_ASSIGN_OR_RETURN(auto changes, Flatten(patch));
  ENSEMBLE_ASSIGN_OR_RETURN(AccountSettings settings, GetAccountSettings(db, account_id));
  for (const auto& [key, value] : changes) {
    ENSEMBLE_RETURN_IF_ERROR(Apply(settings, key, value));
  }
  store::Transaction txn(db);
  ENSEMBLE_RETURN_IF_ERROR(txn.status());
  for (const auto& [key, value] : changes) {
    if (value.is_null()) {
      ENSEMBLE_RETURN_IF_ERROR(
          db.Exec("DELETE FROM account_settings WHERE account_id = $1 AND key = $2",
                  {Value(std::string(account_id)), Value(key)}));
      continue;
    }
    ENSEMBLE_RETURN_IF_ERROR(
        db.Exec("INSERT INTO account_settings (account_id, key, value, updated_at)"
                " VALUES ($1, $2, $3, $4)"
                " ON CONFLICT (account_id, key) DO UPDATE SET value = excluded.value,"
                " updated_at = excluded.updated_at",
                {Value(std::string(account_id)), Value(key),
                 Value(text::DumpJson(SettingValue(settings, key))), Value(now)}));
  }
  ENSEMBLE_RETURN_IF_ERROR(txn.Commit());
  return settings;
}

}  // namespace ensemble::core::accounts
