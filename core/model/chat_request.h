// The OpenAI-compatible chat-completions request (POST <base>/chat/completions),
// built from typed inputs so every provider that speaks the format (OpenAI,
// Azure OpenAI, Ollama, llama.cpp's server, vLLM) gets the same body: model,
// messages (system, user, assistant with tool calls, tool results by
// tool_call_id), tools as {"type":"function","function":{...}}, tool_choice
// ("none" turns tools off for a turn's last step), and streaming with usage.
//
// Provider and model are explicit (spec 000 §5): a ModelInfo describes what
// the model offers, and CheckChatRequest refuses an option it does not offer
// (UNSUPPORTED_OPTION) before anything is spent.
//
// Thread-safety: plain values and pure functions.

#ifndef ENSEMBLE_CORE_MODEL_CHAT_REQUEST_H_
#define ENSEMBLE_CORE_MODEL_CHAT_REQUEST_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"

namespace ensemble::core::model {

// The provider's limit on tools per request (OpenAI's), and ours on messages,
// so a runaway history is refused here rather than by the provider.
inline constexpr std::size_t kMaxRequestTools = 128;
inline constexpr std::size_t kMaxRequestMessages = 1000;

// What one model offers, from configuration or the provider's catalog.
struct ModelInfo {
  std::string id;            // Sent as "model" (e.g. "gpt-4.1-mini", "llama3.1:8b").
  std::string display_name;  // What people see ("GPT-6.1 Sol"); empty: the id.
  bool supports_tools = true;
  // Values accepted as reasoning effort ("low", "medium", "high"); empty: the
  // model takes no effort option at all.
  std::vector<std::string> efforts;

  const std::string& name() const { return display_name.empty() ? id : display_name; }
};

enum class Role { kSystem, kUser, kAssistant, kTool };

// A tool call the assistant made, replayed in history.
struct ToolCallRecord {
  std::string id;
  std::string name;
  std::string arguments;  // JSON text, as the model wrote it.
};

struct ChatMessage {
  Role role = Role::kUser;
  std::string content;
  std::vector<ToolCallRecord> tool_calls;  // kAssistant only.
  std::string tool_call_id;                // kTool only: the call it answers.

  static ChatMessage System(std::string text);
  static ChatMessage User(std::string text);
  static ChatMessage Assistant(std::string text, std::vector<ToolCallRecord> calls = {});
  static ChatMessage ToolResult(std::string call_id, std::string result);
};

struct ToolSpec {
  std::string name;
  std::string description;
  // The JSON Schema, {"type":"object",...}, as compact JSON text: a turn
  // sends the same schemas every step, so they are serialized once (the
  // registry's SchemaText) and copied as text.
  std::string parameters_json;
};

// kNone keeps the tools in the request (so the history's calls stay
// meaningful) but forbids new calls: a turn's last, tools-off step.
enum class ToolChoice { kAuto, kNone };

struct ChatRequest {
  std::vector<ChatMessage> messages;
  std::vector<ToolSpec> tools;
  ToolChoice tool_choice = ToolChoice::kAuto;
  std::optional<std::string> effort;  // Sent as reasoning_effort.
  bool stream = true;                 // With stream_options.include_usage.
};

// OK when `model` takes reasoning effort `effort`; UNSUPPORTED_OPTION naming
// the model and what it offers otherwise.
Status CheckEffort(const ModelInfo& model, std::string_view effort);

// OK when `model` offers what `request` asks for. UNSUPPORTED_OPTION for an
// effort the model does not list, or tools for a model without tools;
// INVALID_ARGUMENT for a malformed request (no messages, a tool message
// without its call id, too many tools or messages).
Status CheckChatRequest(const ModelInfo& model, const ChatRequest& request);

// The body to send, after CheckChatRequest, as compact JSON with its keys in
// sorted order; invalid UTF-8 in any string becomes U+FFFD rather than
// failing the call.
Result<std::string> BuildChatBodyText(const ModelInfo& model, const ChatRequest& request);
// The same body parsed (for tests and tools that inspect it).
Result<nlohmann::json> BuildChatBody(const ModelInfo& model, const ChatRequest& request);

}  // namespace ensemble::core::model

#endif  // ENSEMBLE_CORE_MODEL_CHAT_REQUEST_H_
