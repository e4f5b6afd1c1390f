// Reminders and watchers: the space owner's own (spec 002 §2 "Reminders and
// watchers": reminders list, add, change, dismiss, delete; watchers add,
// list, stop). Both are synced kinds with the generic mutators of
// core/records, behind checks that need the store:
//
//   reminder.create {id, spaceId, text, at, item_kind?, item?, dismissed?}
//     `at` is the instant, ms since the epoch (UTC); a reminder about a
//     record names both item_kind and item, a live record of spaceId (else
//     NOT_FOUND, as comments::CheckLiveTarget answers).
//   reminder.update {id, fields: {text?, at?, dismissed?}, base?}: a
//     reminder keeps its record (item and item_kind do not change).
//   watcher.create  {id, spaceId, target_kind, target, condition?}
//     the target is a live record of spaceId, as for a comment.
//   watcher.update  {id, fields: {condition?}, base?}: a watcher keeps its
//     target. Stopping a watcher is watcher.delete (Trash, so Undo restores
//     it).
//
// Only the space's owner writes them (sync::AuthorizeMutation).
//
// Thread-safety: constants and stateless functions; as the context given.

#ifndef ENSEMBLE_CORE_REMINDERS_REMINDER_H_
#define ENSEMBLE_CORE_REMINDERS_REMINDER_H_

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string_view>

#include "core/base/status.h"
#include "core/records/record_kind.h"
#include "core/store/migrations.h"
#include "core/sync/mutator.h"

namespace ensemble::core::reminders {

inline constexpr std::string_view kReminderKind = "reminder";
inline constexpr std::string_view kReminderTable = "reminders";
inline constexpr std::string_view kWatcherKind = "watcher";
inline constexpr std::string_view kWatcherTable = "watchers";

// The spec names no cap; a reminder is a line, as the tools' schema says.
inline constexpr size_t kMaxReminderChars = 500;
// What a watcher watches for, in the person's words.
inline constexpr size_t kMaxConditionChars = 500;
// The last instant a reminder may name: 9999-12-31T23:59:59.999Z.
inline constexpr int64_t kMaxReminderAtMs = 253'402'300'799'999;

// Fields: text (required, trimmed), at (ms, required), item_kind (one of
// comments::kTargetKinds, or null), item (id or null), dismissed (0 or 1).
extern const records::RecordKind kReminderRecordKind;
// Fields: target_kind (required), target (id, required), condition (text).
extern const records::RecordKind kWatcherRecordKind;

// Migration 18 creates their tables (with the routines', core/routines).
extern const std::string_view kCreateReminderTablesSql;

Status CreateReminder(sync::MutationContext& ctx, records::RecordKinds kinds,
                      const nlohmann::json& args);
Status UpdateReminder(sync::MutationContext& ctx, const nlohmann::json& args);
Status CreateWatcher(sync::MutationContext& ctx, records::RecordKinds kinds,
                     const nlohmann::json& args);
Status UpdateWatcher(sync::MutationContext& ctx, const nlohmann::json& args);

// Registers reminder.* and watcher.* (create, update, delete, restore);
// `kinds` (the build's, outliving the registry) gives each linked kind's
// table.
void RegisterMutators(sync::MutatorRegistry& registry, records::RecordKinds kinds);

}  // namespace ensemble::core::reminders

#endif  // ENSEMBLE_CORE_REMINDERS_REMINDER_H_
