// libFuzzer target for what a model provider streams back (core/model): the
// SSE framing and the chat-completions chunks. The first byte chooses how the
// rest is cut into pieces; whatever the bytes, nothing may crash or trip a
// sanitizer, the same bytes cut differently must decode to the same events,
// and every limit must hold.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/stream_decoder.h"

namespace {

using ensemble::core::Status;
using ensemble::core::model::StreamDecoder;
using ensemble::core::model::StreamEvent;

struct Outcome {
  Status status;
  std::string text;
  std::vector<std::string> calls;
  std::string finish;
};

Outcome Decode(std::string_view input, size_t piece) {
  StreamDecoder decoder;
  std::vector<StreamEvent> events;
  Outcome out;
  for (size_t at = 0; at < input.size() && out.status.ok(); at += piece) {
    out.status = decoder.Feed(input.substr(at, piece), events);
  }
  if (out.status.ok()) out.status = decoder.Finish(events);
  for (const auto& e : events) {
    if (e.kind == StreamEvent::Kind::kText) out.text += e.text;
    if (e.kind == StreamEvent::Kind::kToolCall) {
      if (e.call.status.ok() != e.call.input.is_object()) std::abort();
      out.calls.push_back(e.call.id + "\n" + e.call.name + "\n" + e.call.arguments + "\n" +
                          e.call.status.code());
    }
    if (e.kind == StreamEvent::Kind::kFinish) out.finish = e.finish_reason;
  }
  if (out.text != decoder.text()) std::abort();
  if (decoder.text().size() > ensemble::core::model::kMaxStreamTextBytes) std::abort();
  if (out.calls.size() > ensemble::core::model::kMaxStreamToolCalls) std::abort();
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const size_t piece = 1 + data[0] % 17;
  std::string_view input(reinterpret_cast<const char*>(data + 1), size - 1);
  Outcome whole = Decode(input, input.size() + 1);
  Outcome cut = Decode(input, piece);
  // Where the bytes were split never changes the outcome.
  if (whole.status.code() != cut.status.code() || whole.text != cut.text ||
      whole.calls != cut.calls || whole.finish != cut.finish) {
    std::abort();
  }
  StreamDecoder completion;
  std::vector<StreamEvent> events;
  (void)completion.DecodeCompletion(input, events);
  return 0;
}
