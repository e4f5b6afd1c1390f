// The answer check: the verify hook a surface may pass with a turn (spec 000
// "Turn limits"). The surface gives a checklist of what a complete answer
// covers; on the model's final text the check asks the model, tools off and
// under its own short limit, which items the answer leaves out, and what is
// missing goes back to the model as a user message (TurnLoop::OnVerified,
// at most kMaxVerifyRounds per turn).
//
// Thread-safety: stateless functions.

#ifndef ENSEMBLE_CORE_ASSISTANT_ANSWER_CHECK_H_
#define ENSEMBLE_CORE_ASSISTANT_ANSWER_CHECK_H_

#include <chrono>
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/model/chat_request.h"

namespace ensemble::core::assistant {

// A checklist is short: it says what an answer covers, not the answer.
inline constexpr size_t kMaxChecklistItems = 12;
inline constexpr size_t kMaxChecklistItemChars = 300;
// One check waits at most this long (the spec's "answer checklist 20
// seconds"); a check that fails or times out lets the answer stand.
inline constexpr std::chrono::seconds kAnswerCheckTimeout{20};
// The check's whole reply when nothing is missing.
inline constexpr std::string_view kAnswerCheckComplete = "COMPLETE";

// The checklist of a posted message's `verify: {"checklist": [...]}`:
// INVALID_ARGUMENT naming the rule for anything but an object whose
// checklist holds 1 to kMaxChecklistItems non-blank strings of at most
// kMaxChecklistItemChars characters (and no other field).
Result<std::vector<std::string>> ParseVerifyHook(const nlohmann::json& value);

// The check's request for `answer` to `question`: a system message saying
// how to reply, one user message with the checklist and both texts; no tools,
// not streamed.
model::ChatRequest AnswerCheckRequest(const std::vector<std::string>& checklist,
                                      std::string_view question, std::string_view answer);

// What goes back to the model, from the check's reply: empty when it says
// kAnswerCheckComplete or names nothing; else the items it named (at most
// kMaxChecklistItems, each cut to kMaxChecklistItemChars) and what to do.
std::string MissingFromCheck(std::string_view reply);

}  // namespace ensemble::core::assistant

#endif  // ENSEMBLE_CORE_ASSISTANT_ANSWER_CHECK_H_
