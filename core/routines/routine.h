// Routines: a saved instruction the assistant runs on a schedule (spec 002
// §2 "Routines": list, add, change, pause, resume, delete). A synced kind
// with the generic mutators of core/records:
//
//   routine.create {id, spaceId, title, instruction, schedule, paused?}
//   routine.update {id, fields: {title?, instruction?, schedule?, paused?},
//                   base?}: pausing and resuming are updates of `paused`.
//
// A schedule is {frequency, time, dayOfWeek?, dayOfMonth?}: frequency one of
// daily, weekdays, weekly (needs dayOfWeek, mon..sun) or monthly (needs
// dayOfMonth, 1..31; a shorter month runs on its last day); time "HH:MM" in
// the author's time zone (settings general.timeZone). Only the space's
// owners write routines (sync::AuthorizeMutation).
//
// A routine runs as its author (routine_runs.h): the account that last made,
// changed or restored it, stamped by the server (StampRoutineAuthor), so
// whoever says what it does is whom it acts as; never anyone else.
//
// Thread-safety: constants and stateless functions; as the context given.

#ifndef ENSEMBLE_CORE_ROUTINES_ROUTINE_H_
#define ENSEMBLE_CORE_ROUTINES_ROUTINE_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "core/base/status.h"
#include "core/records/record_kind.h"
#include "core/store/database.h"
#include "core/store/migrations.h"
#include "core/sync/mutator.h"

namespace ensemble::core::routines {

inline constexpr std::string_view kKind = "routine";
inline constexpr std::string_view kTable = "routines";

// The spec names no caps; the tools' schema and the record share these.
inline constexpr size_t kMaxTitleChars = 200;
inline constexpr size_t kMaxInstructionChars = 4000;
// A schedule's JSON text is far smaller; this bounds hostile input.
inline constexpr size_t kMaxScheduleBytes = 200;

inline constexpr std::string_view kFrequencies[] = {"daily", "weekdays", "weekly", "monthly"};
inline constexpr std::string_view kDaysOfWeek[] = {"mon", "tue", "wed", "thu", "fri", "sat", "sun"};

// Fields: title (required, trimmed), instruction (required), schedule (JSON,
// required, CheckSchedule), paused (0 or 1).
extern const records::RecordKind kRoutineKind;

// OK for a well-formed schedule; INVALID_ARGUMENT says what is wrong.
Status CheckSchedule(const nlohmann::json& schedule);

// "weekdays at 08:30", "weekly on Monday at 09:00", "monthly on day 1 at
// 07:00": how a reply names a (well-formed) schedule.
std::string ScheduleText(const nlohmann::json& schedule);

// Migration 18 creates the table (with the reminders', core/reminders).
extern const std::string_view kCreateRoutineTableSql;

void RegisterMutators(sync::MutatorRegistry& registry);

// Migration 31: routines get an author.
extern const store::Migration kAddRoutineAuthors;

// After routine.create, .update or .restore applies on the server: the
// writer becomes its author.
Status StampRoutineAuthor(store::Database& db, const std::string& account_id,
                          std::string_view mutation, const nlohmann::json& args);

}  // namespace ensemble::core::routines

#endif  // ENSEMBLE_CORE_ROUTINES_ROUTINE_H_
