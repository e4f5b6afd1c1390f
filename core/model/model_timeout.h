// How long one model call may wait (spec 000 §5): ENSEMBLE_MODEL_CALL_TIMEOUT_MS,
// 15 minutes by default, clamped to 30 seconds ... 30 minutes; a caller may
// pass a shorter limit (a vision check, a web step, a checklist). Past the
// limit the call ends with MODEL_TIMEOUT and the message the chat shows:
// "<model> did not answer within 15 minutes, so I stopped waiting. Ask again,
// or try a narrower question."
//
// The core reads no environment: the server passes the variable's value in.
//
// Thread-safety: pure functions.

#ifndef ENSEMBLE_CORE_MODEL_MODEL_TIMEOUT_H_
#define ENSEMBLE_CORE_MODEL_MODEL_TIMEOUT_H_

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "core/base/status.h"

namespace ensemble::core::model {

inline constexpr std::string_view kModelCallTimeoutEnv = "ENSEMBLE_MODEL_CALL_TIMEOUT_MS";
inline constexpr std::chrono::milliseconds kDefaultModelCallTimeout = std::chrono::minutes(15);
inline constexpr std::chrono::milliseconds kMinModelCallTimeout = std::chrono::seconds(30);
inline constexpr std::chrono::milliseconds kMaxModelCallTimeout = std::chrono::minutes(30);

// The configured limit from the variable's value: absent or blank gives the
// default; a whole number of milliseconds is clamped to [min, max];
// anything else is INVALID_ARGUMENT (the server refuses to start with it).
Result<std::chrono::milliseconds> ParseModelCallTimeout(std::optional<std::string_view> value);

// The limit one call runs under: the configured one, or the caller's when it
// is shorter. A caller's limit is not clamped up (a checklist may wait 20 s);
// zero or negative means "none given".
std::chrono::milliseconds EffectiveModelCallTimeout(
    std::chrono::milliseconds configured, std::optional<std::chrono::milliseconds> caller_limit);

// A duration as the chat words it: "30 seconds", "1 minute", "15 minutes",
// "1 minute 30 seconds". Rounded to the nearest second, at least "1 second".
std::string WordDuration(std::chrono::milliseconds duration);

// "<model> did not answer within <duration>, so I stopped waiting. Ask
// again, or try a narrower question." `model` is the name people see.
std::string ModelTimeoutMessage(std::string_view model, std::chrono::milliseconds limit);

// MODEL_TIMEOUT carrying ModelTimeoutMessage.
Status ModelTimeoutError(std::string_view model, std::chrono::milliseconds limit);

}  // namespace ensemble::core::model

#endif  // ENSEMBLE_CORE_MODEL_MODEL_TIMEOUT_H_
