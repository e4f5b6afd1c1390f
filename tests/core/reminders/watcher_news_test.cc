// Watcher news (core/reminders/watcher_news.h) through the server's own
// apply path (ServerSync), as pushes and the assistant's writes take it: what
// is news for the space's owner, the words it is told in, that it syncs with
// the change, and that Seen clears only what was seen.

#include "core/reminders/watcher_news.h"

#include <gtest/gtest.h>

#include <string>

#include "core/hub/hub.h"
#include "core/reminders/reminder.h"
#include "core/sync/authorization.h"
#include "core/sync/server_sync.h"
#include "tests/core/hub_store_fixture.h"

namespace ensemble::core::reminders {
namespace watcher_news_test {

using nlohmann::json;
using store::Value;

constexpr char kTask[] = "01JB0000000000000000000T01";
constexpr char kBoard[] = "01JB0000000000000000000B01";
constexpr char kCard[] = "01JB0000000000000000000C01";
constexpr char kComment[] = "01JB0000000000000000000M01";
constexpr char kWatcher[] = "01JB00000000000000000000W1";
constexpr char kBoardWatcher[] = "01JB00000000000000000000W2";
constexpr int64_t kT0 = 1'796'029'200'000;

class WatcherNewsTest : public HubStoreTest {
 protected:
  void SetUp() override {
    ASSERT_TRUE(sync::SetMember(*db_, "here", "owner", sync::Role::kOwner).ok());
    ASSERT_TRUE(sync::SetMember(*db_, "here", "ana", sync::Role::kEditor).ok());
    ASSERT_TRUE(db_->Exec("INSERT INTO accounts (id, email, name, password_hash, created_at)"
                          " VALUES ('ana', 'ana@example.com', 'Ana Lee', 'x', 0)",
                          {})
                    .ok());
    const json cols =
        json::array({{{"id", "todo"}, {"title", "To do"}}, {{"id", "done"}, {"title", "Done"}}});
    ASSERT_TRUE(
        Write("owner", kT0,
              {{{"name", "task.create"},
                {"args", {{"id", kTask}, {"spaceId", "here"}, {"title", "Draft"}}}},
               {{"name", "board.create"},
                {"args",
                 {{"id", kBoard}, {"spaceId", "here"}, {"title", "Launch"}, {"columns", cols}}}},
               {{"name", "watcher.create"},
                {"args",
                 {{"id", kWatcher},
                  {"spaceId", "here"},
                  {"target_kind", "task"},
                  {"target", kTask},
                  {"condition", "when it is done"}}}},
               {{"name", "watcher.create"},
                {"args",
                 {{"id", kBoardWatcher},
                  {"spaceId", "here"},
                  {"target_kind", "board"},
                  {"target", kBoard}}}}})
            .ok());
  }

  // The server applies `mutations` for `account` (null: the local person).
  Result<sync::PushOutcome> Write(const char* account, int64_t now, const json& mutations) {
    const std::string who = account ? account : "";
    return server_.ApplyServerWrites(*db_, mutations, account ? &who : nullptr, now);
  }

  json Watcher(const char* id = kWatcher) { return Row(kWatcherRecordKind, id); }

  sync::ServerSync server_{hub::Config()};
};

TEST_F(WatcherNewsTest, AnotherPersonsChangeIsNewsForTheOwner) {
  const int64_t version = Watcher()["version"].get<int64_t>();
  auto outcome =
      Write("ana", kT0 + 5,
            {{{"name", "task.update"},
              {"args", {{"id", kTask}, {"fields", {{"status", "done"}, {"due", "2026-12-04"}}}}}}});
  ASSERT_TRUE(outcome.ok()) << outcome.status().ToString();
  json w = Watcher();
  EXPECT_EQ(w["changes"], 1);
  EXPECT_EQ(w["last_change"], "Ana Lee changed due and status");
  EXPECT_EQ(w["changed_at"], kT0 + 5);
  // Written as the change's own version, so the owner's next pull has both.
  EXPECT_EQ(w["row_version"], outcome->version);
  // News is not an edit: the person's own edit of the watcher never conflicts with it.
  EXPECT_EQ(w["version"], version);
  // The board's watcher heard nothing: the task is not on it.
  EXPECT_EQ(Watcher(kBoardWatcher)["changes"], 0);
}

TEST_F(WatcherNewsTest, TheOwnersOwnChangesAreNotNews) {
  const json rename = {
      {{"name", "task.update"}, {"args", {{"id", kTask}, {"fields", {{"title", "Final"}}}}}}};
  ASSERT_TRUE(Write("owner", kT0 + 1, rename).ok());
  ASSERT_TRUE(Write(nullptr, kT0 + 2, rename).ok());  // The single local person.
  EXPECT_EQ(Watcher()["changes"], 0);
  EXPECT_TRUE(Watcher()["last_change"].is_null());
}

TEST_F(WatcherNewsTest, CommentsCardsAndTrashAreNewsToo) {
  ASSERT_TRUE(Write("ana", kT0 + 1,
                    {{{"name", "comment.create"},
                      {"args",
                       {{"id", kComment},
                        {"spaceId", "here"},
                        {"target_kind", "task"},
                        {"target", kTask},
                        {"body", "Looks good"}}}}})
                  .ok());
  EXPECT_EQ(Watcher()["last_change"], "Ana Lee commented");
  ASSERT_TRUE(Write("ana", kT0 + 2,
                    {{{"name", "card.create"},
                      {"args",
                       {{"id", kCard},
                        {"spaceId", "here"},
                        {"board", kBoard},
                        {"column", "todo"},
                        {"task", kTask}}}}})
                  .ok());
  EXPECT_EQ(Watcher(kBoardWatcher)["last_change"], "Ana Lee put a card on it");
  ASSERT_TRUE(Write("ana", kT0 + 3,
                    {{{"name", "card.update"},
                      {"args", {{"id", kCard}, {"fields", {{"column", "done"}}}}}}})
                  .ok());
  EXPECT_EQ(Watcher(kBoardWatcher)["last_change"], "Ana Lee moved a card");
  ASSERT_TRUE(Write("ana", kT0 + 4, {{{"name", "task.delete"}, {"args", {{"id", kTask}}}}}).ok());
  json w = Watcher();
  EXPECT_EQ(w["last_change"], "Ana Lee moved it to Trash");
  EXPECT_EQ(w["changes"], 2);
  EXPECT_EQ(Watcher(kBoardWatcher)["changes"], 2);
}

TEST_F(WatcherNewsTest, ARefusedChangeMakesNoNews) {
  auto outcome = Write(
      "ana", kT0 + 1,
      {{{"name", "task.update"}, {"args", {{"id", kTask}, {"fields", {{"status", "sideways"}}}}}}});
  EXPECT_EQ(outcome.status().code(), codes::kInvalidArgument);
  EXPECT_EQ(Watcher()["changes"], 0);
  // A stopped watcher hears nothing either.
  ASSERT_TRUE(
      Write("owner", kT0 + 2, {{{"name", "watcher.delete"}, {"args", {{"id", kWatcher}}}}}).ok());
  ASSERT_TRUE(Write("ana", kT0 + 3,
                    {{{"name", "task.update"},
                      {"args", {{"id", kTask}, {"fields", {{"title", "Final"}}}}}}})
                  .ok());
  EXPECT_EQ(Watcher()["changes"], 0);
}

TEST_F(WatcherNewsTest, SeenClearsOnlyTheNewsThePersonSaw) {
  const json rename = {
      {{"name", "task.update"}, {"args", {{"id", kTask}, {"fields", {{"title", "Final"}}}}}}};
  ASSERT_TRUE(Write("ana", kT0 + 10, rename).ok());
  // Seen on a device that had not yet pulled the newest news: it stays.
  ASSERT_TRUE(
      Write("owner", kT0 + 11,
            {{{"name", "watcher.seen"}, {"args", {{"id", kWatcher}, {"through", kT0 + 9}}}}})
          .ok());
  EXPECT_EQ(Watcher()["changes"], 1);
  ASSERT_TRUE(
      Write("owner", kT0 + 12,
            {{{"name", "watcher.seen"}, {"args", {{"id", kWatcher}, {"through", kT0 + 10}}}}})
          .ok());
  EXPECT_EQ(Watcher()["changes"], 0);
  EXPECT_EQ(Watcher()["last_change"], "Ana Lee changed title");  // Kept: what happened last.
  // Only the owner keeps watchers, and a bad or unknown one is refused readably.
  EXPECT_EQ(Write("ana", kT0 + 13,
                  {{{"name", "watcher.seen"}, {"args", {{"id", kWatcher}, {"through", 1}}}}})
                .status()
                .code(),
            codes::kForbidden);
  EXPECT_EQ(Mutate("watcher.seen", {{"id", kWatcher}}).code(), codes::kInvalidArgument);
  EXPECT_EQ(Mutate("watcher.seen", {{"id", kComment}, {"through", 1}}).code(), codes::kNotFound);
}

}  // namespace watcher_news_test
}  // namespace ensemble::core::reminders
