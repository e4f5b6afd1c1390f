#include "core/reminders/reminder_tool_runs.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <utility>
#include <vector>

#include "core/calendar/civil_time.h"
#include "core/calendar/event.h"
#include "core/calendar/ics_calendar.h"
#include "core/calendar/time_zone.h"
#include "core/calendar/week_date.h"
#include "core/comments/comment.h"
#include "core/reminders/reminder.h"
#include "core/text/trim.h"
#include "core/text/utf8.h"
#include "core/tools/record_rows.h"
#include "core/tools/tool_runs.h"

namespace ensemble::core::reminders {
namespace {

using namespace tools::record_rows;  // NOLINT: the shared pieces of the record tools.

const Noun kReminder = {reminders::kReminderRecordKind.kind, "reminder", "reminders", "text"};
const Noun kWatcher = {reminders::kWatcherRecordKind.kind, "watcher", "watchers", "condition"};
// Watchers as a list names them: by the record each watches (a "watches"
// field the list adds).
const Noun kWatchedList = {reminders::kWatcherRecordKind.kind, "watcher", "watchers", "watches"};

std::shared_ptr<const calendar::TimeZone> ZoneOf(std::string_view name) {
  std::shared_ptr<const calendar::TimeZone> zone = calendar::FindBuiltinZone(name);
  return zone ? zone : std::make_shared<calendar::FixedZone>(0);
}

// "3 Dec 09:00" ("3 Dec 2027 09:00" outside today's year) in the person's zone.
std::string WhenText(const ToolContext& ctx, int64_t at_ms) {
  const int64_t utc = calendar::FloorDiv(at_ms, 1000);
  const int64_t local = utc + ZoneOf(ctx.time_zone)->OffsetAt(utc);
  const int64_t secs =
      local - calendar::FloorDiv(local, calendar::kSecondsPerDay) * calendar::kSecondsPerDay;
  char time[16];
  std::snprintf(time, sizeof time, "%02d:%02d", static_cast<int>(secs / 3600),
                static_cast<int>(secs % 3600 / 60));
  return tools::DayText(calendar::TodayIn(at_ms, ctx.time_zone), ctx.today) + " " + time;
}

std::string WhatText(const json& row) { return Quoted(row.value("text", std::string())); }

// --- reminders ---------------------------------------------------------------

// hub_list_reminders gives each row thus; `zone` is the person's.
json ReminderJson(const json& row, std::string_view zone) {
  return {{"id", row["id"]},
          {"text", row["text"]},
          {"at", IsoInZone(row.value("at", int64_t{0}), zone)},
          {"dismissed", row.value("dismissed", int64_t{0}) != 0},
          {"itemKind", row.value("item_kind", json(nullptr))},
          {"itemId", row.value("item", json(nullptr))}};
}

// The instant the input's `at` names, refused when already past.
Result<int64_t> AtOf(const ToolContext& ctx, const json& in) {
  ENSEMBLE_ASSIGN_OR_RETURN(int64_t at,
                            ParseReminderTime(tools::StringIn(in, "at"), ctx.time_zone));
  if (at < ctx.now_ms - kReminderPastSlackMs) {
    return InvalidArgument("that time (" + WhenText(ctx, at) + ") has passed; give a later one");
  }
  if (at > reminders::kMaxReminderAtMs) return InvalidArgument("that time is too far ahead");
  return at;
}

// The new reminder's record arguments (without id), checked in the space.
Result<json> NewReminder(ToolContext& ctx, const json& in) {
  const std::string text(text::Trim(tools::StringIn(in, "text")));
  if (text.empty()) return InvalidArgument("a reminder needs its text");
  ENSEMBLE_ASSIGN_OR_RETURN(int64_t at, AtOf(ctx, in));
  json args = {{"spaceId", ctx.space_id}, {"text", text}, {"at", at}};
  const std::string kind = tools::StringIn(in, "itemKind");
  const std::string item = tools::StringIn(in, "itemId");
  if (kind.empty() != item.empty()) {
    return InvalidArgument("a reminder about a record names both itemKind and itemId");
  }
  if (!item.empty()) {
    if (comments::TargetTable(ctx.record_kinds, kind).empty()) {
      return InvalidArgument(
          "reminders can be about tasks, projects, pages, people and boards, not a " + kind);
    }
    ENSEMBLE_RETURN_IF_ERROR(
        comments::CheckLiveTarget(*ctx.db, ctx.record_kinds, kind, item, ctx.space_id));
    args["item_kind"] = kind;
    args["item"] = item;
  }
  return args;
}

// The changed fields of a hub_update_reminder call, as record fields.
Result<json> ReminderChanges(const ToolContext& ctx, const json& in) {
  json fields = json::object();
  if (in.contains("text")) {
    const std::string text(text::Trim(tools::StringIn(in, "text")));
    if (text.empty()) return InvalidArgument("a reminder needs its text");
    fields["text"] = text;
  }
  if (in.contains("at")) {
    ENSEMBLE_ASSIGN_OR_RETURN(int64_t at, AtOf(ctx, in));
    fields["at"] = at;
  }
  if (in.contains("dismissed")) fields["dismissed"] = in.value("dismissed", false) ? 1 : 0;
  if (fields.empty()) return InvalidArgument("name a change: text, at or dismissed");
  return fields;
}

std::string ChangesText(const ToolContext& ctx, const json& fields) {
  std::vector<std::string> parts;
  if (fields.contains("text")) parts.push_back("text " + WhatText(fields));
  if (fields.contains("at")) parts.push_back("time " + WhenText(ctx, fields["at"]));
  if (fields.contains("dismissed")) {
    parts.push_back(fields["dismissed"] == 1 ? "dismissed" : "not dismissed");
  }
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : ", ") + p;
  return out;
}

// --- watchers ----------------------------------------------------------------

// The title of the record a watcher watches, or its id when it is gone.
std::string WatchedTitle(ToolContext& ctx, const json& row) {
  const std::string kind = row.value("target_kind", std::string());
  const std::string id = row.value("target", std::string());
  const std::string_view table = comments::TargetTable(ctx.record_kinds, kind);
  if (table.empty()) return id;
  const char* title = kind == "person" ? "name" : "title";
  auto rows = ctx.db->Query("SELECT " + std::string(title) + " FROM " + std::string(table) +
                                " WHERE id = $1 AND space_id = $2",
                            {store::Value(id), store::Value(ctx.space_id)});
  if (!rows.ok() || rows->empty()) return id;
  return store::AsText(rows->rows[0][0]);
}

json WatcherJson(ToolContext& ctx, const json& row) {
  json out = {{"id", row["id"]},
              {"kind", row["target_kind"]},
              {"recordId", row["target"]},
              {"recordTitle", WatchedTitle(ctx, row)},
              {"condition", row["condition"]}};
  // What others changed since the person last looked (core/reminders/watcher_news.h).
  const int64_t changes = row.value("changes", int64_t{0});
  if (changes > 0) {
    out["news"] = {{"changes", changes},
                   {"last", row.value("last_change", std::string())},
                   {"when", WhenText(ctx, row.value("changed_at", int64_t{0}))}};
  }
  return out;
}

std::string WatchText(ToolContext& ctx, const json& row) {
  std::string out =
      "the " + row.value("target_kind", std::string()) + " " + Quoted(WatchedTitle(ctx, row));
  const std::string condition = row.value("condition", std::string());
  if (!condition.empty()) out += " for " + Quoted(condition);
  return out;
}

Result<json> NewWatcher(ToolContext& ctx, const json& in) {
  const std::string kind = tools::StringIn(in, "kind");
  const std::string id = tools::StringIn(in, "id");
  if (comments::TargetTable(ctx.record_kinds, kind).empty()) {
    return InvalidArgument("watchers watch tasks, projects, pages, people and boards, not a " +
                           kind);
  }
  ENSEMBLE_RETURN_IF_ERROR(
      comments::CheckLiveTarget(*ctx.db, ctx.record_kinds, kind, id, ctx.space_id));
  return json{{"spaceId", ctx.space_id},
              {"target_kind", kind},
              {"target", id},
              {"condition", std::string(text::Trim(tools::StringIn(in, "condition")))}};
}

// hub_delete_reminder and hub_cancel_watcher: one record to Trash, Undo
// restores it. `describe` names the record in the reply.
using Describe = std::string (*)(ToolContext& ctx, const json& row);

std::string ReminderText(ToolContext&, const json& row) { return "the reminder " + WhatText(row); }
std::string WatcherText(ToolContext& ctx, const json& row) {
  return "the watcher on " + WatchText(ctx, row);
}

Result<std::string> PreviewTrashOne(const Noun& noun, Describe describe, const ToolCall& call,
                                    const char* verb) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(json row, LiveInSpace(*ctx, noun, tools::StringIn(call.input, "id")));
  return std::string(verb) + " " + describe(*ctx, row);
}

Result<json> RunTrashOne(const Noun& noun, Describe describe, ToolCall& call, const char* verb) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, WritableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(json row, LiveInSpace(*ctx, noun, tools::StringIn(call.input, "id")));
  const std::string id = row["id"].get<std::string>();
  const std::string kind(noun.kind);
  ENSEMBLE_RETURN_IF_ERROR(ctx->write({{kind + ".delete", {{"id", id}}}}));
  return json{{"summary", std::string(verb) + " " + describe(*ctx, row) + "."},
              {"data", {{"id", id}}},
              {"undo", UndoJson({{kind + ".restore", {{"id", id}}}})}};
}

}  // namespace

Result<int64_t> ParseReminderTime(std::string_view text, std::string_view time_zone) {
  ENSEMBLE_ASSIGN_OR_RETURN(int64_t seconds, calendar::ParseIsoInstant(text));
  if (text.size() <= 10) {
    return Status(
        codes::kInvalidArgument,
        "\"" + std::string(text) + "\" names a day; give a time too, as 2026-12-03T09:00");
  }
  const bool has_offset =
      text.back() == 'Z' || text.find_first_of("+-", 11) != std::string_view::npos;
  // Without an offset ParseIsoInstant read wall-clock time as UTC.
  if (!has_offset) seconds = ZoneOf(time_zone)->LocalToUtc(seconds);
  return seconds * 1000;
}

std::string IsoInZone(int64_t at_ms, std::string_view time_zone) {
  const int64_t utc = calendar::FloorDiv(at_ms, 1000);
  return calendar::FormatIsoTime(utc, ZoneOf(time_zone)->OffsetAt(utc));
}

Result<json> RunListReminders(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(std::vector<json> rows, AllLive(*ctx, kReminder));
  if (!tools::BoolIn(call.input, "includeDismissed", false)) {
    std::erase_if(rows, [](const json& r) { return r.value("dismissed", int64_t{0}) != 0; });
  }
  std::stable_sort(rows.begin(), rows.end(), [](const json& a, const json& b) {
    return a.value("at", int64_t{0}) < b.value("at", int64_t{0});
  });
  json out = ListResult(kReminder, call.input, rows, "", [](const json& r) { return r; });
  // Shaped here, not in ListResult, because the shape needs the person's zone.
  for (json& r : out["data"]["reminders"]) r = ReminderJson(r, ctx->time_zone);
  return out;
}

Result<std::string> PreviewCreateReminder(const ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(json args, NewReminder(*ctx, call.input));
  return "Remind you " + WhenText(*ctx, args["at"]) + ": " + WhatText(args);
}

Result<json> RunCreateReminder(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, WritableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(json args, NewReminder(*ctx, call.input));
  ENSEMBLE_ASSIGN_OR_RETURN(std::string id, NewRecordId(*ctx));
  args["id"] = id;
  ENSEMBLE_RETURN_IF_ERROR(ctx->write({{"reminder.create", args}}));
  ENSEMBLE_ASSIGN_OR_RETURN(json row, LiveInSpace(*ctx, kReminder, id));
  return json{
      {"summary", "I will remind you " + WhenText(*ctx, args["at"]) + ": " + WhatText(args) + "."},
      {"data", {{"reminder", ReminderJson(row, ctx->time_zone)}}},
      {"undo", UndoJson({{"reminder.delete", {{"id", id}}}})}};
}

Result<std::string> PreviewUpdateReminder(const ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(json row,
                            LiveInSpace(*ctx, kReminder, tools::StringIn(call.input, "id")));
  ENSEMBLE_ASSIGN_OR_RETURN(json fields, ReminderChanges(*ctx, call.input));
  return "Change the reminder " + WhatText(row) + ": " + ChangesText(*ctx, fields);
}

Result<json> RunUpdateReminder(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, WritableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(json row,
                            LiveInSpace(*ctx, kReminder, tools::StringIn(call.input, "id")));
  ENSEMBLE_ASSIGN_OR_RETURN(json fields, ReminderChanges(*ctx, call.input));
  json previous = json::object();
  for (const auto& [name, _] : fields.items()) previous[name] = row[name];
  const std::string id = row["id"].get<std::string>();
  // Based on what was read, so a change made meanwhile elsewhere conflicts.
  Status st =
      ctx->write({{"reminder.update", {{"id", id}, {"fields", fields}, {"base", previous}}}});
  if (st.code() == codes::kSaveConflict) return ConflictError(*ctx, kReminder, row, fields, st);
  ENSEMBLE_RETURN_IF_ERROR(st);
  ENSEMBLE_ASSIGN_OR_RETURN(json after, LiveInSpace(*ctx, kReminder, id));
  return json{
      {"summary", "Changed the reminder " + WhatText(row) + ": " + ChangesText(*ctx, fields) + "."},
      {"data", {{"reminder", ReminderJson(after, ctx->time_zone)}}},
      {"undo", UndoJson({UpdateBack(kReminder, id, previous, fields)})}};
}

Result<std::string> PreviewCreateWatcher(const ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(json args, NewWatcher(*ctx, call.input));
  return "Watch " + WatchText(*ctx, args);
}

Result<json> RunCreateWatcher(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, WritableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(json args, NewWatcher(*ctx, call.input));
  ENSEMBLE_ASSIGN_OR_RETURN(std::string id, NewRecordId(*ctx));
  args["id"] = id;
  ENSEMBLE_RETURN_IF_ERROR(ctx->write({{"watcher.create", args}}));
  ENSEMBLE_ASSIGN_OR_RETURN(json row, LiveInSpace(*ctx, kWatcher, id));
  return json{{"summary", "Watching " + WatchText(*ctx, row) + "."},
              {"data", {{"watcher", WatcherJson(*ctx, row)}}},
              {"undo", UndoJson({{"watcher.delete", {{"id", id}}}})}};
}

Result<json> RunListWatchers(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(std::vector<json> rows, AllLive(*ctx, kWatcher));
  // The summary names each by the record it watches.
  for (json& r : rows) r["watches"] = WatchedTitle(*ctx, r);
  json out = ListResult(kWatchedList, call.input, rows, "", [](const json& r) { return r; });
  std::string news;  // "“Draft”: Ana Lee changed status (2 changes)"
  for (json& r : out["data"]["watchers"]) {
    r = WatcherJson(*ctx, r);
    if (!r.contains("news")) continue;
    const int64_t n = r["news"]["changes"].get<int64_t>();
    news += (news.empty() ? " News since the person last looked: " : "; ") +
            Quoted(r["recordTitle"].get<std::string>()) + ": " +
            r["news"]["last"].get<std::string>() +
            (n > 1 ? " (" + text::CountText(n, "change", "changes") + ")" : "");
  }
  if (!news.empty()) out["summary"] = out["summary"].get<std::string>() + news + ".";
  return out;
}

Result<std::string> PreviewDeleteReminder(const ToolCall& c) {
  return PreviewTrashOne(kReminder, ReminderText, c, "Delete");
}

Result<json> RunDeleteReminder(ToolCall& c) {
  return RunTrashOne(kReminder, ReminderText, c, "Deleted");
}

Result<std::string> PreviewCancelWatcher(const ToolCall& c) {
  return PreviewTrashOne(kWatcher, WatcherText, c, "Stop");
}

Result<json> RunCancelWatcher(ToolCall& c) {
  return RunTrashOne(kWatcher, WatcherText, c, "Stopped");
}

}  // namespace ensemble::core::reminders
