#include "core/assistant/conversation_store.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "core/assistant/proposal_store.h"
#include "core/hub/hub.h"
#include "core/store/sqlite_database.h"

namespace ensemble::core::assistant {
namespace {

using nlohmann::json;

class ConversationStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = std::move(store::SqliteDatabase::Open(":memory:")).value();
    ASSERT_TRUE(hub::Migrate(*db_).ok());
  }

  Conversation Start(const std::string& id, const std::string& account, int64_t now,
                     const std::string& space = "space-1") {
    auto c = CreateConversation(*db_, id, space, account, "  Plan the week  ", now);
    EXPECT_TRUE(c.ok()) << c.status().ToString();
    return c.value();
  }

  StoredMessage Say(const std::string& conversation, const std::string& id, MessageRole role,
                    std::string text, MessageStatus status = MessageStatus::kOk, int64_t at = 100) {
    StoredMessage m;
    m.id = id;
    m.conversation_id = conversation;
    m.role = role;
    m.text = std::move(text);
    m.status = status;
    m.created_at = at;
    auto saved = AppendMessage(*db_, m);
    EXPECT_TRUE(saved.ok()) << saved.status().ToString();
    return saved.ok() ? saved.value() : m;
  }

  std::unique_ptr<store::SqliteDatabase> db_;
};

TEST_F(ConversationStoreTest, CreatesWithATrimmedTitleAndReadsItBack) {
  Start("c1", "mira", 10);
  auto c = GetConversation(*db_, "mira", "c1");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c.value().title, "Plan the week");
  EXPECT_EQ(c.value().space_id, "space-1");
  EXPECT_EQ(c.value().created_at, 10);
}

TEST_F(ConversationStoreTest, AnotherAccountsConversationIsNotFound) {
  Start("c1", "mira", 10);
  auto c = GetConversation(*db_, "omar", "c1");
  EXPECT_EQ(c.status().code(), codes::kNotFound);
  EXPECT_EQ(DeleteConversation(*db_, "omar", "c1").code(), codes::kNotFound);
  EXPECT_TRUE(GetConversation(*db_, "mira", "c1").ok());
}

TEST_F(ConversationStoreTest, ListsTheAccountsConversationsInTheSpaceMostRecentFirst) {
  Start("c1", "mira", 10);
  Start("c2", "mira", 20);
  Start("c3", "omar", 30);
  Start("c4", "mira", 40, "space-2");
  Say("c1", "m1", MessageRole::kUser, "hello", MessageStatus::kOk, 50);
  auto list = ListConversations(*db_, "mira", "space-1");
  ASSERT_TRUE(list.ok());
  ASSERT_EQ(list.value().size(), 2u);
  EXPECT_EQ(list.value()[0].id, "c1");  // Its message at 50 made it the latest.
  EXPECT_EQ(list.value()[1].id, "c2");
}

TEST_F(ConversationStoreTest, MessagesKeepTheirOrderMentionsAndToolCalls) {
  Start("c1", "mira", 10);
  StoredMessage m;
  m.id = "m1";
  m.conversation_id = "c1";
  m.text = "Ask @people:Mira Chen";
  m.mentions = json::array({{{"kind", "people"}, {"id", "p1"}, {"label", "Mira Chen"}}});
  ASSERT_TRUE(AppendMessage(*db_, m).ok());
  StoredMessage reply = Say("c1", "m2", MessageRole::kAssistant, "Done.");
  EXPECT_EQ(reply.seq, 2);
  reply.tool_calls = json::array({{{"name", "hub_create_tasks"}, {"status", "succeeded"}}});
  reply.text = "Added 1 task.";
  ASSERT_TRUE(UpdateMessage(*db_, reply).ok());

  auto all = ListMessages(*db_, "c1");
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all.value().size(), 2u);
  EXPECT_EQ(all.value()[0].mentions, m.mentions);
  EXPECT_EQ(all.value()[0].seq, 1);
  EXPECT_EQ(all.value()[1].role, MessageRole::kAssistant);
  EXPECT_EQ(all.value()[1].text, "Added 1 task.");
  EXPECT_EQ(all.value()[1].tool_calls[0]["name"], "hub_create_tasks");
}

TEST_F(ConversationStoreTest, RefusesOversizedAndInvalidTextAndChangesNothing) {
  Start("c1", "mira", 10);
  StoredMessage m;
  m.id = "m1";
  m.conversation_id = "c1";
  m.text = std::string(kMaxMessageChars + 1, 'a');
  EXPECT_EQ(AppendMessage(*db_, m).status().code(), codes::kInvalidArgument);
  m.text = "\xff\xfe";
  EXPECT_EQ(AppendMessage(*db_, m).status().code(), codes::kInvalidArgument);
  m.text = "ok";
  m.mentions = json::object();
  EXPECT_EQ(AppendMessage(*db_, m).status().code(), codes::kInvalidArgument);
  EXPECT_TRUE(ListMessages(*db_, "c1").value().empty());
}

TEST_F(ConversationStoreTest, KeepsAtMostSixtyMentions) {
  Start("c1", "mira", 10);
  StoredMessage m;
  m.id = "m1";
  m.conversation_id = "c1";
  m.role = MessageRole::kAssistant;
  for (int i = 0; i < 75; ++i) {
    m.mentions.push_back({{"kind", "task"}, {"id", "t" + std::to_string(i)}, {"label", "T"}});
  }
  ASSERT_TRUE(AppendMessage(*db_, m).ok());
  EXPECT_EQ(ListMessages(*db_, "c1").value()[0].mentions.size(), kMaxSavedMentions);
}

TEST_F(ConversationStoreTest, DeleteRemovesTheConversationItsMessagesAndTheirProposals) {
  Start("c1", "mira", 10);
  Start("c2", "mira", 10);
  Say("c1", "m1", MessageRole::kUser, "hi");
  Say("c2", "m2", MessageRole::kUser, "hi");
  for (const char* conversation : {"c1", "c2"}) {
    Proposal p;
    p.id = std::string("p-") + conversation;
    p.conversation_id = conversation;
    p.message_id = std::string("m-") + conversation;
    p.account_id = "mira";
    p.space_id = "s";
    p.calls = {{"call_1", "hub_create_tasks", {{"tasks", {{{"title", "x"}}}}}}};
    ASSERT_TRUE(SaveProposal(*db_, p, 10).ok());
  }
  ASSERT_TRUE(DeleteConversation(*db_, "mira", "c1").ok());
  EXPECT_EQ(GetConversation(*db_, "mira", "c1").status().code(), codes::kNotFound);
  EXPECT_TRUE(ListMessages(*db_, "c1").value().empty());
  EXPECT_EQ(ListMessages(*db_, "c2").value().size(), 1u);
  EXPECT_EQ(GetProposal(*db_, "mira", "p-c1").status().code(), codes::kNotFound);
  EXPECT_TRUE(GetProposal(*db_, "mira", "p-c2").ok());
}

TEST_F(ConversationStoreTest, LoadHistoryReadsWhatHistoryKeepsOfTheWholeConversation) {
  Start("c1", "mira", 10);
  Start("c2", "mira", 10);
  for (int i = 0; i < 30; ++i) {
    const bool answer = i % 2 == 1;
    MessageStatus status = MessageStatus::kOk;
    if (answer && i % 7 == 1) status = MessageStatus::kError;
    if (answer && i % 11 == 3) status = MessageStatus::kStopped;
    Say("c1", "m" + std::to_string(i), answer ? MessageRole::kAssistant : MessageRole::kUser,
        "text " + std::to_string(i), status);
    if (i < 3) Say("c2", "other" + std::to_string(i), MessageRole::kUser, "elsewhere");
  }
  auto all = ListMessages(*db_, "c1");
  ASSERT_TRUE(all.ok());
  std::vector<StoredMessage> expected = History(*all);
  auto loaded = LoadHistory(*db_, "c1");
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  ASSERT_EQ(loaded->size(), expected.size());
  ASSERT_EQ(loaded->size(), kHistoryMessages);
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ((*loaded)[i].id, expected[i].id) << i;
    EXPECT_EQ((*loaded)[i].seq, expected[i].seq) << i;
  }
  auto few = LoadHistory(*db_, "c2");
  ASSERT_TRUE(few.ok());
  EXPECT_EQ(few->size(), 3u);
  EXPECT_EQ(few->front().id, "other0");
}

TEST(ConversationHistory, IsTheLastTwelveWithoutErrorOrStoppedAnswers) {
  std::vector<StoredMessage> messages;
  for (int i = 0; i < 20; ++i) {
    StoredMessage m;
    m.seq = i + 1;
    m.role = i % 2 == 0 ? MessageRole::kUser : MessageRole::kAssistant;
    m.text = "m" + std::to_string(i + 1);
    if (i == 17) m.status = MessageStatus::kError;
    if (i == 15) m.status = MessageStatus::kStopped;
    messages.push_back(m);
  }
  std::vector<StoredMessage> h = History(messages);
  ASSERT_EQ(h.size(), kHistoryMessages);
  EXPECT_EQ(h.back().text, "m20");
  for (const StoredMessage& m : h) {
    EXPECT_NE(m.text, "m18");
    EXPECT_NE(m.text, "m16");
  }
  EXPECT_EQ(h.front().text, "m7");  // 20 messages, 2 left out, the last 12 of 18.
}

TEST(ConversationHistory, KeepsAPersonsMessageWhoseAnswerFailed) {
  StoredMessage ask;
  ask.text = "add a task";
  StoredMessage failed;
  failed.role = MessageRole::kAssistant;
  failed.status = MessageStatus::kError;
  std::vector<StoredMessage> messages = {ask, failed};
  std::vector<StoredMessage> h = History(messages);
  ASSERT_EQ(h.size(), 1u);
  EXPECT_EQ(h[0].text, "add a task");
}

TEST_F(ConversationStoreTest, AnAccountKeepsABoundedNumberOfConversations) {
  store::Transaction txn(*db_);
  for (size_t i = 0; i < kMaxConversationsPerAccount; ++i) {
    ASSERT_TRUE(db_->Exec("INSERT INTO assistant_conversations (id, space_id, account_id, title,"
                          " created_at, updated_at) VALUES ($1, 's', 'mira', 't', 1, 1)",
                          {store::Value("k" + std::to_string(i))})
                    .ok());
  }
  ASSERT_TRUE(txn.Commit().ok());
  auto more = CreateConversation(*db_, "one-more", "s", "mira", "t", 2);
  EXPECT_EQ(more.status().code(), codes::kLimitReached);
  EXPECT_TRUE(CreateConversation(*db_, "theirs", "s", "noor", "t", 2).ok());
}

}  // namespace
}  // namespace ensemble::core::assistant
