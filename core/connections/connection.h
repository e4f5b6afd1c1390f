// Connected apps (spec 000 §3 "Connected apps", §8.2): what a space's owner
// has connected, kept in the connections table beside the records. A
// connection names its app (a catalog entry), carries a display name, the
// state of its last read (new, connected or failing, with a readable reason)
// and a secret — a token or a calendar link — that only the server can open:
// it arrives here already sealed (server/credentials/secret_box.h) and is
// never listed, returned or logged.
//
// Connections are the owner's own (spec 002 §2: "from its owner's account
// space; none in a space shared with them"): every read here takes the asking
// account, and a connection added by someone else is not found.
//
// Thread-safety: stateless functions; as the Database given.

#ifndef ENSEMBLE_CORE_CONNECTIONS_CONNECTION_H_
#define ENSEMBLE_CORE_CONNECTIONS_CONNECTION_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/store/database.h"
#include "core/store/migrations.h"

namespace ensemble::core::connections {

// The connections table, in the hub's migration list.
extern const store::Migration kCreateConnectionsTable;

inline constexpr size_t kMaxConnectionNameChars = 100;
// Calendar links carry a long secret path; browsers cap addresses near 2 KB.
inline constexpr size_t kMaxLinkChars = 2048;
// The spec names no cap; a space with more than this many apps connected is
// past any real setup, and the instructions name only 30 (instructions.h).
inline constexpr size_t kMaxConnectionsPerSpace = 50;
inline constexpr size_t kMaxErrorChars = 300;

// An app a connection can be made to.
struct AppEntry {
  std::string_view id;        // "calendar-link"
  std::string_view name;      // Shown to people: "Calendar link"
  std::string_view category;  // "calendar"
  // How the assistant reaches it: the tools that read or use it.
  std::string_view reached_by;
};

// A calendar's secret address in iCalendar format (Google's "secret address",
// Outlook's published ICS link, any webcal:// feed). Sync people reads its
// attendees (spec 004 §2: contact metadata only).
inline constexpr std::string_view kCalendarLinkApp = "calendar-link";

std::span<const AppEntry> AppCatalog();
// The catalog entry for `id`, or null.
const AppEntry* FindApp(std::string_view id);

inline constexpr std::string_view kStatusNew = "new";
inline constexpr std::string_view kStatusConnected = "connected";
inline constexpr std::string_view kStatusFailing = "failing";

// What may be shown about a connection: never its secret.
struct Connection {
  std::string id;
  std::string space_id;
  std::string account_id;  // Who connected it; empty in the single-person local mode.
  std::string app;         // A catalog id.
  std::string name;
  std::string status;      // kStatusNew, kStatusConnected or kStatusFailing.
  std::string last_error;  // Why the last read failed; empty when it did not.
  int64_t created_at = 0;
  int64_t checked_at = 0;  // The last read, 0 before any.
};

// INVALID_ARGUMENT naming the problem, else OK: 1..kMaxConnectionNameChars
// characters of text without control characters.
Status CheckConnectionName(std::string_view name);
// The link as it will be fetched: http(s), with webcal(s):// read as
// http(s)://; INVALID_ARGUMENT (never repeating the link) when it is not one.
Result<std::string> NormalizeCalendarLink(std::string_view link);

// Adds `connection` with its sealed secret; RESOURCE_EXHAUSTED past
// kMaxConnectionsPerSpace in the space.
Status AddConnection(store::Database& db, const Connection& connection,
                     std::string_view sealed_secret);
// The connections of `space_id` that `account_id` added (every one when
// `account_id` is empty: the local person), oldest first.
Result<std::vector<Connection>> ListConnections(store::Database& db, std::string_view space_id,
                                                std::string_view account_id);
// One of them; NOT_FOUND ("no connection with id ...") when it is not one
// `account_id` may use in `space_id`.
Result<Connection> GetConnection(store::Database& db, std::string_view space_id,
                                 std::string_view account_id, std::string_view id);
// The sealed secret of a connection GetConnection found.
Result<std::string> SealedSecret(store::Database& db, std::string_view id);
// Records a read's outcome: connected when `error` is empty, else failing
// with `error` (cut to kMaxErrorChars).
Status RecordCheck(store::Database& db, std::string_view id, std::string_view error,
                   int64_t now_ms);
// True when there was a connection `id` that `account_id` added (any, when
// empty) to delete.
Result<bool> DeleteConnection(store::Database& db, std::string_view account_id,
                              std::string_view id);

}  // namespace ensemble::core::connections

#endif  // ENSEMBLE_CORE_CONNECTIONS_CONNECTION_H_
