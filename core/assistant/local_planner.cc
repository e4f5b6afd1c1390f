#include "core/assistant/local_planner.h"

#include <algorithm>
#include <utility>

#include "core/assistant/hub_tools.h"
#include "core/assistant/local_due_phrase.h"
#include "core/assistant/local_request.h"
#include "core/base/id.h"
#include "core/calendar/week_date.h"
#include "core/refs/summary.h"
#include "core/tasks/task_tools.h"
#include "core/text/ascii.h"
#include "core/text/trim.h"
#include "core/text/typography.h"
#include "core/text/utf8.h"
#include "core/tools/tool_schema.h"
#include "core/tools/validate.h"

namespace ensemble::core::assistant {

using text::kCloseQuote;
using text::kOpenQuote;
namespace {

using nlohmann::json;

constexpr std::string_view kCreateTasks = tasks::kCreateTasksTool;
constexpr std::string_view kListTasks = tasks::kListTasksTool;
constexpr std::string_view kUpdateTask = tasks::kUpdateTaskTool;
constexpr std::string_view kListDue = tasks::kListDueTool;

constexpr std::string_view kUntitled = "an untitled task";

Status PlanInvalid(std::string message) {
  return Status(codes::kInvalidArgument, "local plan: " + std::move(message));
}

// One line of display text: repaired, white space collapsed, trimmed.
std::string OneLine(std::string_view raw) {
  const std::string repaired = text::RepairUtf8(raw);
  std::string line;
  for (char c : text::Trim(repaired)) {
    const bool space = c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
    if (!space) {
      line += c;
    } else if (!line.empty() && line.back() != ' ') {
      line += ' ';
    }
  }
  return line;
}

// A title as the reply shows it: quoted and bounded, never an id.
std::string Quoted(std::string_view title) {
  const std::string line = OneLine(title);
  if (line.empty() || IsValidId(line)) return std::string(kUntitled);
  return std::string(kOpenQuote) + text::TruncateChars(line, refs::kMaxSummaryTitleChars) +
         std::string(kCloseQuote);
}

std::string StringAt(const json& row, std::initializer_list<const char*> keys) {
  for (const char* key : keys) {
    auto it = row.find(key);
    if (it != row.end() && it->is_string()) return it->get<std::string>();
  }
  return {};
}

// The task rows of a tool result: the result itself when a list, else its
// "tasks", "items" or "results" list (also under "data"), else its "task".
std::vector<const json*> Rows(const json& result) {
  const json* list = nullptr;
  const json* single = nullptr;
  auto look = [&](const json& object) {
    if (!object.is_object()) return;
    for (const char* key : {"tasks", "items", "results"}) {
      auto it = object.find(key);
      if (!list && it != object.end() && it->is_array()) list = &*it;
    }
    auto task = object.find("task");
    if (!single && task != object.end() && task->is_object()) single = &*task;
  };
  if (result.is_array()) {
    list = &result;
  } else {
    look(result);
    if (!list && result.is_object()) {
      auto data = result.find("data");
      if (data != result.end() && data->is_array()) {
        list = &*data;
      } else if (data != result.end()) {
        look(*data);
      }
    }
  }
  std::vector<const json*> rows;
  if (list) {
    for (const json& row : *list) {
      if (row.is_object()) rows.push_back(&row);
    }
  } else if (single) {
    rows.push_back(single);
  }
  return rows;
}

std::string DayLabel(const std::string& date, const calendar::WeekDate& today) {
  if (date == calendar::AddDays(today, 0)) return "today";
  if (date == calendar::AddDays(today, 1)) return "tomorrow";
  const std::optional<calendar::WeekDate> d = calendar::ParseWeekDate(date);
  if (!d) return {};
  return std::string(calendar::WeekdayName(d->iso_weekday)) + ", " +
         refs::FormatDueDate(date, d->year != today.year);
}

// "- “Draft brief” (doing, due 3 Dec, overdue)".
std::string TaskLine(const json& row, const calendar::WeekDate& today, bool show_status) {
  std::string line = "- " + Quoted(StringAt(row, {"title", "name"}));
  std::vector<std::string> details;
  const std::string status = StringAt(row, {"status"});
  if (show_status && (status == "doing" || status == "done")) {  // Todo is the default.
    details.push_back(status);
  }
  const std::string due = StringAt(row, {"due", "dueDate"});
  const std::optional<calendar::WeekDate> d = calendar::ParseWeekDate(due);
  if (d) {
    details.push_back("due " + refs::FormatDueDate(due, d->year != today.year));
    if (due < calendar::AddDays(today, 0) && status != "done") details.push_back("overdue");
  }
  if (!details.empty()) {
    line += " (";
    for (std::size_t i = 0; i < details.size(); ++i) line += (i ? ", " : "") + details[i];
    line += ")";
  }
  return line;
}

std::string Lines(const std::vector<const json*>& rows, std::size_t max,
                  const calendar::WeekDate& today, bool show_status) {
  std::string out;
  for (std::size_t i = 0; i < rows.size() && i < max; ++i) {
    out += "\n" + TaskLine(*rows[i], today, show_status);
  }
  if (rows.size() > max) out += "\n- and " + text::FormatCount(rows.size() - max) + " more";
  return out;
}

// The tool's error as a clause of the reply, ending in a full stop.
std::string ErrorText(const std::string& error) {
  std::string line = text::TruncateChars(OneLine(error), kMaxErrorChars);
  if (line.empty()) line = "the tool failed";
  if (line.back() != '.' && line.back() != '!' && line.back() != '?') line += '.';
  return line;
}

std::string NeedsModelReply(const std::string& topic) {
  return std::string(kLocalAbilitiesText) + " For " +
         (topic.empty() ? std::string(kAnythingElseTopic) : topic) + std::string(kSetUpModelText);
}

// --- Replies from results ------------------------------------------------

std::string AddReply(const LocalCallRecord& call, const calendar::WeekDate& today) {
  const json& sent = call.args.is_object() ? call.args.value("tasks", json::array()) : json();
  if (call.error) {
    return std::string("I couldn't add ") + (sent.size() == 1 ? "the task" : "the tasks") + ": " +
           ErrorText(*call.error);
  }
  std::vector<const json*> rows = Rows(call.result);
  if (rows.empty() && sent.is_array()) {
    for (const json& row : sent) {
      if (row.is_object()) rows.push_back(&row);
    }
  }
  std::vector<refs::SummaryItem> items;
  for (const json* row : rows) {
    items.push_back({StringAt(*row, {"title", "name"}), StringAt(*row, {"due", "dueDate"})});
  }
  std::string reply = refs::SummarizeRecords("Added", "task", "tasks", items);
  if (!items.empty() && !items[0].due.empty() &&
      std::all_of(items.begin(), items.end(),
                  [&](const refs::SummaryItem& i) { return i.due == items[0].due; })) {
    const std::string day = DayLabel(items[0].due, today);
    if (!day.empty()) reply += " Due " + day + ".";
  }
  return reply;
}

std::string ListReply(const LocalRequest& request, const LocalCallRecord& call,
                      const calendar::WeekDate& today) {
  if (call.error) return "I couldn't list the tasks: " + ErrorText(*call.error);
  const std::vector<const json*> rows = Rows(call.result);
  std::string what = "Your open tasks";
  std::string none = "You have no open tasks.";
  bool show_status = true;
  if (request.list_status == "done") {
    what = "Done";
    none = "No tasks are done yet.";
    show_status = false;
  } else if (request.list_status == "doing") {
    what = "In Doing";
    none = "No tasks are in Doing.";
    show_status = false;
  } else if (request.list_all) {
    what = "Your tasks";
    none = "You have no tasks.";
  }
  if (rows.empty()) return none;
  std::string count = std::to_string(rows.size());
  // The total of a cut list: beside the rows, or in the run's data.
  for (const json* holder :
       {&call.result,
        call.result.is_object() && call.result.contains("data") ? &call.result["data"] : nullptr}) {
    if (!holder || !holder->is_object()) continue;
    auto total = holder->find("total");
    if (total != holder->end() && total->is_number_unsigned() &&
        total->get<std::size_t>() > rows.size()) {
      count = "showing " + count + " of " + text::FormatCount(total->get<std::size_t>());
      break;
    }
  }
  return what + " (" + count + "):" + Lines(rows, kMaxListedTasks, today, show_status);
}

std::string DueReply(const LocalRequest& request, const LocalCallRecord& call,
                     const calendar::WeekDate& today) {
  if (call.error) return "I couldn't look up what is due: " + ErrorText(*call.error);
  std::vector<const json*> rows = Rows(call.result);
  const LocalDueRange& range = request.due;
  if (range.overdue_only) {
    const std::string t = calendar::AddDays(today, 0);
    std::erase_if(rows, [&](const json* row) {
      const std::string due = StringAt(*row, {"due", "dueDate"});
      return !calendar::ParseWeekDate(due) || due >= t || StringAt(*row, {"status"}) == "done";
    });
    if (rows.empty()) return "Nothing is overdue.";
    return "Overdue (" + std::to_string(rows.size()) +
           "):" + Lines(rows, kMaxListedTasks, today, false);
  }
  if (rows.empty()) return "Nothing is due " + range.label + ".";
  return "Due " + range.label + " (" + std::to_string(rows.size()) +
         "):" + Lines(rows, kMaxListedTasks, today, false);
}

// --- Complete and move ---------------------------------------------------

struct Pick {
  const json* row = nullptr;  // The one task to change.
  std::string reply;          // Or the final reply.
};

bool UsableId(const json& row) {
  const std::string id = StringAt(row, {"id"});
  return !id.empty() && id.size() <= tools::schema::kMaxIdChars && text::IsValidUtf8(id);
}

// The id of the task mention the target names ("@Renew passport" picked
// from the @-menu), or empty.
std::string MentionedTaskId(const LocalRequest& request,
                            const std::vector<LocalMention>& mentions) {
  const std::string wanted = text::AsciiLowered(OneLine(request.target));
  for (const LocalMention& m : mentions) {
    if (m.kind == "task" && !m.id.empty() && text::AsciiLowered(OneLine(m.label)) == wanted) {
      return m.id;
    }
  }
  return {};
}

Pick PickTask(const LocalRequest& request, const LocalCallRecord& lookup,
              const calendar::WeekDate& today, const std::vector<LocalMention>& mentions) {
  Pick pick;
  if (lookup.error) {
    pick.reply = "I couldn't look up " + Quoted(request.target) + ": " + ErrorText(*lookup.error);
    return pick;
  }
  std::vector<const json*> rows;
  for (const json* row : Rows(lookup.result)) {
    if (UsableId(*row)) rows.push_back(row);
  }
  const std::string wanted = text::AsciiLowered(OneLine(request.target));
  std::vector<const json*> exact;
  // A mention's id is an exact key: that task, whatever else shares its title.
  if (const std::string id = MentionedTaskId(request, mentions); !id.empty()) {
    for (const json* row : rows) {
      if (StringAt(*row, {"id"}) == id) exact.push_back(row);
    }
  }
  for (const json* row : exact.empty() ? rows : std::vector<const json*>{}) {
    if (text::AsciiLowered(OneLine(StringAt(*row, {"title", "name"}))) == wanted)
      exact.push_back(row);
  }
  const std::vector<const json*>& candidates = exact.empty() ? rows : exact;
  if (candidates.empty()) {
    pick.reply = "I couldn't find a task called " + Quoted(request.target) + ".";
    return pick;
  }
  std::vector<const json*> pending;
  for (const json* row : candidates) {
    if (StringAt(*row, {"status"}) != request.status) pending.push_back(row);
  }
  if (pending.size() == 1) {
    pick.row = pending[0];
    return pick;
  }
  const std::string title = Quoted(StringAt(*candidates[0], {"title", "name"}));
  if (pending.empty()) {
    const std::string where = request.status == "done"
                                  ? std::string("done")
                                  : "in " + std::string(StatusLabel(request.status));
    pick.reply = (candidates.size() == 1 ? title + " is already " + where + "."
                                         : "Every task matching " + Quoted(request.target) +
                                               " is already " + where + ".");
    return pick;
  }
  // Spec §3: when several match, ask with "Choices:" and their titles.
  pick.reply = "Several tasks match " + Quoted(request.target) +
               ". Which one did you mean?\nChoices:" + Lines(pending, kMaxChoices, today, true);
  return pick;
}

std::string ChangeReply(const LocalRequest& request, const LocalCallRecord& lookup,
                        const LocalCallRecord& update) {
  // The title: from the update's result, else the row the lookup found.
  std::string title;
  for (const json* row : Rows(update.result)) {
    title = StringAt(*row, {"title", "name"});
    if (!title.empty()) break;
  }
  const std::string id = update.args.is_object() ? update.args.value("id", std::string()) : "";
  for (const json* row : Rows(lookup.result)) {
    if (title.empty() && !id.empty() && StringAt(*row, {"id"}) == id) {
      title = StringAt(*row, {"title", "name"});
    }
  }
  if (title.empty()) title = request.target;
  if (update.error) return "I couldn't change " + Quoted(title) + ": " + ErrorText(*update.error);
  if (request.intent == LocalIntent::kComplete) return "Marked " + Quoted(title) + " as done.";
  return "Moved " + Quoted(title) + " to " + std::string(StatusLabel(request.status)) + ".";
}

// --- Calls ---------------------------------------------------------------

json CreateArgs(const LocalRequest& request) {
  json tasks = json::array();
  for (const LocalTask& task : request.tasks) {
    json row = {{"title", task.title}};
    if (!task.due.empty()) row["due"] = task.due;
    tasks.push_back(std::move(row));
  }
  return {{"tasks", std::move(tasks)}};
}

json ListArgs(const LocalRequest& request) {
  json args = json::object();
  if (!request.list_status.empty()) args["status"] = request.list_status;
  if (request.list_status == "done" || request.list_all) args["includeDone"] = true;
  return args;
}

json DueArgs(const LocalRequest& request) {
  return {{"from", request.due.from},
          {"to", request.due.to},
          {"includeOverdue", request.due.include_overdue}};
}

json LookupArgs(const LocalRequest& request) {
  return {{"query", text::TruncateChars(request.target, tools::schema::kMaxQueryChars)},
          {"includeDone", true},
          {"limit", kLookupLimit}};
}

json UpdateArgs(const LocalRequest& request, const json& row) {
  json args = {{"id", StringAt(row, {"id"})}, {"fields", {{"status", request.status}}}};
  const std::string status = StringAt(row, {"status"});
  if (!status.empty()) args["base"] = {{"status", status}};
  return args;
}

// The tools this message's plan calls, in order.
std::vector<std::string_view> PlanTools(LocalIntent intent) {
  switch (intent) {
    case LocalIntent::kAdd:
      return {kCreateTasks};
    case LocalIntent::kList:
      return {kListTasks};
    case LocalIntent::kDue:
      return {kListDue};
    case LocalIntent::kComplete:
    case LocalIntent::kMove:
      return {kListTasks, kUpdateTask};
    case LocalIntent::kUnsupported:
      break;
  }
  return {};
}

LocalPlanStep Final(LocalPlanStep step, std::string reply) {
  step.final = true;
  step.reply = std::move(reply);
  return step;
}

Result<LocalPlanStep> Emit(const tools::ToolRegistry& registry, LocalPlanStep step,
                           std::string_view name, json args) {
  // A call the registry refuses is the planner's bug, never the person's.
  const Status valid = tools::ValidateToolCall(registry, name, args);
  if (!valid.ok()) {
    return Status(codes::kInternal, "local planner made an invalid " + std::string(name) +
                                        " call: " + valid.message());
  }
  step.calls.push_back({std::string(name), std::move(args)});
  return step;
}

}  // namespace

Result<LocalPlanStep> PlanLocalStep(const tools::ToolRegistry& registry,
                                    const LocalPlanInput& input) {
  const std::optional<calendar::WeekDate> today = calendar::ParseWeekDate(input.today);
  if (!today) return PlanInvalid("today must be a date, YYYY-MM-DD");
  const LocalRequest request = ParseLocalRequest(input.message, *today);
  LocalPlanStep step;
  step.step = static_cast<int>(input.calls.size()) + 1;
  step.intent = std::string(LocalIntentName(request.intent));

  const std::vector<std::string_view> plan = PlanTools(request.intent);
  if (input.calls.size() > plan.size()) {
    return PlanInvalid("this message's plan makes " + std::to_string(plan.size()) + " call" +
                       (plan.size() == 1 ? "" : "s") + ", not " +
                       std::to_string(input.calls.size()));
  }
  for (std::size_t i = 0; i < input.calls.size(); ++i) {
    if (input.calls[i].name != plan[i]) {
      return PlanInvalid("call " + std::to_string(i + 1) + " is " + input.calls[i].name +
                         "; this message's plan calls " + std::string(plan[i]));
    }
  }
  const std::size_t done = input.calls.size();

  switch (request.intent) {
    case LocalIntent::kUnsupported:
      switch (request.gap) {
        case LocalGap::kNoTitle:
          return Final(std::move(step), std::string(kAskTitleReply));
        case LocalGap::kWhichTask:
          return Final(std::move(step), std::string(kAskWhichTaskReply));
        case LocalGap::kEmpty:
          return Final(std::move(step), std::string(kLocalAbilitiesText) +
                                            " Try \u201Cadd a task to call Mira tomorrow\u201D "
                                            "or \u201Cwhat's due this week\u201D.");
        case LocalGap::kNone:
        case LocalGap::kNeedsModel:
          break;
      }
      step.needs_model = true;
      return Final(std::move(step), NeedsModelReply(request.topic));
    case LocalIntent::kAdd:
      if (done == 0) return Emit(registry, std::move(step), kCreateTasks, CreateArgs(request));
      return Final(std::move(step), AddReply(input.calls[0], *today));
    case LocalIntent::kList:
      if (done == 0) return Emit(registry, std::move(step), kListTasks, ListArgs(request));
      return Final(std::move(step), ListReply(request, input.calls[0], *today));
    case LocalIntent::kDue:
      if (done == 0) return Emit(registry, std::move(step), kListDue, DueArgs(request));
      return Final(std::move(step), DueReply(request, input.calls[0], *today));
    case LocalIntent::kComplete:
    case LocalIntent::kMove: {
      if (done == 0) return Emit(registry, std::move(step), kListTasks, LookupArgs(request));
      if (done == 2)
        return Final(std::move(step), ChangeReply(request, input.calls[0], input.calls[1]));
      Pick pick = PickTask(request, input.calls[0], *today, input.mentions);
      if (!pick.row) return Final(std::move(step), std::move(pick.reply));
      return Emit(registry, std::move(step), kUpdateTask, UpdateArgs(request, *pick.row));
    }
  }
  return Status(codes::kInternal, "local plan: unknown intent");
}

}  // namespace ensemble::core::assistant
