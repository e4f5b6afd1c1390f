// Watcher news: what makes a watcher tell the person something ("Tell the
// person when a record changes", hub_create_watcher).
//
// The server calls RecordWatcherNews after each mutation it applies (the
// hub's SyncConfig::after_mutation), in that mutation's savepoint and as its
// server version, so the news syncs to the owner's devices with the change
// and is undone with it. A change the space's owner made is not news to them
// (they watch for other people's work), and the trusted single-person mode
// has no one else, so only an account other than the owner makes news.
//
// A watcher row then holds, besides its fields:
//   changes      how many changes since the person last looked (0: none)
//   last_change  the newest, in words: "Ana Lee changed status and due"
//   changed_at   when it was made (the mutation's client time), 0 for never
// What counts as a change of the watched record: a write of the record
// itself, a comment added or changed on it, and, for a board, a card put,
// moved or taken off.
//
//   watcher.seen {id, through}: the person has seen the news up to
//     changed_at `through`; changes drop to 0 unless newer news came since.
//
// Thread-safety: stateless; as the context given.

#ifndef ENSEMBLE_CORE_REMINDERS_WATCHER_NEWS_H_
#define ENSEMBLE_CORE_REMINDERS_WATCHER_NEWS_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "core/base/status.h"
#include "core/store/migrations.h"
#include "core/sync/mutator.h"

namespace ensemble::core::reminders {

// A watcher's last_change is a line; a long name is cut to fit.
inline constexpr size_t kMaxWatcherNewsChars = 300;

// Migration 25: the watchers' changes, last_change and changed_at columns.
extern const store::Migration kAddWatcherNews;

// Adds news to every live watcher of a record `mutation` (applied on behalf
// of `account_id`, null for the trusted local person) wrote. OK and nothing
// written when none watches it or the writer owns the space.
Status RecordWatcherNews(sync::MutationContext& ctx, const std::string* account_id,
                         std::string_view mutation, const nlohmann::json& args);

// The watcher.seen mutator (see above).
Status MarkWatcherSeen(sync::MutationContext& ctx, const nlohmann::json& args);

}  // namespace ensemble::core::reminders

#endif  // ENSEMBLE_CORE_REMINDERS_WATCHER_NEWS_H_
