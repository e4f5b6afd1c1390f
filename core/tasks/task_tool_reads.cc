// The reads: hub_list_tasks and hub_list_due.

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/calendar/week_date.h"
#include "core/tasks/task_tool_fields.h"
#include "core/tasks/task_tool_rows.h"
#include "core/tasks/task_tool_runs.h"  // kDefaultTaskListLimit, kDefaultDueWindowDays
#include "core/text/trim.h"
#include "core/text/utf8.h"
#include "core/tools/tool_schema.h"

namespace ensemble::core::tasks {

using nlohmann::json;
using tools::BoolIn;
using tools::DayText;
using tools::IntIn;
using tools::Quoted;
using tools::ReadableContext;
using tools::StringIn;
using tools::ToolCall;
using tools::ToolContext;

namespace {

std::string LowerAscii(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

// Every word of the query appears in the title (ASCII case folded), so
// "call mira" finds "Call Mira tomorrow". Done here, not in SQL, so SQLite
// and PostgreSQL (whose LIKE differ on case) answer alike.
std::vector<std::string> QueryWords(std::string_view query) {
  std::vector<std::string> words;
  std::string word;
  for (char c : LowerAscii(query)) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (!word.empty()) words.push_back(std::move(word));
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) words.push_back(std::move(word));
  return words;
}

bool Has(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

// Keeps the rows of the list's projectId, personId and label filters; a
// project or person id is resolved in the space first, so one of another
// space is "no project with id ..." rather than an empty list.
Status FilterByLinks(ToolContext& ctx, const json& in, std::vector<Task>& rows) {
  const std::string project = StringIn(in, "projectId");
  const std::string person = StringIn(in, "personId");
  const std::string label = StringIn(in, "label");
  json links = json::object();
  if (!project.empty()) links["project"] = project;
  if (!person.empty()) links["people"] = json::array({person});
  ENSEMBLE_RETURN_IF_ERROR(ResolveLinks(ctx, links, ""));
  std::erase_if(rows, [&](const Task& r) {
    return (!project.empty() && r.project != project) ||
           (!person.empty() && !Has(r.people, person)) ||
           (!label.empty() && !Has(r.labels, std::string(text::Trim(label))));
  });
  return Status::Ok();
}

bool Matches(const Task& row, const std::vector<std::string>& words) {
  const std::string title = LowerAscii(row.title);
  return std::all_of(words.begin(), words.end(),
                     [&](const std::string& w) { return title.find(w) != std::string::npos; });
}

}  // namespace

Result<json> RunListTasks(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, ReadableContext(call));
  const json& in = call.input;
  const std::string status = StringIn(in, "status");
  const std::string query = StringIn(in, "query");
  const std::size_t limit = static_cast<std::size_t>(
      std::clamp(IntIn(in, "limit", kDefaultTaskListLimit), 1, tools::schema::kMaxListLimit));
  const std::size_t offset = static_cast<std::size_t>(std::max(IntIn(in, "offset", 0), 0));

  ENSEMBLE_ASSIGN_OR_RETURN(std::vector<Task> rows,
                            LiveTasks(*ctx, status, BoolIn(in, "includeDone", false)));
  ENSEMBLE_RETURN_IF_ERROR(FilterByLinks(*ctx, in, rows));
  const std::vector<std::string> words = QueryWords(query);
  if (!words.empty()) {
    std::erase_if(rows, [&](const Task& r) { return !Matches(r, words); });
  }
  const std::size_t total = rows.size();
  const std::size_t begin = std::min(offset, total);
  const std::size_t end = std::min(total, begin + limit);

  json tasks = json::array();
  std::vector<refs::SummaryItem> items;
  for (std::size_t i = begin; i < end; ++i) {
    tasks.push_back(RowJson(rows[i]));
    items.push_back(ItemOf(rows[i]));
  }
  json data = {{"tasks", std::move(tasks)}, {"total", total}, {"offset", begin}};
  std::string summary;
  if (total == 0) {
    summary = words.empty() ? "No tasks found." : "No tasks match " + Quoted(query) + ".";
  } else if (begin == 0 && end == total) {
    summary = refs::SummarizeRecords("Found", "task", "tasks", items);
  } else {
    summary = refs::SummarizeRecords("Showing", "task", "tasks", items) + " " +
              text::FormatCount(total) + " match in all";
    if (end < total) summary += "; continue with offset " + std::to_string(end);
    summary += ".";
  }
  if (end < total) data["nextOffset"] = end;
  return json{{"summary", summary}, {"data", std::move(data)}};
}

Result<json> RunListDue(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, ReadableContext(call));
  const json& in = call.input;
  const std::optional<calendar::WeekDate> today = calendar::ParseWeekDate(ctx->today);
  if (!today) return Status(codes::kFailedPrecondition, "the turn has no date for today");
  std::string from = StringIn(in, "from");
  if (from.empty()) from = ctx->today;
  const std::optional<calendar::WeekDate> from_date = calendar::ParseWeekDate(from);
  if (!from_date) return InvalidArgument("from must be a date, YYYY-MM-DD");
  std::string to = StringIn(in, "to");
  if (to.empty()) to = calendar::AddDays(*from_date, kDefaultDueWindowDays - 1);
  if (to.empty()) to = "9999-12-31";  // The window runs past the last date there is.
  if (!calendar::ParseWeekDate(to)) return InvalidArgument("to must be a date, YYYY-MM-DD");
  if (to < from) return InvalidArgument("to (" + to + ") is before from (" + from + ")");
  const bool include_overdue = BoolIn(in, "includeOverdue", true);
  const std::size_t limit = static_cast<std::size_t>(
      std::clamp(IntIn(in, "limit", kDefaultTaskListLimit), 1, tools::schema::kMaxListLimit));

  ENSEMBLE_ASSIGN_OR_RETURN(std::vector<Task> rows, LiveTasks(*ctx, "", false));
  const std::string& t = ctx->today;
  std::erase_if(rows, [&](const Task& r) {
    if (!r.due) return true;
    const bool in_range = *r.due >= from && *r.due <= to;
    const bool overdue = include_overdue && *r.due < t;
    return !in_range && !overdue;
  });
  // Today's first, then overdue (oldest first), then the rest by date.
  auto rank = [&](const Task& r) { return *r.due == t ? 0 : *r.due < t ? 1 : 2; };
  std::stable_sort(rows.begin(), rows.end(), [&](const Task& a, const Task& b) {
    if (rank(a) != rank(b)) return rank(a) < rank(b);
    return *a.due < *b.due;
  });
  const std::size_t total = rows.size();
  if (rows.size() > limit) rows.resize(limit);

  json tasks = json::array();
  std::vector<refs::SummaryItem> items;
  for (const Task& r : rows) {
    json row = RowJson(r);
    row["overdue"] = *r.due < t;
    tasks.push_back(std::move(row));
    items.push_back(ItemOf(r));
  }
  const std::string range =
      from == to ? "on " + DayText(from, t) : DayText(from, t) + " to " + DayText(to, t);
  std::string summary;
  if (total == 0) {
    summary = "Nothing is due " + range + (include_overdue ? " and nothing is overdue." : ".");
  } else {
    const std::string when = " due " + range + (include_overdue ? " or overdue" : "");
    if (total == rows.size()) {
      summary = refs::SummarizeRecords("Found", "task" + when, "tasks" + when, items);
    } else {
      summary = refs::SummarizeRecords("Showing", "task" + when, "tasks" + when, items) + " " +
                text::FormatCount(total) + " in all; a higher limit shows more.";
    }
  }
  return json{
      {"summary", summary},
      {"data", {{"tasks", std::move(tasks)}, {"total", total}, {"from", from}, {"to", to}}}};
}

}  // namespace ensemble::core::tasks
