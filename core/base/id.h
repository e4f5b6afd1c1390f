// Client-generated, time-ordered, collision-safe record ids (ULID layout:
// 48 bits of milliseconds, 80 random bits, 26 Crockford base32 characters).
// Ids sort by creation time as plain strings, so records can be created
// offline on any device and still list in order.
//
// Thread-safety: as safe as the Env it is given.

#ifndef ENSEMBLE_CORE_BASE_ID_H_
#define ENSEMBLE_CORE_BASE_ID_H_

#include <string>
#include <string_view>

#include "core/platform/env.h"

namespace ensemble::core {

inline constexpr size_t kIdLength = 26;

std::string NewId(platform::Clock& clock, platform::Random& random);

// An id of NewId's shape made from `from_id` and `salt` alone: the time part
// of `from_id` (a valid id) and 80 bits of SHA-256(from_id, salt). Replicas
// running one mutator make the same id for a record it adds.
std::string DerivedId(std::string_view from_id, std::string_view salt);

// True if `id` has the shape NewId produces.
bool IsValidId(std::string_view id);

}  // namespace ensemble::core

#endif  // ENSEMBLE_CORE_BASE_ID_H_
