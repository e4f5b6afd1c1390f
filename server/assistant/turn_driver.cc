#include "server/assistant/turn_driver.h"

#include <algorithm>
#include <boost/asio/use_awaitable.hpp>

#include "core/assistant/answer_check.h"
#include "core/assistant/local_turn.h"
#include "core/assistant/proposal_store.h"
#include "core/assistant/running_turns.h"
#include "core/assistant/synced_mutation_sink.h"
#include "core/assistant/turn_context.h"
#include "core/assistant/turn_loop.h"
#include "core/assistant/write_policy.h"
#include "core/hub/hub.h"
#include "core/hub/hub_tools.h"
#include "core/model/chat_request.h"
#include "core/model/model_catalog.h"
#include "core/model/model_timeout.h"
#include "core/refs/readable_preview.h"
#include "core/sync/authorization.h"
#include "core/text/trim.h"
#include "core/text/utf8.h"
#include "core/tools/tool_context.h"
#include "server/events/poke_channel.h"

namespace ensemble::server::assistant {

namespace net = boost::asio;
namespace codes = core::codes;
using core::Result;
using core::Status;
using core::assistant::MessageStatus;
using nlohmann::json;

struct TurnDriver::Turn {
  TurnRequest request;
  EmitFrame emit;
  core::model::Usage usage;
  std::string streamed;  // Every text delta so far, in order.
  std::string final_text;
  Status error;  // Set when the turn failed.
  bool stopped = false;
  // Time spent waiting for the model: the rest of a turn is the server's own
  // (tools/bench assistant's turn overhead).
  std::chrono::steady_clock::duration model_wait{};

  // Writes that ran at once with an Undo entry: saved on the reply's
  // proposal as succeeded, so POST /api/assistant/undo reverses them.
  std::vector<core::assistant::ProposedCall> ran_calls;
  std::vector<core::assistant::CallReceipt> ran_receipts;

  bool stop_requested() const { return request.stop && request.stop->stopped(); }
  json& calls() { return request.reply.tool_calls; }
};

namespace {

json UsageJson(const core::model::Usage& usage) {
  return {{"promptTokens", usage.prompt_tokens},
          {"completionTokens", usage.completion_tokens},
          {"cachedTokens", usage.cached_tokens}};
}

void AddUsage(core::model::Usage& total, const core::model::Usage& more) {
  total.prompt_tokens += more.prompt_tokens;
  total.completion_tokens += more.completion_tokens;
  total.cached_tokens += more.cached_tokens;
}

json ErrorJson(const Status& status) {
  return {{"code", std::string(status.code())}, {"message", status.message()}};
}

// The ToolResult-style summary a receipt shows.
std::string SummaryOf(const json& result) {
  if (result.is_object()) {
    auto it = result.find("summary");
    if (it != result.end() && it->is_string()) return it->get<std::string>();
  }
  return "";
}

std::vector<core::assistant::RecordLink> MentionLinks(const json& mentions) {
  std::vector<core::assistant::RecordLink> links;
  for (const json& m : mentions) {
    if (!m.is_object()) continue;
    links.push_back({m.value("kind", ""), m.value("id", ""), m.value("label", "")});
  }
  return links;
}

model::ProviderConfig ProviderFor(const credentials::ModelCredentials& creds) {
  model::ProviderConfig config;
  config.base_url = creds.settings.base_url;
  config.api_key = creds.api_key;
  config.provider = creds.settings.provider;
  config.public_addresses_only = creds.public_addresses_only;
  config.key_header =
      creds.settings.provider == "azure" ? model::KeyHeader::kApiKey : model::KeyHeader::kBearer;
  return config;
}

// Store and internal failures are logged, and the person is told less.
Status ForThePerson(const Status& status, core::platform::Logger& logger) {
  if (status.code() == codes::kStorage || status.code() == codes::kInternal) {
    logger.Log(core::platform::LogLevel::kError, "assistant turn: " + status.ToString());
    return Status(status.code(), "The turn failed on the server. Try again.");
  }
  return status;
}

core::tools::ToolContext ContextFor(core::store::Database& db, const TurnRequest& r,
                                    core::platform::Random* random) {
  core::tools::ToolContext context = core::hub::NewToolContext();
  context.db = &db;
  context.space_id = r.space_id;
  context.account_id = r.local ? "" : r.account_id;
  context.now_ms = r.now_ms;
  context.today = r.today;
  context.time_zone = r.time_zone;
  context.random = random;
  context.settings_account = r.account_id;
  if (r.credentials) {
    context.model =
        core::model::ChooseModel(r.credentials->settings.provider, r.credentials->settings.model);
  }
  context.surface = r.surface;
  context.app_reader = r.app_reader;
  context.own_email = r.own_email;
  // No write sink: prepare and preview only read (RunHook adds the sink).
  return context;
}

// Runs a write-capable call in one transaction: its writes go through
// ServerSync as the turn's account (authorized, versioned, pulled by every
// client), and `poke` says who to tell once it has committed.
Result<json> RunWriteCall(core::store::Database& db, const core::tools::ToolDef& def,
                          const json& input, const TurnRequest& r, core::platform::Random* random,
                          events::Poke& poke) {
  return core::store::RunInTransaction(db, [&](core::store::Database& db) -> Result<json> {
    core::assistant::SyncedWrites writes;
    core::tools::ToolContext context = ContextFor(db, r, random);
    context.write = core::assistant::SyncedMutationSink(
        db, core::hub::Config(), r.local ? nullptr : &r.account_id, r.now_ms, &writes);
    core::tools::ToolCall call{def.name, input, &context};
    Result<json> out = def.run(call);
    if (!out.ok()) return out;
    if (writes.last_version > 0) {
      poke.version = writes.last_version;
      if (!r.local) {
        ENSEMBLE_ASSIGN_OR_RETURN(
            std::vector<std::string> readers,
            core::sync::ReadersOfChanges(db, core::hub::Config(), writes.first_version,
                                         writes.last_version));
        poke.readers = std::make_shared<const std::vector<std::string>>(std::move(readers));
      }
      ENSEMBLE_RETURN_IF_ERROR(events::NotifyPoke(db, poke));
    }
    return out;
  });
}

// True when the turn's routing lets this account run `name` (the write tools
// of areas turned off in settings are not among them).
bool RouteAllows(const core::playbooks::RouteRequest& route, std::string_view name) {
  return std::find(route.allowed_tools.begin(), route.allowed_tools.end(), name) !=
         route.allowed_tools.end();
}

// The calls a turn held (saved on its reply with "proposal": true).
std::vector<core::assistant::ProposedCall> HeldCalls(const json& calls) {
  std::vector<core::assistant::ProposedCall> held;
  for (const json& c : calls) {
    if (!c.value("proposal", false)) continue;
    held.push_back({c.value("id", std::string()), c.value("name", std::string()),
                    c.value("input", json::object())});
  }
  return held;
}

}  // namespace

TurnDriver::TurnDriver(store::StorePool& pool, core::platform::Logger& logger,
                       std::chrono::milliseconds model_timeout,
                       const core::playbooks::Router& router,
                       const core::tools::ToolRegistry& registry, core::platform::Random* random,
                       OnCommit on_commit, model::ModelConnectionPool* model_connections)
    : pool_(pool),
      logger_(logger),
      random_(random),
      model_timeout_(model_timeout),
      router_(router),
      registry_(registry),
      on_commit_(std::move(on_commit)),
      model_connections_(model_connections) {}

net::awaitable<void> TurnDriver::Run(TurnRequest& request, const EmitFrame& emit) {
  Turn turn;
  turn.request = std::move(request);
  turn.emit = emit;
  // The records the turn knows come first, so the person's client can name
  // them in the text that follows.
  turn.emit("refs", {{"refs", turn.request.mentions}});
  if (turn.request.credentials) {
    co_await RunWithModel(turn);
  } else {
    co_await RunLocally(turn);
  }
  co_await Finish(turn);
}

core::assistant::TurnSetup TurnDriver::Setup(const Turn& turn) const {
  const TurnRequest& r = turn.request;
  core::assistant::TurnSetup setup;
  core::assistant::InstructionsInput in;
  in.write_policy = r.policy;
  in.time_zone = r.time_zone;
  in.playbooks = core::assistant::PlaybookIndex(router_.playbooks());
  in.guest = r.guest;
  for (const core::connections::Connection& c : r.connections) {
    if (c.status == core::connections::kStatusFailing) {
      in.failing_apps.push_back(c.name);
    } else {
      in.connected_apps.push_back({c.name});
    }
  }
  setup.instructions = core::assistant::AssistantInstructions(in);
  for (const core::assistant::StoredMessage& m : core::assistant::History(r.earlier)) {
    setup.history.push_back(m.role == core::assistant::MessageRole::kUser
                                ? core::model::ChatMessage::User(m.text)
                                : core::model::ChatMessage::Assistant(m.text));
  }
  setup.route = r.route;
  core::playbooks::RouteResult routed = router_.Route(setup.route);
  core::assistant::TurnContextInput context;
  context.today = r.today;
  context.time_zone = r.time_zone;
  context.mentions = MentionLinks(r.mentions);
  for (const std::string& name : routed.guides) {
    Result<std::string> text = router_.PlaybookText(name, setup.route);
    if (text.ok()) context.guides.push_back({name, *text});
  }
  if (routed.simple_todo && !routed.recipe.empty()) {
    context.guides.push_back({"tasks", routed.recipe});
  }
  setup.user_content = core::assistant::TurnContext(context) + r.message;
  setup.policy = r.policy;
  setup.verify = !r.checklist.empty();
  return setup;
}

net::awaitable<void> TurnDriver::RunWithModel(Turn& turn) {
  const credentials::ModelCredentials& creds = *turn.request.credentials;
  Result<std::unique_ptr<model::OpenAiClient>> client =
      model::OpenAiClient::Create(ProviderFor(creds), logger_, model_connections_);
  if (!client.ok()) {
    turn.error = client.status();
    co_return;
  }
  const core::model::ModelInfo info =
      core::model::DescribeModel(creds.settings.provider, creds.settings.model);
  // Refused before anything is spent (spec 000 §5), saying where to change it.
  if (turn.request.effort != core::accounts::kNoEffort) {
    Status offered = core::model::CheckEffort(info, turn.request.effort);
    if (!offered.ok()) {
      turn.error =
          Status(offered.code(),
                 offered.message() + "; change the assistant's effort in Settings → Assistant");
      co_return;
    }
  }
  model::CallOptions options;
  options.timeout = core::model::EffectiveModelCallTimeout(model_timeout_, std::nullopt);
  options.model_name = info.name();
  core::assistant::TurnLoop loop(registry_, router_, Setup(turn));
  const model::OpenAiClient::OnEvent on_event = [&turn](const core::model::StreamEvent& event) {
    if (event.kind != core::model::StreamEvent::Kind::kText) return;
    turn.streamed += event.text;
    turn.emit("text", {{"text", event.text}});
  };
  using Kind = core::assistant::LoopStep::Kind;
  for (;;) {
    if (turn.stop_requested()) {
      turn.stopped = true;
      co_return;
    }
    Result<core::model::ChatRequest> request = loop.NextRequest();
    if (!request.ok()) {
      turn.error = request.status();
      co_return;
    }
    if (turn.request.effort != core::accounts::kNoEffort) request->effort = turn.request.effort;
    Result<std::string> body = core::model::BuildChatBodyText(info, *request);
    if (!body.ok()) {
      turn.error = body.status();
      co_return;
    }
    const auto asked = std::chrono::steady_clock::now();
    model::CallResult result =
        co_await (*client)->StreamChat(std::move(*body), options, on_event, turn.request.stop);
    turn.model_wait += std::chrono::steady_clock::now() - asked;
    CountModelCall(result, std::chrono::steady_clock::now() - asked);
    if (result.has_usage) AddUsage(turn.usage, result.usage);
    if (!result.status.ok()) {
      if (result.status.code() == codes::kCancelled || turn.stop_requested()) {
        turn.stopped = true;
        co_return;
      }
      if (result.status.code() == codes::kModelTimeout) {
        turn.error = result.status;
        co_return;
      }
      core::assistant::LoopStep step = loop.OnModelError(result.status);
      if (step.kind == Kind::kFinal) {
        turn.final_text = std::move(step.text);
      } else {
        turn.error = result.status;
      }
      co_return;
    }
    core::assistant::LoopStep step =
        loop.OnModelReply(std::move(result.text), std::move(result.tool_calls));
    if (step.kind == Kind::kVerify) {
      std::string missing = co_await CheckAnswer(turn, **client, info, step.text);
      if (turn.stop_requested()) {
        turn.stopped = true;
        co_return;
      }
      step = loop.OnVerified(missing);
    }
    switch (step.kind) {
      case Kind::kAskAgain:
      case Kind::kVerify:
        continue;
      case Kind::kFinal:
        turn.final_text = std::move(step.text);
        co_return;
      case Kind::kFailed:
        turn.error =
            step.error.ok() ? Status(codes::kModelError, "The model gave no answer.") : step.error;
        co_return;
      case Kind::kCallTools:
        break;
    }
    std::vector<core::assistant::ToolOutcome> outcomes;
    for (const core::assistant::PlannedCall& call : step.calls) {
      if (turn.stop_requested()) {
        turn.stopped = true;
        co_return;
      }
      if (call.action == core::assistant::CallAction::kAnswered) {
        json receipt = call.status.ok()
                           ? json{{"state", "answered"}}
                           : json{{"state", "failed"}, {"error", ErrorJson(call.status)}};
        turn.emit(
            "tool",
            {{"callId", call.id}, {"name", call.name}, {"phase", "ended"}, {"receipt", receipt}});
        turn.calls().push_back(
            {{"id", call.id}, {"name", call.name}, {"input", call.input}, {"receipt", receipt}});
        continue;
      }
      core::assistant::ToolOutcome outcome;
      outcome.call_id = call.id;
      if (call.action == core::assistant::CallAction::kHold) {
        Result<std::string> held = co_await Hold(turn, call.id, *call.tool, call.input);
        if (held.ok()) {
          outcome.preview = std::move(*held);
        } else {
          outcome.status = held.status();
        }
      } else {
        Result<json> ran = co_await RunTool(turn, call.id, *call.tool, call.input);
        if (ran.ok()) {
          outcome.result = std::move(*ran);
        } else {
          outcome.status = ran.status();
        }
      }
      outcomes.push_back(std::move(outcome));
    }
    Status reported = loop.OnToolOutcomes(std::move(outcomes));
    if (!reported.ok()) {
      turn.error = reported;
      co_return;
    }
  }
}

net::awaitable<std::string> TurnDriver::CheckAnswer(Turn& turn, const model::OpenAiClient& client,
                                                    const core::model::ModelInfo& info,
                                                    const std::string& answer) {
  core::model::ChatRequest request =
      core::assistant::AnswerCheckRequest(turn.request.checklist, turn.request.message, answer);
  Result<std::string> body = core::model::BuildChatBodyText(info, request);
  if (!body.ok()) co_return "";
  model::CallOptions options;
  options.timeout = core::model::EffectiveModelCallTimeout(
      model_timeout_, std::chrono::milliseconds(core::assistant::kAnswerCheckTimeout));
  options.model_name = info.name();
  const auto asked = std::chrono::steady_clock::now();
  model::CallResult result =
      co_await client.StreamChat(std::move(*body), options, nullptr, turn.request.stop);
  turn.model_wait += std::chrono::steady_clock::now() - asked;
  CountModelCall(result, std::chrono::steady_clock::now() - asked);
  if (result.has_usage) AddUsage(turn.usage, result.usage);
  if (!result.status.ok()) {
    // The check is an aid, not a gate: without it the answer stands.
    logger_.Log(core::platform::LogLevel::kWarning,
                "the answer check failed, so the answer stands: " + result.status.ToString());
    co_return "";
  }
  co_return core::assistant::MissingFromCheck(result.text);
}

net::awaitable<void> TurnDriver::RunLocally(Turn& turn) {
  using Loop = core::assistant::LocalTurnLoop;
  using State = core::assistant::LocalTurnCall::State;
  const core::playbooks::RouteRequest& route = turn.request.route;
  // The @-menu's picks name their records by id, as in the browser's
  // planner; the route checked their shape, so a bad one is only left out.
  std::vector<core::assistant::LocalMention> mentions;
  if (!core::assistant::ReadLocalMentions({{"mentions", turn.request.mentions}}, &mentions).ok()) {
    mentions.clear();
  }
  Loop loop(
      registry_, turn.request.message, turn.request.policy,
      [&route](const core::tools::ToolDef& def) { return RouteAllows(route, def.name); },
      turn.request.today, turn.request.time_zone, std::move(mentions));
  while (true) {
    if (turn.stop_requested()) {
      turn.stopped = true;
      co_return;
    }
    Result<Loop::Step> step = loop.Next();
    if (!step.ok()) {
      turn.error = step.status();
      co_return;
    }
    if (step->final) {
      turn.final_text = step->reply;
      turn.streamed += step->reply;
      turn.emit("text", {{"text", step->reply}});
      co_return;
    }
    for (Loop::Planned& planned : step->calls) {
      core::assistant::LocalTurnCall& call = planned.call;
      if (planned.action == Loop::Action::kHold) {
        Result<std::string> preview = co_await Hold(turn, call.id, *planned.def, call.input);
        call.state = preview.ok() ? State::kHeld : State::kFailed;
        call.text = preview.ok() ? std::move(*preview) : preview.status().message();
      } else if (planned.action == Loop::Action::kRun) {
        Result<json> ran = co_await RunTool(turn, call.id, *planned.def, call.input);
        call.state = ran.ok() ? State::kSucceeded : State::kFailed;
        if (ran.ok()) {
          call.result = std::move(*ran);
        } else {
          call.text = ran.status().message();
        }
      }
      loop.Report(call);
    }
  }
}

net::awaitable<Result<json>> TurnDriver::RunTool(Turn& turn, const std::string& id,
                                                 const core::tools::ToolDef& tool,
                                                 const json& input) {
  turn.emit("tool", {{"callId", id}, {"name", tool.name}, {"phase", "started"}});
  turn.emit("tool", {{"callId", id},
                     {"name", tool.name},
                     {"phase", "status"},
                     {"status", core::refs::ToolAction(tool.name) + "\u2026"}});
  Result<json> ran = co_await RunHook(turn, tool, input);
  json receipt = ran.ok() ? json{{"state", "succeeded"}, {"summary", SummaryOf(*ran)}}
                          : json{{"state", "failed"}, {"error", ErrorJson(ran.status())}};
  if (ran.ok() && tool.is_write && ran->contains("undo") && (*ran)["undo"].is_array() &&
      !(*ran)["undo"].empty() && turn.ran_calls.size() + 1 < core::assistant::kMaxProposalCalls) {
    core::assistant::CallReceipt r;
    r.call_id = id;
    r.outcome = core::assistant::CallOutcome::kSucceeded;
    r.summary = receipt["summary"].get<std::string>();
    r.undo = (*ran)["undo"];
    turn.ran_calls.push_back({id, tool.name, input});
    turn.ran_receipts.push_back(std::move(r));
    receipt["undoable"] = true;
  }
  turn.emit("tool",
            {{"callId", id}, {"name", tool.name}, {"phase", "ended"}, {"receipt", receipt}});
  turn.calls().push_back({{"id", id}, {"name", tool.name}, {"input", input}, {"receipt", receipt}});
  co_return ran;
}

net::awaitable<Result<json>> TurnDriver::RunHook(Turn& turn, const core::tools::ToolDef& tool,
                                                 const json& input) {
  if (!tool.run) {
    co_return Status(codes::kFailedPrecondition,
                     core::refs::ToolAction(tool.name) + " is not available on this server yet.");
  }
  // Only pointers in the closure: GCC 12 may destroy a coroutine argument's
  // non-trivial temporaries twice.
  const core::tools::ToolDef* def = &tool;
  const json* in = &input;
  const TurnRequest* r = &turn.request;
  core::platform::Random* random = random_;
  events::Poke poke;
  events::Poke* poked = &poke;
  auto work = [def, in, r, random, poked](core::store::Database& db) -> Result<json> {
    return RunWriteCall(db, *def, *in, *r, random, *poked);
  };
  // A read of the Hub's own rows is short and waits on no disk, so it needs
  // no thread hop (StorePool::RunShort); a write waits for its commit to
  // reach the disk, and an outside read for the network.
  // A call that reads an app runs again once the app is read (off the store).
  const bool hops = tool.is_write || tool.outside_transaction;
  Result<json> out = co_await connectors::RunWithAppReads(
      turn.request.app_reader, [&] { return hops ? pool_.Run(work) : pool_.RunShort(work); });
  if (poke.version > 0 && on_commit_) on_commit_(poke);
  co_return out;
}

net::awaitable<Result<std::string>> TurnDriver::Hold(Turn& turn, const std::string& id,
                                                     const core::tools::ToolDef& tool,
                                                     const json& input) {
  turn.emit("tool", {{"callId", id}, {"name", tool.name}, {"phase", "started"}});
  // prepare fixes the exact records the input means, so Apply changes what
  // the preview names (spec §4).
  json prepared = input;
  std::string preview;
  if (tool.prepare || tool.preview) {
    const core::tools::ToolDef* def = &tool;
    const json* in = &input;
    const TurnRequest* r = &turn.request;
    core::platform::Random* random = random_;
    using Prepared = std::pair<json, std::string>;
    auto work = [def, in, r, random](core::store::Database& db) -> Result<Prepared> {
      core::tools::ToolContext context = ContextFor(db, *r, random);
      core::tools::ToolCall call{def->name, *in, &context};
      if (def->prepare) ENSEMBLE_RETURN_IF_ERROR(def->prepare(call));
      std::string text;
      if (def->preview) {
        Result<std::string> p = def->preview(call);
        if (p.ok()) text = std::move(*p);
      }
      return Prepared(std::move(call.input), std::move(text));
    };
    Result<Prepared> done = co_await connectors::RunWithAppReads(turn.request.app_reader,
                                                                 [&] { return pool_.Run(work); });
    if (!done.ok()) {
      json receipt = {{"state", "failed"}, {"error", ErrorJson(done.status())}};
      turn.emit("tool",
                {{"callId", id}, {"name", tool.name}, {"phase", "ended"}, {"receipt", receipt}});
      turn.calls().push_back(
          {{"id", id}, {"name", tool.name}, {"input", input}, {"receipt", receipt}});
      co_return done.status();
    }
    prepared = std::move(done->first);
    preview = std::move(done->second);
  }
  if (preview.empty()) {
    preview = core::refs::ReadablePreview(tool.name, prepared, core::refs::RefSet());
  }
  json receipt = {{"state", "proposed"}, {"summary", preview}};
  turn.emit("proposal", {{"messageId", turn.request.reply.id},
                         {"callId", id},
                         {"name", tool.name},
                         {"input", prepared},
                         {"preview", preview}});
  turn.emit("tool",
            {{"callId", id}, {"name", tool.name}, {"phase", "ended"}, {"receipt", receipt}});
  turn.calls().push_back({{"id", id},
                          {"name", tool.name},
                          {"input", prepared},
                          {"proposal", true},
                          {"preview", preview},
                          {"receipt", receipt}});
  co_return preview;
}

// {modelMs, serverMs?}: the time spent waiting for the model, and the
// server's own time for the turn (from the request's arrival, less the
// model's), which tools/bench assistant reports as the turn overhead.
json TurnDriver::TimingJson(const Turn& turn) {
  using Ms = std::chrono::duration<double, std::milli>;
  json timing = {{"modelMs", Ms(turn.model_wait).count()}};
  if (turn.request.received != std::chrono::steady_clock::time_point{}) {
    timing["serverMs"] =
        Ms(std::chrono::steady_clock::now() - turn.request.received - turn.model_wait).count();
  }
  return timing;
}

void TurnDriver::CountModelCall(const model::CallResult& result,
                                std::chrono::steady_clock::duration took) const {
  if (!metrics_) return;
  const std::string_view code = result.status.code();
  const std::string_view outcome = result.status.ok()             ? "ok"
                                   : code == codes::kModelTimeout ? "timeout"
                                   : code == codes::kCancelled    ? "cancelled"
                                   : code == codes::kModelError   ? "model_error"
                                                                  : "error";
  metrics_
      ->GetCounter("ensemble_model_calls_total", "Calls to model providers, by how they ended",
                   {{"result", std::string(outcome)}})
      .Add();
  metrics_
      ->GetHistogram("ensemble_model_call_duration_seconds",
                     "Time from a model call sent to its stream's end")
      .Observe(std::chrono::duration<double>(took).count());
}

net::awaitable<void> TurnDriver::Finish(Turn& turn) {
  core::assistant::StoredMessage& reply = turn.request.reply;
  if (metrics_) {
    const char* outcome = !turn.error.ok() ? "error" : turn.stopped ? "stopped" : "ok";
    metrics_
        ->GetCounter("ensemble_assistant_turns_total", "Assistant turns ended, by outcome",
                     {{"outcome", outcome}})
        .Add();
  }
  Status shown;
  if (!turn.error.ok()) {
    shown = ForThePerson(turn.error, logger_);
    reply.status = MessageStatus::kError;
    reply.error_code = std::string(shown.code());
    reply.text = turn.streamed;
    // The timeout's line stays after what the model had streamed.
    if (shown.code() == codes::kModelTimeout) {
      if (!reply.text.empty()) reply.text += "\n\n";
      reply.text += shown.message();
    }
  } else if (turn.stopped) {
    reply.status = MessageStatus::kStopped;
    reply.text = turn.streamed;
  } else {
    reply.status = MessageStatus::kOk;
    reply.text = turn.final_text;
  }
  reply.usage = {turn.usage.prompt_tokens, turn.usage.completion_tokens, turn.usage.cached_tokens};
  if (core::text::CountCodePoints(reply.text) > core::assistant::kMaxMessageChars) {
    reply.text = core::text::TruncateChars(reply.text, core::assistant::kMaxMessageChars);
  }
  // The held calls become the reply's proposal: what Apply runs, bound to
  // them by hash (core/assistant/proposal_store.h); writes that ran at once
  // join it as succeeded, which is what their Undo reverses.
  core::assistant::Proposal proposal;
  proposal.calls = HeldCalls(reply.tool_calls);
  if (proposal.calls.size() + turn.ran_calls.size() <= core::assistant::kMaxProposalCalls) {
    proposal.calls.insert(proposal.calls.end(), turn.ran_calls.begin(), turn.ran_calls.end());
    proposal.receipts = turn.ran_receipts;
  }
  proposal.id = "p-" + reply.id;
  proposal.conversation_id = reply.conversation_id;
  proposal.message_id = reply.id;
  proposal.account_id = turn.request.account_id;
  proposal.space_id = turn.request.space_id;
  proposal.waits_on = turn.request.policy == core::assistant::WritePolicy::kNeedsMe
                          ? core::assistant::WaitsOn::kNeedsMe
                          : core::assistant::WaitsOn::kChat;
  const int64_t now = turn.request.now_ms;
  // Chat text alone is not worth waiting for the disk (the turn's writes
  // committed durably as they ran); a draft waiting for the person is.
  const core::store::Durability durability =
      proposal.calls.empty() ? core::store::Durability::kRelaxed : core::store::Durability::kFull;
  auto save = [&reply, &proposal, now, durability](core::store::Database& db) -> Status {
    return core::store::RunInTransaction(
        db,
        [&](core::store::Database& db) -> Status {
          ENSEMBLE_RETURN_IF_ERROR(core::assistant::UpdateMessage(db, reply));
          ENSEMBLE_RETURN_IF_ERROR(core::assistant::ForgetRunningTurn(db, reply.id));
          if (proposal.calls.empty()) return Status::Ok();
          return core::assistant::SaveProposal(db, proposal, now).status();
        },
        durability);
  };
  // Without a wait for the disk the save is short: no thread hop for it.
  Status saved;
  if (durability == core::store::Durability::kRelaxed) {
    saved = co_await pool_.RunShort(save);
  } else {
    saved = co_await pool_.Run(save);
  }
  if (!saved.ok()) {
    logger_.Log(core::platform::LogLevel::kError, "assistant turn save: " + saved.ToString());
  }
  if (!turn.error.ok()) {
    turn.emit("error", {{"messageId", reply.id},
                        {"code", std::string(shown.code())},
                        {"message", shown.message()},
                        {"usage", UsageJson(turn.usage)}});
    co_return;
  }
  turn.emit("done", {{"messageId", reply.id},
                     {"status", turn.stopped ? "stopped" : "ok"},
                     {"text", reply.text},
                     {"usage", UsageJson(turn.usage)},
                     {"mentions", reply.mentions},
                     {"timing", TimingJson(turn)}});
}

}  // namespace ensemble::server::assistant
