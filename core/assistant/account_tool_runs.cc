#include "core/assistant/account_tool_runs.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "core/accounts/account_settings.h"
#include "core/assistant/proposal_store.h"
#include "core/model/chat_request.h"
#include "core/text/ascii.h"
#include "core/text/trim.h"
#include "core/tools/tool_context.h"

namespace ensemble::core::assistant {
namespace {

using nlohmann::json;
using tools::ToolCall;
using tools::ToolContext;

// What a person reads about each allowlisted key: its area (hub_get_settings'
// enum), a title and the words hub_find_setting matches.
struct SettingInfo {
  std::string_view key;
  std::string_view area;
  std::string_view title;
  std::string_view description;
};

constexpr SettingInfo kSettingInfo[] = {
    {accounts::kWritePolicySetting, "assistant", "Assistant write mode",
     "How the assistant's changes run: immediate (at once, with Undo), preview (wait for Apply "
     "in the chat) or needs-me (wait on the Needs me list)."},
    {accounts::kAllowedWriteAreasSetting, "assistant", "Areas the assistant may change",
     "The write areas the assistant is offered tools for: tasks, boards, projects, pages, "
     "people, meetings, reminders, routines, skills, calendar, files, apps, web, settings, "
     "workflows, trash."},
    {accounts::kEffortSetting, "assistant", "Assistant effort",
     "How hard the model reasons before it answers: none (the model's own default), or "
     "minimal, low, medium or high where the model offers them (hub_list_model_choices "
     "lists them). Higher efforts answer more slowly and cost more."},
    {accounts::kTimeZoneSetting, "general", "Time zone",
     "The time zone dates are read in (today, due dates, what is due this week): an IANA name "
     "such as Europe/Paris."},
};

const SettingInfo* InfoOf(std::string_view key) {
  for (const SettingInfo& info : kSettingInfo) {
    if (info.key == key) return &info;
  }
  return nullptr;
}

// The context and the account whose settings it holds.
Result<ToolContext*> SettingsContext(const ToolCall& call) {
  ToolContext* ctx = call.context;
  if (!ctx || !ctx->db) {
    return Status(codes::kFailedPrecondition, call.name + " needs a turn's store");
  }
  if (ctx->settings_account.empty()) {
    return Status(codes::kFailedPrecondition,
                  "settings are kept on the server; change them when you are online");
  }
  if (!call.input.is_object()) return InvalidArgument(call.name + " takes an object");
  return ctx;
}

json SettingJson(const SettingInfo& info, const accounts::AccountSettings& settings) {
  return {{"key", info.key},
          {"area", info.area},
          {"title", info.title},
          {"description", info.description},
          {"value", accounts::SettingValue(settings, info.key)}};
}

std::string ValueText(const json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_array()) {
    if (value.empty()) return "none";
    std::string out;
    for (const json& v : value) out += (out.empty() ? "" : ", ") + ValueText(v);
    return out;
  }
  return value.dump();
}

// "N setting(s)".
std::string Count(size_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

// The change list as a patch of dotted keys, each key allowlisted and named
// once. The values are checked by PatchAccountSettings, all before any write.
Result<json> PatchOf(const json& input) {
  const json changes = input.value("changes", json::array());
  if (!changes.is_array() || changes.empty()) return InvalidArgument("changes must name a setting");
  json patch = json::object();
  for (const json& change : changes) {
    const std::string key = change.value("key", std::string());
    if (!InfoOf(key)) {
      std::string keys;
      for (const SettingInfo& info : kSettingInfo) {
        keys += (keys.empty() ? "" : ", ") + std::string(info.key);
      }
      return InvalidArgument("\"" + key.substr(0, accounts::kMaxQuotedSettingChars) +
                             "\" is not a setting the assistant may change (" + keys + ")");
    }
    if (patch.contains(key)) return InvalidArgument("\"" + key + "\" is changed twice");
    patch[key] = change.contains("value") ? change["value"] : json(nullptr);
  }
  return patch;
}

std::string ChangeText(const json& patch) {
  std::string out;
  for (const auto& [key, value] : patch.items()) {
    out += (out.empty() ? "" : "; ") + std::string(InfoOf(key)->title) + " to " +
           (value.is_null() ? std::string("its default") : ValueText(value));
  }
  return out;
}

// OK unless the patch sets an effort that the person's model does not take
// (spec 000 §5: effort is checked against the model; UNSUPPORTED_OPTION).
Status CheckEffortChange(const ToolContext& ctx, const json& patch) {
  const auto it = patch.find(std::string(accounts::kEffortSetting));
  if (it == patch.end() || it->is_null() || *it == accounts::kNoEffort) return Status::Ok();
  if (!ctx.model) {
    return Status(codes::kUnsupportedOption,
                  "no model is set up, and the built-in planner takes no effort; connect a "
                  "model in Settings → Model first");
  }
  return model::CheckEffort(ctx.model->info, it->get<std::string>());
}

// The planner is always there: it answers the simple task requests when no
// model is set up (spec 000 §5, issue 5's embedded default).
json PlannerChoice(bool current) {
  return {{"provider", "builtin"},
          {"model", "local-planner"},
          {"name", "Built-in planner"},
          {"efforts", json::array()},
          {"current", current}};
}

std::string OrList(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    out += (i == 0 ? "" : i + 1 == items.size() ? " or " : ", ") + items[i];
  }
  return out;
}

}  // namespace

namespace account_tools {

Result<json> RunGetSettings(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, SettingsContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(accounts::AccountSettings settings,
                            accounts::GetAccountSettings(*ctx->db, ctx->settings_account));
  const std::string area = call.input.value("area", std::string());
  json rows = json::array();
  std::string summary;
  for (const SettingInfo& info : kSettingInfo) {
    if (!area.empty() && info.area != area) continue;
    rows.push_back(SettingJson(info, settings));
    summary += (summary.empty() ? "" : "; ") + std::string(info.title) + ": " +
               ValueText(accounts::SettingValue(settings, info.key));
  }
  if (rows.empty()) summary = "No settings of " + area + " can be read or changed here yet.";
  return json{{"summary", summary}, {"data", {{"settings", rows}}}};
}

Result<json> RunFindSetting(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, SettingsContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(accounts::AccountSettings settings,
                            accounts::GetAccountSettings(*ctx->db, ctx->settings_account));
  // Every word of the query must appear in the key, title or description.
  std::vector<std::string> words;
  std::string word;
  for (char c : text::AsciiLowered(call.input.value("query", std::string())) + " ") {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      word += c;
    } else if (!word.empty()) {
      words.push_back(std::move(word));
      word.clear();
    }
  }
  json rows = json::array();
  std::vector<std::string_view> titles;
  for (const SettingInfo& info : kSettingInfo) {
    const std::string haystack =
        text::AsciiLowered(std::string(info.key) + " " + std::string(info.title) + " " +
                           std::string(info.description));
    bool all = !words.empty();
    for (const std::string& w : words) all = all && haystack.find(w) != std::string::npos;
    if (!all) continue;
    rows.push_back(SettingJson(info, settings));
    titles.push_back(info.title);
  }
  std::string summary = rows.empty() ? "No setting matches; the settings that can be changed "
                                       "here are the assistant's write mode, areas and "
                                       "effort, and the time zone."
                                     : "Found " + Count(rows.size(), "setting", "settings") + ":";
  for (std::string_view t : titles) summary += " " + std::string(t) + ";";
  if (!titles.empty()) summary.pop_back();
  return json{{"summary", summary}, {"data", {{"settings", rows}}}};
}

Status PrepareUpdateSettings(ToolCall& call) {
  // Refused at proposal time rather than at Apply: a bad key or value never
  // reaches the person's Apply button. Nothing is written here.
  ENSEMBLE_ASSIGN_OR_RETURN(json patch, PatchOf(call.input));
  ENSEMBLE_RETURN_IF_ERROR(accounts::CheckSettingsPatch(patch));
  if (call.context && !call.context->settings_account.empty()) {
    ENSEMBLE_RETURN_IF_ERROR(CheckEffortChange(*call.context, patch));
  }
  return Status::Ok();
}

Result<std::string> PreviewUpdateSettings(const ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(json patch, PatchOf(call.input));
  return "Change " + ChangeText(patch);
}

Result<json> RunUpdateSettings(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, SettingsContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(json patch, PatchOf(call.input));
  ENSEMBLE_RETURN_IF_ERROR(accounts::CheckSettingsPatch(patch));
  ENSEMBLE_RETURN_IF_ERROR(CheckEffortChange(*ctx, patch));
  ENSEMBLE_ASSIGN_OR_RETURN(
      accounts::AccountSettings saved,
      accounts::PatchAccountSettings(*ctx->db, ctx->settings_account, patch, ctx->now_ms));
  json values = json::object();
  for (const auto& [key, value] : patch.items()) values[key] = accounts::SettingValue(saved, key);
  return json{{"summary", "Changed " + ChangeText(values)}, {"data", {{"settings", values}}}};
}

Result<json> RunListModelChoices(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, SettingsContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(accounts::AccountSettings settings,
                            accounts::GetAccountSettings(*ctx->db, ctx->settings_account));
  const std::string& effort = settings.assistant.effort;
  json choices = json::array();
  std::string summary;
  if (!ctx->model) {
    choices.push_back(PlannerChoice(true));
    summary =
        "No model is set up, so the built-in planner answers the simple task requests (add, "
        "list, complete, move, due). Connect a model (provider, address, model and key) in "
        "Settings → Model to ask anything else.";
  } else {
    const model::ModelInfo& info = ctx->model->info;
    choices.push_back({{"provider", ctx->model->provider},
                       {"model", info.id},
                       {"name", info.name()},
                       {"efforts", info.efforts},
                       {"current", true}});
    choices.push_back(PlannerChoice(false));
    summary = "You use " + info.name() + " (" + ctx->model->provider + "), effort " + effort +
              "; " +
              (info.efforts.empty() ? "it takes no effort option"
                                    : "it takes effort " + OrList(info.efforts)) +
              ".";
    if (effort != accounts::kNoEffort && !model::CheckEffort(info, effort).ok()) {
      summary +=
          " The saved effort is not one it takes, so its turns are refused until the "
          "effort is changed (assistant.effort).";
    }
    summary +=
        " The provider, model and key are changed in Settings → Model; the effort "
        "can be changed here.";
  }
  return json{{"summary", summary}, {"data", {{"choices", choices}, {"effort", effort}}}};
}

Result<json> RunListApprovals(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, SettingsContext(call));
  const int limit = call.input.value("limit", kDefaultApprovalsListed);
  ENSEMBLE_ASSIGN_OR_RETURN(
      std::vector<Approval> approvals,
      ListApprovals(*ctx->db, ctx->settings_account, static_cast<std::size_t>(std::max(limit, 1))));
  json rows = json::array();
  std::string summary;
  size_t changes = 0;
  for (const Approval& a : approvals) {
    json calls = json::array();
    for (const Approval::Call& c : a.calls) {
      calls.push_back({{"callId", c.call_id}, {"tool", c.tool}, {"summary", c.summary}});
      summary += (summary.empty() ? "" : "; ") + c.summary;
      ++changes;
    }
    rows.push_back({{"proposalId", a.proposal_id},
                    {"conversationId", a.conversation_id},
                    {"messageId", a.message_id},
                    {"createdAt", a.created_at},
                    {"calls", std::move(calls)}});
  }
  summary = approvals.empty() ? "Nothing waits for you on Needs me."
                              : Count(changes, "change waits", "changes wait") +
                                    " for you on Needs me: " + summary;
  return json{{"summary", summary}, {"data", {{"approvals", rows}}}};
}

}  // namespace account_tools

}  // namespace ensemble::core::assistant
