#include "core/model/chat_request.h"

#include <algorithm>
#include <utility>

namespace ensemble::core::model {
namespace {

using nlohmann::json;

const char* RoleName(Role role) {
  switch (role) {
    case Role::kSystem:
      return "system";
    case Role::kUser:
      return "user";
    case Role::kAssistant:
      return "assistant";
    case Role::kTool:
      return "tool";
  }
  return "user";
}

std::string Join(const std::vector<std::string>& values) {
  std::string out;
  for (const auto& v : values) out += (out.empty() ? "" : ", ") + v;
  return out;
}

json MessageJson(const ChatMessage& m) {
  json out = {{"role", RoleName(m.role)}};
  if (m.role == Role::kAssistant && !m.tool_calls.empty()) {
    // An assistant turn that only called tools has null content.
    out["content"] = m.content.empty() ? json(nullptr) : json(m.content);
    json calls = json::array();
    for (const auto& c : m.tool_calls) {
      calls.push_back({{"id", c.id},
                       {"type", "function"},
                       {"function", {{"name", c.name}, {"arguments", c.arguments}}}});
    }
    out["tool_calls"] = std::move(calls);
  } else {
    out["content"] = m.content;
  }
  if (m.role == Role::kTool) out["tool_call_id"] = m.tool_call_id;
  return out;
}

}  // namespace

ChatMessage ChatMessage::System(std::string text) {
  return {Role::kSystem, std::move(text), {}, {}};
}
ChatMessage ChatMessage::User(std::string text) { return {Role::kUser, std::move(text), {}, {}}; }
ChatMessage ChatMessage::Assistant(std::string text, std::vector<ToolCallRecord> calls) {
  return {Role::kAssistant, std::move(text), std::move(calls), {}};
}
ChatMessage ChatMessage::ToolResult(std::string call_id, std::string result) {
  return {Role::kTool, std::move(result), {}, std::move(call_id)};
}

ToolSpec ToolSpec::From(const tools::ToolDef& def) {
  return {def.name, def.description, def.input_schema};
}

Status CheckChatRequest(const ModelInfo& model, const ChatRequest& request) {
  if (model.id.empty()) return Status(codes::kInvalidArgument, "no model is named");
  if (request.effort) {
    if (model.efforts.empty()) {
      return Status(codes::kUnsupportedOption, model.name() + " takes no reasoning effort option");
    }
    if (std::find(model.efforts.begin(), model.efforts.end(), *request.effort) ==
        model.efforts.end()) {
      return Status(codes::kUnsupportedOption, model.name() + " does not offer effort '" +
                                                   *request.effort + "' (it offers " +
                                                   Join(model.efforts) + ")");
    }
  }
  if (!request.tools.empty() && !model.supports_tools) {
    return Status(codes::kUnsupportedOption, model.name() + " cannot call tools");
  }
  if (request.messages.empty()) return Status(codes::kInvalidArgument, "a request needs a message");
  if (request.messages.size() > kMaxRequestMessages) {
    return Status(codes::kInvalidArgument,
                  "a request has at most " + std::to_string(kMaxRequestMessages) + " messages");
  }
  if (request.tools.size() > kMaxRequestTools) {
    return Status(codes::kInvalidArgument,
                  "a request offers at most " + std::to_string(kMaxRequestTools) + " tools");
  }
  for (const auto& tool : request.tools) {
    if (tool.name.empty() || !tool.parameters.is_object()) {
      return Status(codes::kInvalidArgument,
                    "tool '" + tool.name + "' needs a name and an object schema");
    }
  }
  for (const auto& m : request.messages) {
    if (m.role == Role::kTool && m.tool_call_id.empty()) {
      return Status(codes::kInvalidArgument, "a tool result must name the call it answers");
    }
    if (m.role != Role::kAssistant && !m.tool_calls.empty()) {
      return Status(codes::kInvalidArgument, "only an assistant message carries tool calls");
    }
    for (const auto& c : m.tool_calls) {
      if (c.id.empty() || c.name.empty()) {
        return Status(codes::kInvalidArgument, "a replayed tool call needs its id and name");
      }
    }
  }
  return Status::Ok();
}

Result<json> BuildChatBody(const ModelInfo& model, const ChatRequest& request) {
  ENSEMBLE_RETURN_IF_ERROR(CheckChatRequest(model, request));
  json body = {{"model", model.id}};
  json messages = json::array();
  for (const auto& m : request.messages) messages.push_back(MessageJson(m));
  body["messages"] = std::move(messages);
  if (!request.tools.empty()) {
    json tools = json::array();
    for (const auto& t : request.tools) {
      tools.push_back(
          {{"type", "function"},
           {"function",
            {{"name", t.name}, {"description", t.description}, {"parameters", t.parameters}}}});
    }
    body["tools"] = std::move(tools);
    body["tool_choice"] = request.tool_choice == ToolChoice::kNone ? "none" : "auto";
  }
  if (request.effort) body["reasoning_effort"] = *request.effort;
  body["stream"] = request.stream;
  if (request.stream) body["stream_options"] = {{"include_usage", true}};
  return body;
}

Result<std::string> BuildChatBodyText(const ModelInfo& model, const ChatRequest& request) {
  ENSEMBLE_ASSIGN_OR_RETURN(json body, BuildChatBody(model, request));
  return body.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace ensemble::core::model
