// Named values in sync_state, shared by the client replica and the server.
//
// Thread-safety: stateless; as the Database given.

#ifndef ENSEMBLE_CORE_SYNC_SYNC_STATE_H_
#define ENSEMBLE_CORE_SYNC_SYNC_STATE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/base/status.h"
#include "core/store/database.h"

namespace ensemble::core::sync {

Result<std::optional<int64_t>> GetStateInt(store::Database& db, std::string_view key);
Result<std::optional<std::string>> GetStateText(store::Database& db, std::string_view key);
Status SetStateInt(store::Database& db, std::string_view key, int64_t value);
Status SetStateText(store::Database& db, std::string_view key, const std::string& value);
// Removes `key`; nothing happens when it is not set.
Status DeleteState(store::Database& db, std::string_view key);

// Reserves `count` server versions and returns the first. The counter's row
// stays locked until the transaction ends, so writers take versions in
// commit order and a pull never sees a version before an earlier one is
// committed. INTERNAL when the counter is missing (an unmigrated store).
Result<int64_t> ReserveServerVersions(store::Database& db, int64_t count);

}  // namespace ensemble::core::sync

#endif  // ENSEMBLE_CORE_SYNC_SYNC_STATE_H_
