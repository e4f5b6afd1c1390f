// The server's write sink for assistant tools: every call goes through
// ServerSync (authorized, versioned, pulled by every client), all or nothing.

#include "core/assistant/synced_mutation_sink.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "core/hub/hub.h"
#include "core/store/sqlite_database.h"
#include "core/sync/authorization.h"
#include "core/sync/sync_state.h"

namespace ensemble::core::assistant {
namespace {

using nlohmann::json;
using tools::Mutation;

constexpr char kTaskA[] = "01JB0000000000000000000001";
constexpr char kTaskB[] = "01JB0000000000000000000002";
constexpr int64_t kSinkNow = 1'764'000'000'000;

Mutation Create(const std::string& id, const std::string& space, const std::string& title) {
  return {"task.create", {{"id", id}, {"spaceId", space}, {"title", title}}};
}

class SyncedMutationSinkTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = std::move(store::SqliteDatabase::Open(":memory:")).value();
    ASSERT_TRUE(hub::Migrate(*db_).ok());
    ASSERT_TRUE(sync::SetMember(*db_, "mine", "ann", sync::Role::kOwner).ok());
    ASSERT_TRUE(sync::SetMember(*db_, "theirs", "bob", sync::Role::kOwner).ok());
  }
  int64_t Count(const std::string& where) {
    auto rows = db_->Query("SELECT COUNT(*) FROM tasks WHERE " + where);
    return store::AsInt(rows->rows[0][0]);
  }
  std::unique_ptr<store::SqliteDatabase> db_;
};

TEST_F(SyncedMutationSinkTest, WritesAsAServerChangeEveryClientPulls) {
  const std::string ann = "ann";
  SyncedWrites writes;
  auto sink = SyncedMutationSink(*db_, hub::Config(), &ann, kSinkNow, &writes);
  ASSERT_TRUE(sink({Create(kTaskA, "mine", "Call Mira")}).ok());
  ASSERT_TRUE(sink({Create(kTaskB, "mine", "Send invoice")}).ok());
  EXPECT_GT(writes.first_version, 0);
  EXPECT_EQ(writes.last_version, writes.first_version + 1);
  // Ann's phone pulls the assistant's writes like any other change.
  sync::ServerSync server(hub::Config());
  auto pulled = server.Pull(*db_, "ann", "ann-phone", 0);
  ASSERT_TRUE(pulled.ok()) << pulled.status().ToString();
  EXPECT_EQ((*pulled)["changes"].size(), 2u);
  // The server's own writes keep no sync client (nothing grows per turn).
  auto clients = db_->Query("SELECT COUNT(*) FROM sync_clients");
  EXPECT_EQ(store::AsInt(clients->rows[0][0]), 0);
}

TEST_F(SyncedMutationSinkTest, ACallIsAllOrNothing) {
  const std::string ann = "ann";
  SyncedWrites writes;
  auto sink = SyncedMutationSink(*db_, hub::Config(), &ann, kSinkNow, &writes);
  // Joining the spaces took versions of their own (sync/authorization.h).
  const int64_t before = sync::GetStateInt(*db_, "server_version")->value_or(0);
  // The second mutation names a space Ann cannot write: neither is written.
  Status st = sink({Create(kTaskA, "mine", "Kept?"), Create(kTaskB, "theirs", "Planted")});
  EXPECT_EQ(st.code(), codes::kForbidden) << st.ToString();
  EXPECT_EQ(Count("1 = 1"), 0);
  EXPECT_EQ(writes.first_version, 0);
  // The refused call consumed nothing, not even versions: the next one
  // writes the next version.
  ASSERT_TRUE(sink({Create(kTaskA, "mine", "Kept")}).ok());
  EXPECT_EQ(Count("title = 'Kept'"), 1);
  EXPECT_EQ(writes.first_version, before + 1);
  EXPECT_EQ(writes.last_version, before + 1);
}

TEST_F(SyncedMutationSinkTest, AConflictComesBackAsTheCallsError) {
  const std::string ann = "ann";
  auto sink = SyncedMutationSink(*db_, hub::Config(), &ann, kSinkNow, nullptr);
  ASSERT_TRUE(sink({Create(kTaskA, "mine", "Draft")}).ok());
  ASSERT_TRUE(sink({{"task.update", {{"id", kTaskA}, {"fields", {{"title", "Edited"}}}}}}).ok());
  Status st =
      sink({{"task.update",
             {{"id", kTaskA}, {"fields", {{"title", "Mine"}}}, {"base", {{"title", "Draft"}}}}}});
  EXPECT_EQ(st.code(), codes::kSaveConflict) << st.ToString();
  EXPECT_EQ(Count("title = 'Edited'"), 1);
}

TEST_F(SyncedMutationSinkTest, TheLocalPersonIsTrustedWithEverySpace) {
  auto sink = SyncedMutationSink(*db_, hub::Config(), nullptr, kSinkNow, nullptr);
  EXPECT_TRUE(sink({Create(kTaskA, "theirs", "Local")}).ok());
  EXPECT_EQ(Count("space_id = 'theirs'"), 1);
}

}  // namespace
}  // namespace ensemble::core::assistant
