#include "core/assistant/turn_loop.h"

#include <algorithm>
#include <map>
#include <utility>

#include "core/assistant/nudge.h"
#include "core/assistant/write_policy.h"
#include "core/text/trim.h"
#include "core/text/utf8.h"
#include "core/tools/validate.h"

namespace ensemble::core::assistant {
namespace {

using nlohmann::json;

std::string FailedResult(const Status& status) {
  return text::DumpJson(
      {{"status", "failed"},
       {"error", {{"code", std::string(status.code())}, {"message", status.message()}}}});
}

Status NoAnswer() { return Status(codes::kModelError, "The model gave no answer."); }

}  // namespace

TurnLoop::TurnLoop(const tools::ToolRegistry& registry, const playbooks::Router& router,
                   TurnSetup setup)
    : registry_(registry), router_(router), setup_(std::move(setup)) {
  offered_ = router_.Route(setup_.route).tools;
}

bool TurnLoop::IsOffered(std::string_view name) const {
  return std::find(offered_.begin(), offered_.end(), name) != offered_.end();
}

Result<model::ChatRequest> TurnLoop::NextRequest() {
  if (state_ != State::kReady) {
    return Status(codes::kFailedPrecondition, "the turn is not ready for a model request");
  }
  if (steps_ >= kMaxSteps) {
    return Status(codes::kLimitReached, "the turn has made its model requests");
  }
  model::ChatRequest request;
  request.messages.reserve(setup_.history.size() + transcript_.size() + 2);
  request.messages.push_back(model::ChatMessage::System(setup_.instructions));
  request.messages.insert(request.messages.end(), setup_.history.begin(), setup_.history.end());
  request.messages.push_back(model::ChatMessage::User(setup_.user_content));
  request.messages.insert(request.messages.end(), transcript_.begin(), transcript_.end());
  for (const std::string& name : offered_) {
    if (const tools::ToolDef* def = registry_.Find(name)) {
      request.tools.push_back(
          {def->name, def->description, std::string(registry_.SchemaText(name))});
    }
  }
  // The last request keeps the tools (so earlier calls stay meaningful) but
  // forbids new ones: it must answer.
  if (steps_ == kMaxSteps - 1) request.tool_choice = model::ToolChoice::kNone;
  ++steps_;
  state_ = State::kAwaitingReply;
  return request;
}

PlannedCall TurnLoop::Plan(const model::AssembledToolCall& call) {
  PlannedCall p;
  p.id = call.id;
  p.name = call.name;
  p.input = call.input;
  auto refuse = [&p](Status status) {
    p.action = CallAction::kAnswered;
    p.answer = FailedResult(status);
    p.status = std::move(status);
    return p;
  };
  if (!call.status.ok()) return refuse(call.status);
  // A call runs only if the turn offered that tool (spec §1).
  if (!IsOffered(call.name)) {
    return refuse(Status(codes::kUnknownTool, "no tool called \"" + call.name + "\""));
  }
  Status valid = tools::ValidateToolCall(registry_, call.name, call.input);
  if (!valid.ok()) return refuse(std::move(valid));
  p.tool = registry_.Find(call.name);

  if (call.name == kHowToTool) {
    auto how = playbooks::HowTo(router_, call.input.value("name", ""), &setup_.route);
    if (!how.ok()) return refuse(how.status());
    offered_ = std::move(how.value().route.tools);
    p.action = CallAction::kAnswered;
    p.answer = std::move(how.value().text);
    return p;
  }
  if (call.name == kWebSearchTool) {
    if (web_searches_ >= kMaxWebSearchesPerTurn) {
      return refuse(Status(codes::kLimitReached, std::string(kSearchLimitMessage)));
    }
    ++web_searches_;
  }
  p.action = HoldsWrite(setup_.policy, *p.tool) ? CallAction::kHold : CallAction::kRun;
  return p;
}

LoopStep TurnLoop::OnModelReply(std::string text, std::vector<model::AssembledToolCall> calls) {
  if (state_ != State::kAwaitingReply) {
    LoopStep step;
    step.error = Status(codes::kFailedPrecondition, "no model request is waiting for a reply");
    return step;
  }
  const bool tools_were_off = steps_ == kMaxSteps;
  if (!calls.empty() && !tools_were_off) {
    std::vector<model::ToolCallRecord> records;
    records.reserve(calls.size());
    pending_.clear();
    for (const model::AssembledToolCall& call : calls) {
      records.push_back({call.id, call.name, call.arguments});
      pending_.push_back(Plan(call));
    }
    transcript_.push_back(model::ChatMessage::Assistant(std::move(text), std::move(records)));
    state_ = State::kAwaitingOutcomes;
    LoopStep step;
    step.kind = LoopStep::Kind::kCallTools;
    step.calls = pending_;
    return step;
  }
  // A text-only reply (or calls on the tools-off step, which cannot run).
  if (text::Trim(text).empty()) {
    return has_standing_answer_ ? Final(standing_answer_) : Fail(NoAnswer());
  }
  NudgeReason reason = NudgeFor(text, tools_ran_, offered_);
  if (reason != NudgeReason::kNone && nudges_ < kMaxNudges && StepWithToolsRemains()) {
    ++nudges_;
    transcript_.push_back(model::ChatMessage::Assistant(text));
    transcript_.push_back(model::ChatMessage::User(std::string(NudgeMessage(reason))));
    state_ = State::kReady;
    LoopStep step;
    step.kind = LoopStep::Kind::kAskAgain;
    step.text = std::move(text);
    return step;
  }
  if (setup_.verify && verify_rounds_ < kMaxVerifyRounds && StepWithToolsRemains()) {
    state_ = State::kAwaitingVerify;
    standing_answer_ = std::move(text);
    LoopStep step;
    step.kind = LoopStep::Kind::kVerify;
    step.text = standing_answer_;
    return step;
  }
  return Final(std::move(text));
}

Status TurnLoop::OnToolOutcomes(std::vector<ToolOutcome> outcomes) {
  if (state_ != State::kAwaitingOutcomes) {
    return Status(codes::kFailedPrecondition, "no tool calls are waiting for outcomes");
  }
  std::map<std::string, ToolOutcome*> by_id;
  for (ToolOutcome& o : outcomes) {
    if (!by_id.emplace(o.call_id, &o).second) {
      return Status(codes::kInvalidArgument, "two outcomes for call " + o.call_id);
    }
  }
  size_t expected = 0;
  for (const PlannedCall& call : pending_) {
    if (call.action == CallAction::kAnswered) continue;
    ++expected;
    if (!by_id.count(call.id)) {
      return Status(codes::kInvalidArgument, "no outcome for call " + call.id);
    }
  }
  if (expected != by_id.size()) {
    return Status(codes::kInvalidArgument, "an outcome names a call that was not to run");
  }
  for (const PlannedCall& call : pending_) {
    std::string result;
    if (call.action == CallAction::kAnswered) {
      result = call.answer;
      if (call.status.ok()) tools_ran_ = true;
    } else {
      const ToolOutcome& o = *by_id.at(call.id);
      tools_ran_ = true;
      if (!o.status.ok()) {
        result = FailedResult(o.status);
      } else if (call.action == CallAction::kHold) {
        result = text::DumpJson(
            {{"status", "proposed"}, {"preview", o.preview}, {"note", kProposedNote}});
      } else {
        result = text::TrimToolResult(o.result, text::kMaxToolResultChars);
      }
    }
    transcript_.push_back(model::ChatMessage::ToolResult(call.id, std::move(result)));
  }
  pending_.clear();
  state_ = State::kReady;
  return Status::Ok();
}

LoopStep TurnLoop::OnVerified(std::string_view missing) {
  if (state_ != State::kAwaitingVerify) {
    LoopStep step;
    step.error = Status(codes::kFailedPrecondition, "no answer is waiting for its check");
    return step;
  }
  if (text::Trim(missing).empty()) return Final(standing_answer_);
  ++verify_rounds_;
  has_standing_answer_ = true;
  transcript_.push_back(model::ChatMessage::Assistant(standing_answer_));
  transcript_.push_back(model::ChatMessage::User(std::string(missing)));
  state_ = State::kReady;
  LoopStep step;
  step.kind = LoopStep::Kind::kAskAgain;
  step.text = standing_answer_;
  return step;
}

LoopStep TurnLoop::OnModelError(Status error) {
  if (state_ == State::kDone) {
    LoopStep step;
    step.error = Status(codes::kFailedPrecondition, "the turn is over");
    return step;
  }
  return has_standing_answer_ ? Final(standing_answer_) : Fail(std::move(error));
}

LoopStep TurnLoop::Final(std::string text) {
  state_ = State::kDone;
  LoopStep step;
  step.kind = LoopStep::Kind::kFinal;
  step.text = std::move(text);
  return step;
}

LoopStep TurnLoop::Fail(Status error) {
  state_ = State::kDone;
  LoopStep step;
  step.kind = LoopStep::Kind::kFailed;
  step.error = std::move(error);
  return step;
}

}  // namespace ensemble::core::assistant
