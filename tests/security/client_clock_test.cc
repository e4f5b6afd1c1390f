// A device whose clock runs far ahead cannot pin its changes as the newest
// (docs/SECURITY.md, "A member sees what is shared"): a mutation stamped
// over a day ahead of the server's clock is rejected with its own code.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "core/sync/server_sync.h"
#include "tests/server/accounts_fixture.h"

namespace ensemble::testing {
namespace {

using nlohmann::json;

// The fixture's FakeClock reads this.
constexpr int64_t kServerNow = 1'764'000'000'000;

json CreateTask(int64_t mutation_id, const std::string& task_id, int64_t client_time) {
  return {{"id", mutation_id},
          {"name", "task.create"},
          {"args", {{"id", task_id}, {"spaceId", "personal"}, {"title", "t" + task_id}}},
          {"clientTime", client_time}};
}

class ClientClock : public AccountsServerTest {};

TEST_P(ClientClock, AMutationStampedOverADayAheadIsRejected) {
  constexpr int64_t kHour = 60 * 60 * 1000;
  json push = {{"clientGroupId", "g"},
               {"clientId", "c"},
               {"mutations",
                {CreateTask(1, "01J00000000000000000000001",
                            kServerNow + core::sync::kMaxClientTimeAheadMs + kHour),
                 CreateTask(2, "01J00000000000000000000002", kServerNow + 23 * kHour)}}};
  HttpReply r = PostJson("/api/sync/push", push);
  ASSERT_EQ(r.status, 200) << r.body();
  const json results = r.json()["results"];
  ASSERT_EQ(results.size(), 2u) << r.body();
  EXPECT_EQ(results[0]["status"], "rejected");
  EXPECT_EQ(results[0]["code"], "CLIENT_CLOCK_AHEAD");
  EXPECT_NE(results[0]["message"].get<std::string>().find("25 hours ahead"), std::string::npos)
      << results[0];
  // Consumed, so the queue behind it goes on; a clock a little ahead is fine.
  EXPECT_EQ(results[1]["status"], "applied");
  EXPECT_EQ(QueryInt(store(), "SELECT COUNT(*) FROM tasks"), 1);
  EXPECT_EQ(QueryInt(store(), "SELECT COUNT(*) FROM tasks WHERE id = '01J00000000000000000000001'"),
            0);
}

INSTANTIATE_TEST_SUITE_P(Security, ClientClock, ::testing::Values(StoreKind::kSqlite),
                         StoreKindTestName);

}  // namespace
}  // namespace ensemble::testing
