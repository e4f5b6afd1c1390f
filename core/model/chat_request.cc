#include "core/model/chat_request.h"

#include <algorithm>
#include <utility>

#include "core/text/json_string.h"

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

// One message in nlohmann's key order (content, role, tool_call_id,
// tool_calls).
void AppendMessage(std::string& out, const ChatMessage& m) {
  out += "{\"content\":";
  if (m.role == Role::kAssistant && !m.tool_calls.empty() && m.content.empty()) {
    out += "null";  // An assistant turn that only called tools.
  } else {
    text::AppendJsonString(out, m.content);
  }
  out += ",\"role\":\"";
  out += RoleName(m.role);
  out += '"';
  if (m.role == Role::kTool) {
    out += ",\"tool_call_id\":";
    text::AppendJsonString(out, m.tool_call_id);
  }
  if (m.role == Role::kAssistant && !m.tool_calls.empty()) {
    out += ",\"tool_calls\":[";
    for (size_t i = 0; i < m.tool_calls.size(); ++i) {
      const ToolCallRecord& c = m.tool_calls[i];
      if (i > 0) out += ',';
      out += "{\"function\":{\"arguments\":";
      text::AppendJsonString(out, c.arguments);
      out += ",\"name\":";
      text::AppendJsonString(out, c.name);
      out += "},\"id\":";
      text::AppendJsonString(out, c.id);
      out += ",\"type\":\"function\"}";
    }
    out += ']';
  }
  out += '}';
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

Status CheckEffort(const ModelInfo& model, std::string_view effort) {
  if (model.efforts.empty()) {
    return Status(codes::kUnsupportedOption, model.name() + " takes no reasoning effort option");
  }
  if (std::find(model.efforts.begin(), model.efforts.end(), effort) == model.efforts.end()) {
    return Status(codes::kUnsupportedOption, model.name() + " does not offer effort '" +
                                                 std::string(effort) + "' (it offers " +
                                                 Join(model.efforts) + ")");
  }
  return Status::Ok();
}

Status CheckChatRequest(const ModelInfo& model, const ChatRequest& request) {
  if (model.id.empty()) return Status(codes::kInvalidArgument, "no model is named");
  if (request.effort) ENSEMBLE_RETURN_IF_ERROR(CheckEffort(model, *request.effort));
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
    if (tool.name.empty() || !tool.parameters_json.starts_with('{')) {
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

Result<std::string> BuildChatBodyText(const ModelInfo& model, const ChatRequest& request) {
  ENSEMBLE_RETURN_IF_ERROR(CheckChatRequest(model, request));
  // Written directly, in nlohmann's key order, so a turn's schemas are copied
  // as text instead of being rebuilt as trees and serialized every step.
  std::string out = "{\"messages\":[";
  for (size_t i = 0; i < request.messages.size(); ++i) {
    if (i > 0) out += ',';
    AppendMessage(out, request.messages[i]);
  }
  out += "],\"model\":";
  text::AppendJsonString(out, model.id);
  if (request.effort) {
    out += ",\"reasoning_effort\":";
    text::AppendJsonString(out, *request.effort);
  }
  out += request.stream ? ",\"stream\":true,\"stream_options\":{\"include_usage\":true}"
                        : ",\"stream\":false";
  if (!request.tools.empty()) {
    out += request.tool_choice == ToolChoice::kNone ? ",\"tool_choice\":\"none\",\"tools\":["
                                                    : ",\"tool_choice\":\"auto\",\"tools\":[";
    for (size_t i = 0; i < request.tools.size(); ++i) {
      const ToolSpec& t = request.tools[i];
      if (i > 0) out += ',';
      out += "{\"function\":{\"description\":";
      text::AppendJsonString(out, t.description);
      out += ",\"name\":";
      text::AppendJsonString(out, t.name);
      out += ",\"parameters\":";
      out += t.parameters_json;
      out += "},\"type\":\"function\"}";
    }
    out += ']';
  }
  out += '}';
  return out;
}

Result<json> BuildChatBody(const ModelInfo& model, const ChatRequest& request) {
  ENSEMBLE_ASSIGN_OR_RETURN(std::string text, BuildChatBodyText(model, request));
  json body = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (body.is_discarded()) {
    return Status(codes::kInvalidArgument, "a tool's parameters are not JSON");
  }
  return body;
}

}  // namespace ensemble::core::model
