// Reading a person's message as one of the simple task requests the local
// planner (local_planner.h) can carry out without a model: add, list,
// complete, move, and what is due (spec 000 §3, the simple-todo recipe, and
// playbooks/tasks.md). English only, case-insensitive, deliberately narrow:
// anything it cannot read with confidence is kUnsupported, because a wrong
// write is worse than an honest "this needs a model" ("add a column to the
// board" and "move the meeting to Friday" are refused, not misread).
//
// What it reads:
//   add       "add a task to call Mira", "add 'Draft brief' and 'Call Mira'",
//             "todo: X", "remind me to pay rent tomorrow", "add X to my list",
//             "create two tasks: A, B and C"; a trailing due phrase sets the
//             due date (local_due_phrase.h).
//   list      "list my tasks", "show tasks", "what's open", "show done tasks".
//   due       "what's due today / this week / tomorrow / on Friday",
//             "what's overdue", "what's due".
//   complete  "mark Draft brief done", "complete X", "I finished X",
//             "X is done", "check off X".
//   move      "move X to Doing / Done / Todo", "mark X in progress",
//             "set X to doing", "I'm working on X", "reopen X".
// A title may be written as a mention, "@Renew passport" (the dock's @-menu
// puts it in the text so): the "@" is not part of the title.
// Status words are the tasks playbook's: done (complete, completed,
// finished), doing (in progress, started), todo (to do, to-do, open).
//
// Dates are civil dates in the person's time zone: `today` is theirs, and
// every date is counted from it (the core has no clock).
//
// Thread-safety: pure functions.

#ifndef ENSEMBLE_CORE_ASSISTANT_LOCAL_REQUEST_H_
#define ENSEMBLE_CORE_ASSISTANT_LOCAL_REQUEST_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/calendar/week_date.h"

namespace ensemble::core::assistant {

// A longer message is not a simple request (it also keeps every title and
// lookup query inside the tools' schema bounds: titles 500, queries 400).
inline constexpr std::size_t kMaxLocalMessageChars = 400;
// More titles than this in one add is not a simple request.
inline constexpr std::size_t kMaxLocalTitles = 20;

enum class LocalIntent { kUnsupported, kAdd, kList, kDue, kComplete, kMove };

// "unsupported", "add", "list", "due", "complete", "move".
std::string_view LocalIntentName(LocalIntent intent);

// Why a request is kUnsupported.
enum class LocalGap {
  kNone,
  kEmpty,       // Nothing was asked.
  kNeedsModel,  // Not one of the simple requests; `topic` names it.
  kNoTitle,     // An add with no title ("remind me tomorrow").
  kWhichTask,   // A change naming no task ("mark it done").
};

struct LocalTask {
  std::string title;  // As written, first letter capitalised.
  std::string due;    // "YYYY-MM-DD" or empty.
};

// hub_list_due's range.
struct LocalDueRange {
  std::string from;  // YYYY-MM-DD
  std::string to;    // YYYY-MM-DD
  bool include_overdue = false;
  bool overdue_only = false;  // "what's overdue": only rows due before today.
  std::string label;          // "today", "this week", "on Friday, 4 Dec", ...
};

struct LocalRequest {
  LocalIntent intent = LocalIntent::kUnsupported;
  LocalGap gap = LocalGap::kNone;
  // kNeedsModel: what needs a model, to follow "For " ("boards", "meetings");
  // empty when no area is recognised.
  std::string topic;
  std::vector<LocalTask> tasks;  // kAdd: one or more, each with a title.
  std::string list_status;       // kList: "" (open tasks), "doing" or "done".
  bool list_all = false;         // kList: open and done.
  LocalDueRange due;             // kDue
  std::string target;            // kComplete, kMove: the task's title as written.
  std::string status;            // kComplete ("done"), kMove: todo | doing | done.
};

// Reads `message` against `today`. Never fails: what it cannot read is
// kUnsupported with a gap.
LocalRequest ParseLocalRequest(std::string_view message, const calendar::WeekDate& today);

// Display name of a task status: "Todo", "Doing", "Done".
std::string_view StatusLabel(std::string_view status);

}  // namespace ensemble::core::assistant

#endif  // ENSEMBLE_CORE_ASSISTANT_LOCAL_REQUEST_H_
