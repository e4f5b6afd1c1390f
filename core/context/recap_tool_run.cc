#include "core/context/recap_tool_run.h"

#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "core/calendar/week_date.h"
#include "core/refs/summary.h"
#include "core/tasks/task_tool_rows.h"
#include "core/text/trim.h"
#include "core/text/utf8.h"
#include "core/tools/tool_runs.h"

namespace ensemble::core::context {
namespace {

using nlohmann::json;
using store::Value;
using tasks::Task;
using tools::ToolCall;
using tools::ToolContext;

struct Week {
  std::string monday;  // YYYY-MM-DD
  std::string next_monday;
  std::string after_next;  // The Monday after the upcoming week.
  std::string label;       // 2026-W49
  int64_t start_ms = 0;
  int64_t end_ms = 0;
};

Result<Week> WeekOf(const ToolContext& ctx, const json& in) {
  std::string day = tools::StringIn(in, "weekOf");
  if (day.empty()) day = ctx.today;
  std::optional<calendar::WeekDate> date = calendar::ParseWeekDate(day);
  if (!date) return InvalidArgument("weekOf must be a date, YYYY-MM-DD");
  Week w;
  w.monday = calendar::AddDays(*date, 1 - date->iso_weekday);
  w.next_monday = calendar::AddDays(*date, 8 - date->iso_weekday);
  w.after_next = calendar::AddDays(*date, 15 - date->iso_weekday);
  // The last weeks of year 9999 run past the dates there are.
  if (w.monday.empty() || w.after_next.empty()) {
    return InvalidArgument("weekOf must be a week that ends before the year 10000");
  }
  w.label = calendar::IsoWeekLabel(*date);
  w.start_ms = calendar::DayStartMs(*calendar::ParseWeekDate(w.monday), ctx.time_zone);
  w.end_ms = calendar::DayStartMs(*calendar::ParseWeekDate(w.next_monday), ctx.time_zone);
  return w;
}

// The ids of the space's live records of `table` changed within the week.
Result<store::Rows> ChangedIn(ToolContext& ctx, std::string_view table, std::string_view title,
                              const Week& w) {
  return ctx.db->Query("SELECT id, " + std::string(title) + " FROM " + std::string(table) +
                           " WHERE space_id = $1 AND deleted = 0 AND updated_at >= $2"
                           " AND updated_at < $3 ORDER BY updated_at, id",
                       {Value(ctx.space_id), Value(w.start_ms), Value(w.end_ms)});
}

// At most kMaxRecapItems of `rows`, and the full count.
json Capped(json rows) {
  const std::size_t total = rows.size();
  if (rows.size() > kMaxRecapItems) rows.erase(rows.begin() + kMaxRecapItems, rows.end());
  return {{"items", std::move(rows)}, {"total", total}};
}

std::string Count(std::size_t n, const char* what) { return text::FormatCount(n) + " " + what; }

}  // namespace

Result<json> RunRecap(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, tools::ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(Week w, WeekOf(*ctx, call.input));
  ENSEMBLE_ASSIGN_OR_RETURN(store::Rows changed_tasks, ChangedIn(*ctx, "tasks", "title", w));
  std::unordered_set<std::string> changed_ids;
  for (const auto& r : changed_tasks.rows) changed_ids.insert(store::AsText(r[0]));
  ENSEMBLE_ASSIGN_OR_RETURN(std::vector<Task> tasks, tasks::LiveTasks(*ctx, "", true));

  json finished = json::array(), changed = json::array(), upcoming = json::array();
  std::vector<refs::SummaryItem> finished_items;
  for (const Task& t : tasks) {
    if (changed_ids.count(t.id)) {
      if (t.status == "done") {
        finished.push_back(tasks::RowJson(t));
        finished_items.push_back(tasks::ItemOf(t));
      } else {
        changed.push_back({{"kind", "task"}, {"id", t.id}, {"title", t.title}});
      }
    }
    if (t.status != "done" && t.due && *t.due >= w.next_monday && *t.due < w.after_next) {
      upcoming.push_back(tasks::RowJson(t));
    }
  }
  for (const auto& [table, kind] : {std::pair{"projects", "project"}, std::pair{"pages", "page"}}) {
    ENSEMBLE_ASSIGN_OR_RETURN(store::Rows rows, ChangedIn(*ctx, table, "title", w));
    for (const auto& r : rows.rows) {
      changed.push_back(
          {{"kind", kind}, {"id", store::AsText(r[0])}, {"title", store::AsText(r[1])}});
    }
  }
  std::string summary = "Week of " + tools::DayText(w.monday, ctx->today) + " (" + w.label +
                        "): " + Count(finished.size(), "finished") + ", " +
                        Count(changed.size(), "changed") + ", " +
                        Count(upcoming.size(), "due the week after") + ".";
  if (!finished_items.empty()) {
    summary += " " + refs::SummarizeRecords("Finished", "task", "tasks", finished_items);
  }
  return json{{"summary", std::move(summary)},
              {"data",
               {{"week", w.label},
                {"from", w.monday},
                {"to", calendar::AddDays(*calendar::ParseWeekDate(w.next_monday), -1)},
                {"finished", Capped(std::move(finished))},
                {"changed", Capped(std::move(changed))},
                {"upcoming", Capped(std::move(upcoming))}}}};
}

}  // namespace ensemble::core::context
