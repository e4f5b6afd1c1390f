#include "core/assistant/offline_exchanges.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "core/assistant/conversation_store.h"
#include "core/hub/hub.h"
#include "core/store/sqlite_database.h"

namespace ensemble::core::assistant {
namespace offline_exchanges_test {

using nlohmann::json;
using ::testing::HasSubstr;

constexpr char kFirst[] = "01JB0000000000000000000001";
constexpr char kSecond[] = "01JB0000000000000000000002";

json Exchange(const std::string& id, const std::string& message, const std::string& reply,
              int64_t at) {
  return {{"id", id}, {"message", message}, {"reply", reply}, {"at", at}};
}

class OfflineExchangesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = std::move(store::SqliteDatabase::Open(":memory:")).value();
    ASSERT_TRUE(hub::Migrate(*db_).ok());
    ASSERT_TRUE(CreateConversation(*db_, "c1", "space-1", "mira", "", 10).ok());
  }

  Result<size_t> Upload(const json& body, int64_t now = 5000) {
    ENSEMBLE_ASSIGN_OR_RETURN(std::vector<OfflineExchange> exchanges, ParseOfflineExchanges(body));
    return SaveOfflineExchanges(*db_, "c1", exchanges, now);
  }

  std::vector<StoredMessage> Messages() { return ListMessages(*db_, "c1").value(); }

  std::unique_ptr<store::SqliteDatabase> db_;
};

TEST_F(OfflineExchangesTest, EachExchangeIsSavedAsTheQuestionThenTheReply) {
  json first = Exchange(kFirst, "add a task to call Mira", "Added \u201CCall Mira\u201D.", 1000);
  first["calls"] = {{{"id", "local_1_0"},
                     {"name", "hub_create_tasks"},
                     {"state", "succeeded"},
                     {"summary", "Added 1 task"}}};
  json second = Exchange(kSecond, "add a task to pay rent", "Waiting for your Apply.", 9000);
  second["calls"] = {{{"id", "local_1_0"},
                      {"name", "hub_create_tasks"},
                      {"state", "held"},
                      {"summary", "Add 1 task: \u201CPay rent\u201D"}}};
  Result<size_t> saved = Upload({{"exchanges", {first, second}}});
  ASSERT_TRUE(saved.ok()) << saved.status().ToString();
  EXPECT_EQ(*saved, 2u);

  std::vector<StoredMessage> m = Messages();
  ASSERT_EQ(m.size(), 4u);
  EXPECT_EQ(m[0].role, MessageRole::kUser);
  EXPECT_EQ(m[0].text, "add a task to call Mira");
  EXPECT_EQ(m[0].created_at, 1000);
  EXPECT_EQ(m[1].role, MessageRole::kAssistant);
  EXPECT_EQ(m[1].text, "Added \u201CCall Mira\u201D.");
  EXPECT_EQ(m[1].tool_calls[0]["receipt"]["state"], "succeeded");
  EXPECT_EQ(m[1].tool_calls[0]["name"], "hub_create_tasks");
  EXPECT_EQ(m[2].text, "add a task to pay rent");
  // A time ahead of the server's clock is saved as now.
  EXPECT_EQ(m[2].created_at, 5000);
  EXPECT_EQ(m[3].tool_calls[0]["receipt"]["state"], "proposed");
  // The model sees them in its history like any exchange.
  EXPECT_EQ(History(m).size(), 4u);
}

TEST_F(OfflineExchangesTest, AnUploadSentTwiceIsSavedOnce) {
  const json body = {{"exchanges", {Exchange(kFirst, "what is due", "Nothing is due.", 1000)}}};
  ASSERT_EQ(Upload(body).value(), 1u);
  // The answer was lost; the device sends it again, with one more.
  const json again = {{"exchanges",
                       {Exchange(kFirst, "what is due", "Nothing is due.", 1000),
                        Exchange(kSecond, "what are my tasks", "No tasks.", 2000)}}};
  ASSERT_EQ(Upload(again).value(), 1u);
  std::vector<StoredMessage> m = Messages();
  ASSERT_EQ(m.size(), 4u);
  EXPECT_EQ(m[0].text, "what is due");
  EXPECT_EQ(m[2].text, "what are my tasks");
}

TEST_F(OfflineExchangesTest, BadUploadsAreRefusedWithWhereAndNothingIsSaved) {
  const json good = Exchange(kFirst, "what is due", "Nothing is due.", 1000);
  json unknown = good;
  unknown["extra"] = 1;
  json bad_id = good;
  bad_id["id"] = "not-an-id";
  json bad_call = good;
  bad_call["calls"] = {{{"id", "local_1_0"}, {"name", "hub_create_tasks"}, {"state", "maybe"}}};
  json long_text = good;
  long_text["message"] = std::string(kMaxMessageChars + 1, 'a');
  json too_many_calls = good;
  too_many_calls["calls"] = json::array();
  for (size_t i = 0; i <= kMaxOfflineExchangeCalls; ++i) {
    too_many_calls["calls"].push_back(
        {{"id", "local_1_" + std::to_string(i)}, {"name", "hub_list_tasks"}, {"state", "failed"}});
  }
  json too_many = json::array();
  for (size_t i = 0; i <= kMaxOfflineExchanges; ++i) too_many.push_back(good);
  const std::pair<json, std::string> cases[] = {
      {json::array(), "must be an object"},
      {{{"exchanges", "all"}}, "must be a list"},
      {{{"exchanges", too_many}}, "at most 50 exchanges"},
      {{{"exchanges", {good, unknown}}}, "exchanges[1] has an unknown key \"extra\""},
      {{{"exchanges", {bad_id}}}, "exchanges[0].id is not a record id"},
      {{{"exchanges", {bad_call}}}, "exchanges[0].calls[0].state must be"},
      {{{"exchanges", {long_text}}}, "exchanges[0].message has more than"},
      {{{"exchanges", {too_many_calls}}}, "more than 24 calls"},
  };
  for (const auto& [body, why] : cases) {
    Result<size_t> saved = Upload(body);
    ASSERT_FALSE(saved.ok()) << body.dump().substr(0, 200);
    EXPECT_EQ(saved.status().code(), codes::kInvalidArgument);
    EXPECT_THAT(saved.status().message(), HasSubstr(why));
  }
  EXPECT_TRUE(Messages().empty());
}

}  // namespace offline_exchanges_test
}  // namespace ensemble::core::assistant
