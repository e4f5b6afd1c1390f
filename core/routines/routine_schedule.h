// When a routine runs: the instants its schedule (routine.h: daily,
// weekdays, weekly, monthly at HH:MM) names in its owner's time zone. Pure
// computation, so the server's runner and the tests agree on every answer,
// across daylight-saving changes (a time in a spring-forward gap runs at the
// first instant after it; in a fall-back overlap, at the first occurrence).
//
// Thread-safety: stateless functions.

#ifndef ENSEMBLE_CORE_ROUTINES_ROUTINE_SCHEDULE_H_
#define ENSEMBLE_CORE_ROUTINES_ROUTINE_SCHEDULE_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string_view>

#include "core/base/status.h"

namespace ensemble::core::routines {

// The first run strictly after `after_ms` (milliseconds since the epoch,
// UTC) for `schedule` in the IANA zone `time_zone` (an unknown name: UTC).
// INVALID_ARGUMENT for a schedule CheckSchedule refuses.
Result<int64_t> NextRunAfter(const nlohmann::json& schedule, std::string_view time_zone,
                             int64_t after_ms);

}  // namespace ensemble::core::routines

#endif  // ENSEMBLE_CORE_ROUTINES_ROUTINE_SCHEDULE_H_
