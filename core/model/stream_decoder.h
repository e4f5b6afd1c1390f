// StreamDecoder: turns the bytes of a streamed OpenAI-compatible
// chat-completions response into events. It parses the SSE framing
// (sse_parser.h) and assembles the chunks' deltas: text deltas go out as they
// arrive; tool calls are assembled by index (id, name, argument fragments)
// and go out whole when the choice finishes (or the stream ends); then the
// finish reason and the usage (prompt, completion and cached tokens).
//
// A provider's error object ({"error": {...}}, or an "error" event) ends the
// stream with MODEL_ERROR. A tool call with no name, or whose arguments are
// not a JSON object, is still delivered, marked MALFORMED_TOOL_CALL, so the
// loop can tell the model rather than drop it. A stream that ends with
// neither a finish reason nor [DONE] is MODEL_ERROR (cut off).
//
// Bounded: the SSE limits, at most kMaxStreamToolCalls calls, and
// kMaxToolArgumentBytes of arguments and kMaxStreamTextBytes of text in all.
//
// Thread-safety: none; one decoder per response.

#ifndef ENSEMBLE_CORE_MODEL_STREAM_DECODER_H_
#define ENSEMBLE_CORE_MODEL_STREAM_DECODER_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/model/sse_parser.h"

namespace ensemble::core::model {

inline constexpr std::size_t kMaxStreamToolCalls = 128;
inline constexpr std::size_t kMaxToolArgumentBytes = 1024 * 1024;
inline constexpr std::size_t kMaxStreamTextBytes = 4 * 1024 * 1024;

struct Usage {
  int64_t prompt_tokens = 0;
  int64_t completion_tokens = 0;
  int64_t cached_tokens = 0;  // prompt_tokens_details.cached_tokens.
};

struct AssembledToolCall {
  int index = 0;
  std::string id;  // The provider's, or "call_<index>" when it gave none.
  std::string name;
  std::string arguments;  // The argument text as the model wrote it.
  nlohmann::json input;   // The parsed arguments (an object) when status is OK.
  Status status;          // MALFORMED_TOOL_CALL when unusable.
};

struct StreamEvent {
  enum class Kind { kText, kToolCall, kFinish, kUsage };
  Kind kind = Kind::kText;
  std::string text;           // kText: the delta.
  AssembledToolCall call;     // kToolCall.
  std::string finish_reason;  // kFinish: "stop", "tool_calls", "length", ...
  Usage usage;                // kUsage.
};

class StreamDecoder {
 public:
  // Decodes `bytes`, appending the events they complete to `out`. After an
  // error every later call returns the same error.
  Status Feed(std::string_view bytes, std::vector<StreamEvent>& out);
  // The body ended: delivers what is still held (tool calls of a choice that
  // never said it finished) and checks that the stream was complete.
  Status Finish(std::vector<StreamEvent>& out);
  // Decodes a whole non-streamed response (a "chat.completion" object), for
  // a provider that ignored "stream": the same events in the same order.
  Status DecodeCompletion(std::string_view body, std::vector<StreamEvent>& out);

  // What arrived so far (text stays when a call is cut off).
  const std::string& text() const { return text_; }
  const Usage& usage() const { return usage_; }
  bool has_usage() const { return has_usage_; }
  const std::string& finish_reason() const { return finish_reason_; }
  bool done() const { return done_; }  // [DONE] seen.

 private:
  struct PartialCall {
    std::string id;
    std::string name;
    std::string arguments;
  };

  Status OnEvent(const SseEvent& event, std::vector<StreamEvent>& out);
  Status OnChunk(const nlohmann::json& chunk, bool streamed, std::vector<StreamEvent>& out);
  Status AddText(std::string_view text, std::vector<StreamEvent>& out);
  Status AddToolCallDelta(const nlohmann::json& delta, size_t position);
  void FlushToolCalls(std::vector<StreamEvent>& out);
  Status Fail(Status status);

  SseParser sse_;
  std::map<int, PartialCall> calls_;  // By the provider's index.
  size_t argument_bytes_ = 0;
  std::string text_;
  std::string finish_reason_;
  Usage usage_;
  bool has_usage_ = false;
  bool done_ = false;
  Status failed_;
};

// The message of a provider's error object ({"error": {"message", "type",
// "code"}} or {"error": "text"} or {"message": ...}); empty when `body` has none.
std::string ProviderErrorMessage(std::string_view body);

}  // namespace ensemble::core::model

#endif  // ENSEMBLE_CORE_MODEL_STREAM_DECODER_H_
