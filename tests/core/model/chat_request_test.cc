// The chat-completions body: roles, replayed tool calls and results, tools as
// functions, tool_choice for the tools-off step, streaming with usage; and
// options the model does not offer refused before any call.

#include "core/model/chat_request.h"

#include <gtest/gtest.h>

namespace ensemble::core::model {
namespace {

using nlohmann::json;

ModelInfo Model() {
  ModelInfo m;
  m.id = "gpt-test";
  m.display_name = "GPT Test";
  m.efforts = {"low", "medium", "high"};
  return m;
}

ChatRequest Conversation() {
  ChatRequest r;
  r.messages = {ChatMessage::System("You are the hub's assistant."),
                ChatMessage::User("Add a task"),
                ChatMessage::Assistant("", {{"call_1", "hub_create_tasks", R"({"tasks":[]})"}}),
                ChatMessage::ToolResult("call_1", "Added 1 task"), ChatMessage::User("thanks")};
  r.tools = {{"hub_create_tasks", "Create tasks.", R"({"type":"object"})"}};
  return r;
}

TEST(ChatRequest, BuildsTheOpenAiBody) {
  auto body = BuildChatBody(Model(), Conversation());
  ASSERT_TRUE(body.ok()) << body.status().ToString();
  json expected = json::parse(R"({
    "model": "gpt-test",
    "messages": [
      {"role": "system", "content": "You are the hub's assistant."},
      {"role": "user", "content": "Add a task"},
      {"role": "assistant", "content": null, "tool_calls": [
        {"id": "call_1", "type": "function",
         "function": {"name": "hub_create_tasks", "arguments": "{\"tasks\":[]}"}}]},
      {"role": "tool", "content": "Added 1 task", "tool_call_id": "call_1"},
      {"role": "user", "content": "thanks"}],
    "tools": [{"type": "function", "function": {"name": "hub_create_tasks",
               "description": "Create tasks.", "parameters": {"type": "object"}}}],
    "tool_choice": "auto",
    "stream": true,
    "stream_options": {"include_usage": true}})");
  EXPECT_EQ(*body, expected);
}

TEST(ChatRequest, TheLastStepTurnsToolsOff) {
  ChatRequest r = Conversation();
  r.tool_choice = ToolChoice::kNone;
  EXPECT_EQ((*BuildChatBody(Model(), r))["tool_choice"], "none");
  r.tools.clear();
  json body = *BuildChatBody(Model(), r);
  EXPECT_FALSE(body.contains("tools"));
  EXPECT_FALSE(body.contains("tool_choice"));
}

TEST(ChatRequest, SendsASupportedEffortAndRefusesOthers) {
  ChatRequest r = Conversation();
  r.effort = "high";
  EXPECT_EQ((*BuildChatBody(Model(), r))["reasoning_effort"], "high");
  r.effort = "extreme";
  auto refused = BuildChatBody(Model(), r);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), codes::kUnsupportedOption);
  EXPECT_EQ(refused.status().message(),
            "GPT Test does not offer effort 'extreme' (it offers low, medium, high)");
  ModelInfo plain = Model();
  plain.efforts.clear();
  r.effort = "low";
  EXPECT_EQ(CheckChatRequest(plain, r).code(), codes::kUnsupportedOption);
}

TEST(ChatRequest, RefusesToolsForAModelWithoutThem) {
  ModelInfo m = Model();
  m.supports_tools = false;
  EXPECT_EQ(CheckChatRequest(m, Conversation()).code(), codes::kUnsupportedOption);
  ChatRequest r = Conversation();
  r.tools.clear();
  EXPECT_TRUE(CheckChatRequest(m, r).ok());
}

TEST(ChatRequest, RefusesMalformedRequests) {
  ChatRequest none;
  EXPECT_EQ(CheckChatRequest(Model(), none).code(), codes::kInvalidArgument);
  ChatRequest orphan = Conversation();
  orphan.messages.push_back(ChatMessage::ToolResult("", "x"));
  EXPECT_EQ(CheckChatRequest(Model(), orphan).code(), codes::kInvalidArgument);
  ChatRequest many = Conversation();
  many.tools.assign(kMaxRequestTools + 1, many.tools[0]);
  EXPECT_EQ(CheckChatRequest(Model(), many).code(), codes::kInvalidArgument);
  ModelInfo unnamed;
  EXPECT_EQ(CheckChatRequest(unnamed, Conversation()).code(), codes::kInvalidArgument);
}

TEST(ChatRequest, NonStreamedBodyHasNoStreamOptions) {
  ChatRequest r = Conversation();
  r.stream = false;
  json body = *BuildChatBody(Model(), r);
  EXPECT_EQ(body["stream"], false);
  EXPECT_FALSE(body.contains("stream_options"));
}

TEST(ChatRequest, BodyTextSurvivesInvalidUtf8) {
  ChatRequest r = Conversation();
  r.messages.push_back(ChatMessage::User("bad \xff byte"));
  auto text = BuildChatBodyText(Model(), r);
  ASSERT_TRUE(text.ok());
  EXPECT_NE(text->find("bad \xEF\xBF\xBD byte"), std::string::npos);
}

TEST(ChatRequest, BodyTextIsTheCompactDumpOfTheBody) {
  // The text is written by hand for speed; it must be byte for byte what a
  // JSON library would write for the same body, in every optional shape.
  for (int shape = 0; shape < 8; ++shape) {
    ChatRequest r = Conversation();
    r.messages.push_back(ChatMessage::User("quote \" tab \t \u00e9 \xf0\x9f\x99\x82 </script>"));
    r.messages.push_back(ChatMessage::Assistant("looking \\ \x01",
                                                {{"call_2", "hub_list_tasks", R"({"limit":5})"}}));
    r.messages.push_back(ChatMessage::ToolResult("call_2", "[]"));
    r.tools.push_back({"hub_list_tasks", "List \"open\" tasks.\n",
                       R"({"properties":{"limit":{"type":"integer"}},"type":"object"})"});
    if (shape & 1) r.effort = "low";
    if (shape & 2) r.stream = false;
    if (shape & 4) r.tool_choice = ToolChoice::kNone;
    if (shape == 7) r.tools.clear();
    auto text = BuildChatBodyText(Model(), r);
    ASSERT_TRUE(text.ok()) << text.status().ToString();
    EXPECT_EQ(*text, json::parse(*text).dump()) << "shape " << shape;
  }
}

}  // namespace
}  // namespace ensemble::core::model
