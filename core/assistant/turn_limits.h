// The spec's limits on one Hub assistant turn ("Turn limits" in spec 000),
// shared by the turn loop and the local planner.
//
// Thread-safety: constants only.

#ifndef ENSEMBLE_CORE_ASSISTANT_TURN_LIMITS_H_
#define ENSEMBLE_CORE_ASSISTANT_TURN_LIMITS_H_

namespace ensemble::core::assistant {

// MAX_STEPS model requests per Hub turn, the last one a tools-off answer.
inline constexpr int kMaxSteps = 8;
// A reply that leaves the work undone goes back once.
inline constexpr int kMaxNudges = 1;
// MAX_VERIFY_ROUNDS of a surface's verify hook.
inline constexpr int kMaxVerifyRounds = 2;
// WEB_SEARCHES_PER_TURN.
inline constexpr int kMaxWebSearchesPerTurn = 3;

}  // namespace ensemble::core::assistant

#endif  // ENSEMBLE_CORE_ASSISTANT_TURN_LIMITS_H_
