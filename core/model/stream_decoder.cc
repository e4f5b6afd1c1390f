#include "core/model/stream_decoder.h"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "core/text/bounded_json.h"
#include "core/text/trim.h"
#include "core/text/utf8.h"

namespace ensemble::core::model {
namespace {

using nlohmann::json;

// A provider's error text is shown to people: bounded.
constexpr size_t kMaxProviderMessageChars = 500;
// Indexes beyond this are not a real provider's.
constexpr int64_t kMaxToolCallIndex = 1 << 20;

const json* Field(const json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return nullptr;
  return &*it;
}

const std::string* StringField(const json& object, const char* key) {
  const json* f = Field(object, key);
  return f && f->is_string() ? f->get_ptr<const std::string*>() : nullptr;
}

int64_t Count(const json& object, const char* key) {
  const json* f = Field(object, key);
  if (!f) return 0;
  if (f->is_number_unsigned()) {
    auto v = f->get<uint64_t>();
    return v > static_cast<uint64_t>(INT64_MAX) ? INT64_MAX : static_cast<int64_t>(v);
  }
  if (f->is_number_integer()) return std::max<int64_t>(0, f->get<int64_t>());
  return 0;
}

std::string ErrorMessageOf(const json& error) {
  if (error.is_string()) return error.get<std::string>();
  if (const std::string* m = StringField(error, "message")) return *m;
  if (const std::string* t = StringField(error, "type")) return *t;
  if (const json* code = Field(error, "code")) return text::DumpJson(*code);
  return "";
}

// The message inside a parsed error body, or "".
std::string ErrorOf(const json& body) {
  if (const json* error = Field(body, "error")) {
    std::string m = ErrorMessageOf(*error);
    return m.empty() ? "the provider reported an error" : m;
  }
  return "";
}

// `s` parsed, or null when it is not JSON or nests too deeply.
json BoundedOrNull(std::string_view s) {
  Result<json> parsed = text::ParseBoundedJson(s);
  return parsed.ok() ? std::move(*parsed) : json();
}

Status ProviderError(std::string message) {
  return Status(codes::kModelError,
                "the model provider reported an error: " +
                    text::TruncateChars(text::RepairUtf8(message), kMaxProviderMessageChars));
}

}  // namespace

std::string ProviderErrorMessage(std::string_view body) {
  json parsed = BoundedOrNull(body);
  if (!parsed.is_object()) return "";
  std::string m = ErrorOf(parsed);
  if (m.empty()) {
    if (const std::string* top = StringField(parsed, "message")) m = *top;
  }
  return text::TruncateChars(text::RepairUtf8(m), kMaxProviderMessageChars);
}

Status StreamDecoder::Fail(Status status) {
  failed_ = status;
  return status;
}

Status StreamDecoder::Feed(std::string_view bytes, std::vector<StreamEvent>& out) {
  if (!failed_.ok()) return failed_;
  Status st = sse_.Feed(bytes, [&](const SseEvent& e) { return OnEvent(e, out); });
  if (!st.ok() && failed_.ok()) failed_ = st;
  return st;
}

Status StreamDecoder::Finish(std::vector<StreamEvent>& out) {
  if (!failed_.ok()) return failed_;
  Status st = sse_.Finish([&](const SseEvent& e) { return OnEvent(e, out); });
  if (!st.ok()) return Fail(st);
  FlushToolCalls(out);
  if (!done_ && finish_reason_.empty()) {
    return Fail(Status(codes::kModelError, "the model's stream ended before its answer did"));
  }
  return Status::Ok();
}

Status StreamDecoder::DecodeCompletion(std::string_view body, std::vector<StreamEvent>& out) {
  if (!failed_.ok()) return failed_;
  json parsed = BoundedOrNull(body);
  if (!parsed.is_object()) {
    return Fail(Status(codes::kMalformedJson, "the model's answer is not a JSON object"));
  }
  if (std::string m = ErrorOf(parsed); !m.empty()) return Fail(ProviderError(m));
  ENSEMBLE_RETURN_IF_ERROR(OnChunk(parsed, /*streamed=*/false, out));
  FlushToolCalls(out);
  done_ = true;
  return Status::Ok();
}

Status StreamDecoder::OnEvent(const SseEvent& event, std::vector<StreamEvent>& out) {
  if (done_) return Status::Ok();  // Nothing counts after [DONE].
  if (event.event == "error") {
    std::string m = ProviderErrorMessage(event.data);
    return Fail(ProviderError(m.empty() ? event.data : m));
  }
  if (text::Trim(event.data) == "[DONE]") {
    FlushToolCalls(out);
    done_ = true;
    return Status::Ok();
  }
  json chunk = BoundedOrNull(event.data);
  if (!chunk.is_object()) {
    return Fail(Status(codes::kMalformedJson,
                       "the model's stream sent an event that is not a JSON object"));
  }
  if (std::string m = ErrorOf(chunk); !m.empty()) return Fail(ProviderError(m));
  return OnChunk(chunk, /*streamed=*/true, out);
}

Status StreamDecoder::OnChunk(const json& chunk, bool streamed, std::vector<StreamEvent>& out) {
  if (const json* choices = Field(chunk, "choices"); choices && choices->is_array()) {
    for (const json& choice : *choices) {
      // One answer is asked for (n = 1): other choices are not ours.
      if (Count(choice, "index") != 0) continue;
      const json* body = Field(choice, streamed ? "delta" : "message");
      if (body) {
        if (const std::string* content = StringField(*body, "content")) {
          ENSEMBLE_RETURN_IF_ERROR(AddText(*content, out));
        }
        if (const json* calls = Field(*body, "tool_calls"); calls && calls->is_array()) {
          for (size_t i = 0; i < calls->size(); ++i) {
            ENSEMBLE_RETURN_IF_ERROR(AddToolCallDelta((*calls)[i], streamed ? SIZE_MAX : i));
          }
        }
      }
      const std::string* reason = StringField(choice, "finish_reason");
      if (reason && !reason->empty()) {
        FlushToolCalls(out);
        if (finish_reason_.empty()) {
          finish_reason_ = *reason;
          StreamEvent e;
          e.kind = StreamEvent::Kind::kFinish;
          e.finish_reason = *reason;
          out.push_back(std::move(e));
        }
      }
    }
  }
  if (const json* usage = Field(chunk, "usage"); usage && usage->is_object()) {
    usage_.prompt_tokens = Count(*usage, "prompt_tokens");
    usage_.completion_tokens = Count(*usage, "completion_tokens");
    const json* details = Field(*usage, "prompt_tokens_details");
    usage_.cached_tokens = details ? Count(*details, "cached_tokens") : 0;
    has_usage_ = true;
    StreamEvent e;
    e.kind = StreamEvent::Kind::kUsage;
    e.usage = usage_;
    out.push_back(std::move(e));
  }
  return Status::Ok();
}

Status StreamDecoder::AddText(std::string_view delta, std::vector<StreamEvent>& out) {
  if (delta.empty()) return Status::Ok();
  if (text_.size() + delta.size() > kMaxStreamTextBytes) {
    return Fail(Status(codes::kBodyTooLarge, "the model's answer is over " +
                                                 std::to_string(kMaxStreamTextBytes) + " bytes"));
  }
  text_.append(delta);
  StreamEvent e;
  e.kind = StreamEvent::Kind::kText;
  e.text = std::string(delta);
  out.push_back(std::move(e));
  return Status::Ok();
}

// `position` is the call's place in a whole message (non-streamed), or
// SIZE_MAX for a streamed fragment, which says which call it continues by
// its index (or, from providers that send none, by its id).
Status StreamDecoder::AddToolCallDelta(const json& delta, size_t position) {
  if (!delta.is_object()) {
    return Fail(Status(codes::kMalformedJson, "the model sent a tool call that is not an object"));
  }
  const std::string* id = StringField(delta, "id");
  if (id && id->empty()) id = nullptr;
  int index = 0;
  if (position != SIZE_MAX) {
    index = static_cast<int>(std::min<size_t>(position, kMaxToolCallIndex));
  } else if (const json* i = Field(delta, "index"); i && i->is_number_integer()) {
    int64_t v = i->get<int64_t>();
    if (v < 0 || v > kMaxToolCallIndex) {
      return Fail(Status(codes::kMalformedJson, "the model sent a tool call index out of range"));
    }
    index = static_cast<int>(v);
  } else if (id) {
    index = calls_.empty() ? 0 : calls_.rbegin()->first + 1;
    for (const auto& [k, call] : calls_) {
      if (call.id == *id) index = k;
    }
  } else {
    index = calls_.empty() ? 0 : calls_.rbegin()->first;
  }
  if (!calls_.count(index) && calls_.size() >= kMaxStreamToolCalls) {
    return Fail(Status(codes::kBodyTooLarge, "the model made more than " +
                                                 std::to_string(kMaxStreamToolCalls) +
                                                 " tool calls in one answer"));
  }
  PartialCall& call = calls_[index];
  if (id && call.id.empty()) call.id = *id;
  if (const json* function = Field(delta, "function")) {
    if (const std::string* name = StringField(*function, "name"); name && call.name.empty()) {
      call.name = *name;
    }
    if (const json* args = Field(*function, "arguments")) {
      // Some servers send the arguments as an object rather than its text.
      std::string piece = args->is_string() ? args->get<std::string>() : text::DumpJson(*args);
      argument_bytes_ += piece.size();
      if (argument_bytes_ > kMaxToolArgumentBytes) {
        return Fail(Status(codes::kBodyTooLarge, "the model's tool call arguments are over " +
                                                     std::to_string(kMaxToolArgumentBytes) +
                                                     " bytes"));
      }
      call.arguments.append(piece);
    }
  }
  return Status::Ok();
}

void StreamDecoder::FlushToolCalls(std::vector<StreamEvent>& out) {
  for (auto& [index, partial] : calls_) {
    StreamEvent e;
    e.kind = StreamEvent::Kind::kToolCall;
    AssembledToolCall& call = e.call;
    call.index = index;
    call.id = partial.id.empty() ? "call_" + std::to_string(index) : std::move(partial.id);
    call.name = std::move(partial.name);
    call.arguments = std::move(partial.arguments);
    std::string_view args = text::Trim(call.arguments);
    if (call.name.empty()) {
      call.status = Status(codes::kMalformedToolCall, "the model made a tool call without a name");
    } else if (args.empty()) {
      call.input = json::object();  // A call of a tool without inputs.
    } else {
      Result<json> parsed = text::ParseBoundedJson(args);
      if (parsed.ok() && parsed->is_object()) {
        call.input = std::move(*parsed);
      } else {
        call.status = Status(codes::kMalformedToolCall,
                             "the arguments of the call of " +
                                 text::TruncateChars(text::RepairUtf8(call.name), 64) +
                                 " are not a JSON object" +
                                 (parsed.ok() ? "" : ": their text " + parsed.status().message()));
      }
    }
    out.push_back(std::move(e));
  }
  calls_.clear();
}

}  // namespace ensemble::core::model
