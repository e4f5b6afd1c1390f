// Decoding a streamed chat-completions response: whatever the pieces the
// bytes arrive in, the same events; SSE framing (CRLF, comments, multi-line
// data, [DONE]); tool calls assembled by index; malformed calls reported;
// provider errors; usage; limits.

#include "core/model/stream_decoder.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ensemble::core::model {
namespace {

using ::testing::HasSubstr;
using Kind = StreamEvent::Kind;

// A stream of text, two tool calls split across chunks, a heartbeat comment,
// the finish and the usage chunk, with CRLF line ends in part.
const std::string kStream =
    ": keep-alive\n\n"
    "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Hel\"}}]}\n\n"
    "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"lo \\u00e9\"}}]}\r\n\r\n"
    "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_a\","
    "\"type\":\"function\",\"function\":{\"name\":\"hub_list_tasks\",\"arguments\":\"\"}}]}}]}\n\n"
    "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":1,\"id\":\"call_b\","
    "\"function\":{\"name\":\"hub_create_tasks\",\"arguments\":\"{\\\"tasks\\\":\"}}]}}]}\r\n\r\n"
    "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,"
    "\"function\":{\"arguments\":\"{\\\"limit\\\": 5}\"}}]}}]}\n\n"
    "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":1,"
    "\"function\":{\"arguments\":\"[{\\\"title\\\":\\\"A\\\"}]}\"}}]}}]}\n\n"
    "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n"
    "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":120,\"completion_tokens\":30,"
    "\"prompt_tokens_details\":{\"cached_tokens\":64}}}\n\n"
    "data: [DONE]\n\n";

// The events as one readable line each, so runs can be compared.
std::vector<std::string> Describe(const std::vector<StreamEvent>& events) {
  std::vector<std::string> out;
  std::string text;
  for (const auto& e : events) {
    if (e.kind == Kind::kText) {
      text += e.text;  // Deltas may be cut differently; their sum may not.
      continue;
    }
    if (!text.empty()) out.push_back("text " + text), text.clear();
    switch (e.kind) {
      case Kind::kToolCall:
        out.push_back("call " + std::to_string(e.call.index) + " " + e.call.id + " " + e.call.name +
                      " " + e.call.arguments + " " +
                      (e.call.status.ok() ? e.call.input.dump() : e.call.status.code()));
        break;
      case Kind::kFinish:
        out.push_back("finish " + e.finish_reason);
        break;
      case Kind::kUsage:
        out.push_back("usage " + std::to_string(e.usage.prompt_tokens) + " " +
                      std::to_string(e.usage.completion_tokens) + " " +
                      std::to_string(e.usage.cached_tokens));
        break;
      default:
        break;
    }
  }
  if (!text.empty()) out.push_back("text " + text);
  return out;
}

struct Decoded {
  Status status;
  std::vector<std::string> events;
  std::string text;
};

Decoded Decode(const std::vector<std::string_view>& pieces) {
  StreamDecoder decoder;
  std::vector<StreamEvent> events;
  Decoded d;
  for (auto piece : pieces) {
    d.status = decoder.Feed(piece, events);
    if (!d.status.ok()) break;
  }
  if (d.status.ok()) d.status = decoder.Finish(events);
  d.events = Describe(events);
  d.text = decoder.text();
  return d;
}

Decoded Decode(std::string_view whole) { return Decode(std::vector<std::string_view>{whole}); }

const std::vector<std::string> kExpected = {
    "text Hello \xC3\xA9",
    "call 0 call_a hub_list_tasks {\"limit\": 5} {\"limit\":5}",
    "call 1 call_b hub_create_tasks {\"tasks\":[{\"title\":\"A\"}]} "
    "{\"tasks\":[{\"title\":\"A\"}]}",
    "finish tool_calls",
    "usage 120 30 64",
};

TEST(StreamDecoder, AssemblesTextToolCallsFinishAndUsage) {
  Decoded d = Decode(kStream);
  ASSERT_TRUE(d.status.ok()) << d.status.ToString();
  EXPECT_EQ(d.events, kExpected);
}

TEST(StreamDecoder, SameEventsWhereverTheBytesAreSplit) {
  for (size_t cut = 0; cut <= kStream.size(); ++cut) {
    std::string_view s = kStream;
    Decoded d = Decode({s.substr(0, cut), s.substr(cut)});
    ASSERT_TRUE(d.status.ok()) << "cut at " << cut << ": " << d.status.ToString();
    ASSERT_EQ(d.events, kExpected) << "cut at " << cut;
  }
  for (size_t a = 0; a < kStream.size(); a += 7) {
    for (size_t b = a; b <= kStream.size(); b += 13) {
      std::string_view s = kStream;
      Decoded d = Decode({s.substr(0, a), s.substr(a, b - a), s.substr(b)});
      ASSERT_EQ(d.events, kExpected) << "cuts at " << a << ", " << b;
    }
  }
}

TEST(StreamDecoder, OneByteAtATime) {
  std::vector<std::string_view> bytes;
  std::string_view s = kStream;
  for (size_t i = 0; i < s.size(); ++i) bytes.push_back(s.substr(i, 1));
  Decoded d = Decode(bytes);
  ASSERT_TRUE(d.status.ok()) << d.status.ToString();
  EXPECT_EQ(d.events, kExpected);
}

TEST(StreamDecoder, TextDeltasGoOutAsTheyArrive) {
  StreamDecoder decoder;
  std::vector<StreamEvent> events;
  ASSERT_TRUE(
      decoder.Feed("data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}\n", events).ok());
  EXPECT_TRUE(events.empty());  // The event is not complete before its blank line.
  ASSERT_TRUE(decoder.Feed("\n", events).ok());
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, Kind::kText);
  EXPECT_EQ(events[0].text, "Hi");
}

TEST(StreamDecoder, LineEndsOfEveryKind) {
  std::string lf =
      "data: {\"choices\":[{\"delta\":{\"content\":\"a\"},\"finish_reason\":\"stop\"}]}\n\n";
  std::string crlf = lf, cr = lf;
  for (size_t i = crlf.find('\n'); i != std::string::npos; i = crlf.find('\n', i + 2)) {
    crlf.replace(i, 1, "\r\n");
  }
  for (char& c : cr) c = c == '\n' ? '\r' : c;
  for (const std::string& s : {lf, crlf, cr}) {
    Decoded d = Decode(s);
    ASSERT_TRUE(d.status.ok()) << d.status.ToString();
    EXPECT_EQ(d.events, (std::vector<std::string>{"text a", "finish stop"}));
  }
}

TEST(StreamDecoder, JoinsMultiLineDataAndSkipsComments) {
  Decoded d = Decode(
      ":heartbeat\n"
      "event: message\n"
      "id: 7\n"
      "data: {\"choices\":[{\"delta\":\n"
      ": a comment between lines is skipped too\n"
      "data:{\"content\":\"x\\ny\"},\n"
      "data: \"finish_reason\":\"stop\"}]}\n"
      "\n");
  ASSERT_TRUE(d.status.ok()) << d.status.ToString();
  EXPECT_EQ(d.events, (std::vector<std::string>{"text x\ny", "finish stop"}));
}

TEST(StreamDecoder, NothingCountsAfterDone) {
  Decoded d = Decode(
      "data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\n"
      "data: [DONE]\n\n"
      "data: {\"choices\":[{\"delta\":{\"content\":\"b\"}}]}\n\n"
      "data: not json\n\n");
  ASSERT_TRUE(d.status.ok());
  EXPECT_EQ(d.events, (std::vector<std::string>{"text a"}));
}

TEST(StreamDecoder, AcceptsALastEventWithoutItsBlankLine) {
  Decoded d =
      Decode("data: {\"choices\":[{\"delta\":{\"content\":\"a\"},\"finish_reason\":\"stop\"}]}");
  ASSERT_TRUE(d.status.ok()) << d.status.ToString();
  EXPECT_EQ(d.events, (std::vector<std::string>{"text a", "finish stop"}));
}

TEST(StreamDecoder, ACutOffStreamIsAnErrorButKeepsItsText) {
  Decoded d = Decode("data: {\"choices\":[{\"delta\":{\"content\":\"partial\"}}]}\n\n");
  EXPECT_EQ(d.status.code(), codes::kModelError);
  EXPECT_EQ(d.text, "partial");
  EXPECT_EQ(d.events, (std::vector<std::string>{"text partial"}));
}

TEST(StreamDecoder, ReportsAMalformedToolCallInsteadOfDroppingIt) {
  Decoded d = Decode(
      "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c1\",\"function\":"
      "{\"name\":\"hub_create_tasks\",\"arguments\":\"{\\\"tasks\\\": [\"}}]}}]}\n\n"
      "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":1,\"id\":\"c2\",\"function\":"
      "{\"name\":\"hub_list_tasks\",\"arguments\":\"[1,2]\"}}]}}]}\n\n"
      "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":2,\"id\":\"c3\",\"function\":"
      "{\"arguments\":\"{}\"}}]}}]}\n\n"
      "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n"
      "data: [DONE]\n\n");
  ASSERT_TRUE(d.status.ok()) << d.status.ToString();
  EXPECT_EQ(d.events, (std::vector<std::string>{
                          "call 0 c1 hub_create_tasks {\"tasks\": [ MALFORMED_TOOL_CALL",
                          "call 1 c2 hub_list_tasks [1,2] MALFORMED_TOOL_CALL",
                          "call 2 c3  {} MALFORMED_TOOL_CALL", "finish tool_calls"}));
}

TEST(StreamDecoder, MalformedCallSaysWhichTool) {
  StreamDecoder decoder;
  std::vector<StreamEvent> events;
  ASSERT_TRUE(decoder
                  .Feed("data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":"
                        "{\"name\":\"hub_list_tasks\",\"arguments\":\"nope\"}}]},"
                        "\"finish_reason\":\"tool_calls\"}]}\n\n",
                        events)
                  .ok());
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].call.id, "call_0");  // None given: one is made up.
  EXPECT_THAT(events[0].call.status.message(), HasSubstr("hub_list_tasks"));
}

TEST(StreamDecoder, CallsWithoutIndexAreToldApartById) {
  // Some servers (Ollama) send each whole call in its own chunk, unindexed.
  Decoded d = Decode(
      "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"id\":\"x\",\"function\":"
      "{\"name\":\"a\",\"arguments\":{\"n\":1}}}]}}]}\n\n"
      "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"id\":\"y\",\"function\":"
      "{\"name\":\"b\",\"arguments\":\"{}\"}}]}}]}\n\n"
      "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n");
  ASSERT_TRUE(d.status.ok()) << d.status.ToString();
  EXPECT_EQ(d.events, (std::vector<std::string>{"call 0 x a {\"n\":1} {\"n\":1}",
                                                "call 1 y b {} {}", "finish tool_calls"}));
}

TEST(StreamDecoder, ToolCallsAreDeliveredWhenTheStreamEndsWithoutAFinish) {
  Decoded d = Decode(
      "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"x\",\"function\":"
      "{\"name\":\"a\",\"arguments\":\"{}\"}}]}}]}\n\n"
      "data: [DONE]\n\n");
  ASSERT_TRUE(d.status.ok());
  EXPECT_EQ(d.events, (std::vector<std::string>{"call 0 x a {} {}"}));
}

TEST(StreamDecoder, AProviderErrorObjectEndsTheStream) {
  Decoded d = Decode(
      "data: {\"choices\":[{\"delta\":{\"content\":\"so far\"}}]}\n\n"
      "data: {\"error\":{\"message\":\"The server is overloaded\",\"type\":\"server_error\"}}\n\n");
  EXPECT_EQ(d.status.code(), codes::kModelError);
  EXPECT_THAT(d.status.message(), HasSubstr("The server is overloaded"));
  EXPECT_EQ(d.text, "so far");

  Decoded named = Decode("event: error\ndata: {\"message\":\"quota\"}\n\n");
  EXPECT_EQ(named.status.code(), codes::kModelError);
  EXPECT_THAT(named.status.message(), HasSubstr("quota"));
}

TEST(StreamDecoder, DataThatIsNotJsonIsAnError) {
  for (const char* bad : {"data: {\"choices\":\n\n", "data: [1,2]\n\n", "data: nope\n\n"}) {
    Decoded d = Decode(bad);
    EXPECT_EQ(d.status.code(), codes::kMalformedJson) << bad;
  }
}

TEST(StreamDecoder, AfterAnErrorEveryCallFails) {
  StreamDecoder decoder;
  std::vector<StreamEvent> events;
  EXPECT_FALSE(decoder.Feed("data: nope\n\n", events).ok());
  EXPECT_EQ(decoder.Feed("data: {\"choices\":[]}\n\n", events).code(), codes::kMalformedJson);
  EXPECT_EQ(decoder.Finish(events).code(), codes::kMalformedJson);
}

TEST(StreamDecoder, ALineOverTheLimitIsRefused) {
  StreamDecoder decoder;
  std::vector<StreamEvent> events;
  std::string piece(64 * 1024, 'x');
  Status st;
  for (size_t sent = 0; st.ok() && sent <= kMaxSseLineBytes + piece.size(); sent += piece.size()) {
    st = decoder.Feed(piece, events);
  }
  EXPECT_EQ(st.code(), codes::kBodyTooLarge);
}

TEST(StreamDecoder, ArgumentsOverTheLimitAreRefused) {
  StreamDecoder decoder;
  std::vector<StreamEvent> events;
  std::string fragment(60'000, 'a');
  std::string chunk =
      "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":"
      "{\"name\":\"a\",\"arguments\":\"" +
      fragment + "\"}}]}}]}\n\n";
  Status st;
  for (size_t i = 0; st.ok() && i < kMaxToolArgumentBytes / fragment.size() + 2; ++i) {
    st = decoder.Feed(chunk, events);
  }
  EXPECT_EQ(st.code(), codes::kBodyTooLarge);
}

TEST(StreamDecoder, TooManyToolCallsAreRefused) {
  std::string s;
  for (size_t i = 0; i <= kMaxStreamToolCalls; ++i) {
    s += "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":" + std::to_string(i) +
         ",\"function\":{\"name\":\"a\",\"arguments\":\"{}\"}}]}}]}\n\n";
  }
  EXPECT_EQ(Decode(s).status.code(), codes::kBodyTooLarge);
}

TEST(StreamDecoder, DecodesANonStreamedCompletion) {
  StreamDecoder decoder;
  std::vector<StreamEvent> events;
  ASSERT_TRUE(decoder
                  .DecodeCompletion(R"({"object":"chat.completion","choices":[{"index":0,
        "message":{"role":"assistant","content":"Done.","tool_calls":[
          {"id":"c1","type":"function","function":{"name":"a","arguments":"{}"}},
          {"id":"c2","type":"function","function":{"name":"b","arguments":"{\"x\":1}"}}]},
        "finish_reason":"tool_calls"}],
        "usage":{"prompt_tokens":5,"completion_tokens":2}})",
                                    events)
                  .ok());
  EXPECT_EQ(Describe(events), (std::vector<std::string>{"text Done.", "call 0 c1 a {} {}",
                                                        "call 1 c2 b {\"x\":1} {\"x\":1}",
                                                        "finish tool_calls", "usage 5 2 0"}));
  StreamDecoder failing;
  EXPECT_EQ(failing.DecodeCompletion(R"({"error":{"message":"bad key"}})", events).code(),
            codes::kModelError);
}

TEST(StreamDecoder, ProviderErrorMessages) {
  EXPECT_EQ(ProviderErrorMessage(R"({"error":{"message":"Rate limit reached","type":"x"}})"),
            "Rate limit reached");
  EXPECT_EQ(ProviderErrorMessage(R"({"error":"model not found"})"), "model not found");
  EXPECT_EQ(ProviderErrorMessage(R"({"message":"Unauthorized"})"), "Unauthorized");
  EXPECT_EQ(ProviderErrorMessage("<html>502</html>"), "");
  EXPECT_LE(ProviderErrorMessage("{\"error\":\"" + std::string(5000, 'e') + "\"}").size(), 503u);
}

TEST(StreamDecoder, DeeplyNestedArgumentsAreAToolErrorNotACrash) {
  // 200,000 open brackets as a call's arguments (a hostile or broken model):
  // a readable refusal of that call, the stream itself intact.
  // Well formed, so only a depth limit stops it being built.
  const std::string deep = std::string(200000, '[') + std::string(200000, ']');
  const std::string stream =
      "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c1\",\"function\":"
      "{\"name\":\"hub_list_tasks\",\"arguments\":\"{\\\"a\\\":" +
      deep + "}\"}}]},\"finish_reason\":\"tool_calls\"}]}\n\ndata: [DONE]\n\n";
  StreamDecoder decoder;
  std::vector<StreamEvent> events;
  ASSERT_TRUE(decoder.Feed(stream, events).ok());
  ASSERT_TRUE(decoder.Finish(events).ok());
  ASSERT_GE(events.size(), 1u);
  EXPECT_EQ(events[0].call.status.code(), codes::kMalformedToolCall);
  EXPECT_THAT(events[0].call.status.message(), HasSubstr("hub_list_tasks"));
  EXPECT_THAT(events[0].call.status.message(), HasSubstr("nests deeper than 64 levels"));
}

TEST(StreamDecoder, ArgumentsNestedToTheLimitStillParse) {
  auto call_with_depth = [](int depth) {
    std::string args = std::string(depth - 1, '[') + "1" + std::string(depth - 1, ']');
    args = "{\\\"a\\\":" + args + "}";
    return "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c\",\"function\":"
           "{\"name\":\"t\",\"arguments\":\"" +
           args + "\"}}]},\"finish_reason\":\"tool_calls\"}]}\n\ndata: [DONE]\n\n";
  };
  for (auto [depth, ok] : {std::pair{64, true}, std::pair{65, false}}) {
    StreamDecoder decoder;
    std::vector<StreamEvent> events;
    ASSERT_TRUE(decoder.Feed(call_with_depth(depth), events).ok());
    ASSERT_FALSE(events.empty());
    EXPECT_EQ(events[0].call.status.ok(), ok) << depth << events[0].call.status.ToString();
  }
}

TEST(StreamDecoder, AnEventNestedTooDeeplyFailsTheStreamReadably) {
  const std::string deep(200000, '[');
  StreamDecoder decoder;
  std::vector<StreamEvent> events;
  Status st = decoder.Feed("data: " + deep + "\n\n", events);
  EXPECT_EQ(st.code(), codes::kMalformedJson);
}

}  // namespace
}  // namespace ensemble::core::model
