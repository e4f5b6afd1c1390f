// Text-only replies that leave the work undone (spec 000 "Turn limits",
// leavesWorkUndone): a reply that promises a lookup before any tool ran, or
// one that writes a tool call as text or announces the next write. The loop
// sends such a reply back once with a nudge to make the call.
//
// Deliberately narrow: a false "yes" costs a model request and can make a
// finished answer worse, so only the last few sentences count and a
// question or an offer ("if you like", "want me to") is never a promise.
//
// Thread-safety: pure functions.

#ifndef ENSEMBLE_CORE_ASSISTANT_NUDGE_H_
#define ENSEMBLE_CORE_ASSISTANT_NUDGE_H_

#include <span>
#include <string>
#include <string_view>

namespace ensemble::core::assistant {

enum class NudgeReason {
  kNone,
  kPromisedLookup,  // "Let me check your tasks." and nothing ran.
  kCallAsText,      // hub_create_tasks({...}) written out instead of called.
  kAnnouncedWrite,  // "Proceeding to create the task." and the reply ends.
};

// Only the end of a reply is read for promises and announcements: an answer
// that mentions a next step in its middle has usually done it.
inline constexpr std::size_t kNudgeTailChars = 240;

// Why `reply` (a text-only reply) should go back to the model, given whether
// any tool ran in this turn and the tool names the turn offers.
NudgeReason NudgeFor(std::string_view reply, bool tools_ran,
                     std::span<const std::string> offered_tools);

// The user message the reply goes back with.
std::string_view NudgeMessage(NudgeReason reason);

}  // namespace ensemble::core::assistant

#endif  // ENSEMBLE_CORE_ASSISTANT_NUDGE_H_
