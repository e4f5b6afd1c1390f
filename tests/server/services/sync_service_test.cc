// The sync routes end to end over HTTP, on both stores: push and pull,
// exactly-once application, and the refusal of bad requests (which must
// change nothing).

#include <gtest/gtest.h>

#include <atomic>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "server/http/http_session.h"
#include "tests/server/server_fixture.h"

namespace ensemble::testing {
namespace {

using nlohmann::json;

constexpr int64_t kClientTime = 1'764'000'000'000;
constexpr char kClientId[] = "client-a";
constexpr char kGroupId[] = "group-a";

// A valid record id (26 Crockford base32 characters) numbered n.
std::string TaskId(int n) {
  std::string digits = std::to_string(n);
  return "01J" + std::string(23 - digits.size(), '0') + digits;
}

json CreateTask(int64_t mutation_id, int task, const std::string& title) {
  return {{"id", mutation_id},
          {"name", "task.create"},
          {"args", {{"id", TaskId(task)}, {"spaceId", "personal"}, {"title", title}}},
          {"clientTime", kClientTime + mutation_id}};
}

json UpdateTitle(int64_t mutation_id, int task, const std::string& title) {
  return {{"id", mutation_id},
          {"name", "task.update"},
          {"args", {{"id", TaskId(task)}, {"fields", {{"title", title}}}}},
          {"clientTime", kClientTime + mutation_id}};
}

json PushBody(std::vector<json> mutations, const std::string& client_id = kClientId) {
  return {{"clientGroupId", kGroupId}, {"clientId", client_id}, {"mutations", mutations}};
}

std::vector<std::string> Statuses(const json& push_response) {
  std::vector<std::string> out;
  for (const json& r : push_response["results"]) out.push_back(r["status"].get<std::string>());
  return out;
}

class SyncRoutes : public ServerTest {
 protected:
  HttpReply Push(const json& body) { return client().PostJson("/api/sync/push", body); }
  HttpReply Pull(int64_t cursor, const std::string& client_id = kClientId) {
    return client().Get("/api/sync/pull?clientId=" + client_id +
                        "&cursor=" + std::to_string(cursor));
  }

  // Nothing a refused request could have written exists.
  void ExpectStoreUntouched() {
    EXPECT_EQ(QueryInt("SELECT COUNT(*) FROM tasks"), 0);
    EXPECT_EQ(QueryInt("SELECT COUNT(*) FROM sync_clients"), 0);
    EXPECT_EQ(QueryInt("SELECT int_value FROM sync_state WHERE key = 'server_version'"), 0);
  }

  int64_t TaskVersion(int task) {
    return QueryInt("SELECT version FROM tasks WHERE id = '" + TaskId(task) + "'");
  }
};

TEST_P(SyncRoutes, HealthzReportsTheStore) {
  HttpReply r = client().Get("/healthz");
  ASSERT_EQ(r.status, 200) << r.error << r.body();
  EXPECT_EQ(r.header(boost::beast::http::field::content_type), "application/json");
  EXPECT_EQ(r.json()["ok"], true);
  EXPECT_EQ(r.json()["store"], GetParam() == StoreKind::kSqlite ? "sqlite" : "postgres");
  // SQLite pokes stay in the process; PostgreSQL's travel by LISTEN/NOTIFY.
  if (GetParam() == StoreKind::kSqlite) {
    EXPECT_EQ(r.json()["pokes"], "in-process");
  }
}

TEST_P(SyncRoutes, PushThenPullReturnsTheTaskRowsAndLastMutationId) {
  HttpReply push = Push(PushBody({CreateTask(1, 1, "Write the brief"), CreateTask(2, 2, "Ship")}));
  ASSERT_EQ(push.status, 200) << push.error << push.body();
  EXPECT_EQ(push.json()["lastMutationId"], 2);
  EXPECT_EQ(Statuses(push.json()), (std::vector<std::string>{"applied", "applied"}));

  HttpReply pull = Pull(0);
  ASSERT_EQ(pull.status, 200) << pull.error << pull.body();
  json p = pull.json();
  EXPECT_EQ(p["lastMutationId"], 2);
  EXPECT_EQ(p["cursor"], 2);
  EXPECT_EQ(p["more"], false);
  ASSERT_EQ(p["changes"].size(), 2u);
  EXPECT_EQ(p["changes"][0]["kind"], "task");
  const json& row = p["changes"][0]["row"];
  EXPECT_EQ(row["id"], TaskId(1));
  EXPECT_EQ(row["title"], "Write the brief");
  EXPECT_EQ(row["space_id"], "personal");
  EXPECT_EQ(row["status"], "todo");
  EXPECT_EQ(row["due"], nullptr);
  EXPECT_EQ(row["version"], 1);
  EXPECT_EQ(row["deleted"], 0);
  EXPECT_EQ(row["created_at"], kClientTime + 1);
  EXPECT_EQ(row["row_version"], 1);
  EXPECT_EQ(p["changes"][1]["row"]["title"], "Ship");

  // From the returned cursor there is nothing new.
  HttpReply again = Pull(2);
  ASSERT_EQ(again.status, 200) << again.body();
  EXPECT_TRUE(again.json()["changes"].empty());
  EXPECT_EQ(again.json()["lastMutationId"], 2);
}

TEST_P(SyncRoutes, SameBatchPushedTwiceAppliesOnce) {
  json batch = PushBody({CreateTask(1, 1, "One"), UpdateTitle(2, 1, "One, renamed")});
  HttpReply first = Push(batch);
  ASSERT_EQ(first.status, 200) << first.body();
  EXPECT_EQ(Statuses(first.json()), (std::vector<std::string>{"applied", "applied"}));

  HttpReply second = Push(batch);
  ASSERT_EQ(second.status, 200) << second.body();
  EXPECT_EQ(second.json()["lastMutationId"], 2);
  EXPECT_EQ(Statuses(second.json()), (std::vector<std::string>{"skipped", "skipped"}));

  EXPECT_EQ(QueryInt("SELECT COUNT(*) FROM tasks"), 1);
  EXPECT_EQ(TaskVersion(1), 2);  // Created, then updated once: not twice.
  EXPECT_EQ(QueryInt("SELECT int_value FROM sync_state WHERE key = 'server_version'"), 2);
  EXPECT_EQ(QueryInt("SELECT last_mutation_id FROM sync_clients"), 2);
}

TEST_P(SyncRoutes, BatchRetriedAfterItsResponseWasLostAppliesEachOnce) {
  ASSERT_EQ(
      Push(PushBody({CreateTask(1, 1, "a"), CreateTask(2, 2, "b"), CreateTask(3, 3, "c")})).status,
      200);
  // The client never saw that answer: it re-sends 1..3 with a new mutation 4.
  HttpReply retry = Push(PushBody({CreateTask(1, 1, "a"), CreateTask(2, 2, "b"),
                                   CreateTask(3, 3, "c"), UpdateTitle(4, 1, "a2")}));
  ASSERT_EQ(retry.status, 200) << retry.body();
  EXPECT_EQ(Statuses(retry.json()),
            (std::vector<std::string>{"skipped", "skipped", "skipped", "applied"}));
  EXPECT_EQ(retry.json()["lastMutationId"], 4);

  EXPECT_EQ(QueryInt("SELECT COUNT(*) FROM tasks"), 3);
  EXPECT_EQ(TaskVersion(1), 2);
  EXPECT_EQ(TaskVersion(2), 1);
  EXPECT_EQ(TaskVersion(3), 1);
  EXPECT_EQ(QueryInt("SELECT int_value FROM sync_state WHERE key = 'server_version'"), 4);
}

TEST_P(SyncRoutes, MutationFromTheFutureIsRefused) {
  ASSERT_EQ(Push(PushBody({CreateTask(1, 1, "a")})).status, 200);
  HttpReply r = Push(PushBody({CreateTask(3, 3, "gap before me")}));
  ASSERT_EQ(r.status, 200) << r.body();
  json j = r.json();
  EXPECT_EQ(j["lastMutationId"], 1);
  ASSERT_EQ(j["results"].size(), 1u);
  EXPECT_EQ(j["results"][0]["status"], "refused");
  EXPECT_EQ(j["results"][0]["code"], "MUTATION_FROM_FUTURE");
  EXPECT_EQ(QueryInt("SELECT COUNT(*) FROM tasks"), 1);
}

TEST_P(SyncRoutes, MalformedJsonIs400AndChangesNothing) {
  for (std::string body : {"{not json", "", "[1, 2", "{\"clientId\": \"a\"} trailing"}) {
    HttpReply r = client().Post("/api/sync/push", body);
    EXPECT_EQ(r.status, 400) << body;
    EXPECT_EQ(r.error_code(), "MALFORMED_JSON") << body << " -> " << r.body();
  }
  // Deeply nested JSON is refused before anything walks it.
  HttpReply deep =
      client().Post("/api/sync/push", std::string(100000, '[') + std::string(100000, ']'));
  EXPECT_EQ(deep.status, 400);
  EXPECT_EQ(deep.error_code(), "MALFORMED_JSON");
  ExpectStoreUntouched();
}

TEST_P(SyncRoutes, WrongSchemaIs400InvalidArgument) {
  json valid = PushBody({CreateTask(1, 1, "a")});
  std::vector<json> bad = {
      json::array(),
      json{{"clientId", kClientId}, {"mutations", json::array()}},  // No clientGroupId.
      [&] {
        json b = valid;
        b["clientId"] = 7;
        return b;
      }(),
      [&] {
        json b = valid;
        b["mutations"] = "none";
        return b;
      }(),
      [&] {
        json b = valid;
        b["mutations"][0]["id"] = 0;
        return b;
      }(),
      [&] {
        json b = valid;
        b["mutations"][0].erase("clientTime");
        return b;
      }(),
      [&] {
        json b = valid;
        b["mutations"][0]["args"] = "x";
        return b;
      }(),
      PushBody({CreateTask(2, 1, "a"), CreateTask(1, 2, "b")}),  // Ids must increase.
  };
  for (const json& body : bad) {
    HttpReply r = Push(body);
    EXPECT_EQ(r.status, 400) << body.dump();
    EXPECT_EQ(r.error_code(), "INVALID_ARGUMENT") << body.dump() << " -> " << r.body();
  }
  ExpectStoreUntouched();
}

TEST_P(SyncRoutes, ClientOfAnotherGroupIsRefusedAndChangesNothing) {
  ASSERT_EQ(Push(PushBody({CreateTask(1, 1, "a")})).status, 200);
  json body = PushBody({CreateTask(2, 2, "b")});
  body["clientGroupId"] = "group-b";
  HttpReply r = Push(body);
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.error_code(), "INVALID_ARGUMENT");
  EXPECT_EQ(QueryInt("SELECT COUNT(*) FROM tasks"), 1);
  EXPECT_EQ(QueryInt("SELECT last_mutation_id FROM sync_clients"), 1);
}

TEST_P(SyncRoutes, UnknownMutationIs400AndNothingFromTheBatchApplies) {
  json explode = {
      {"id", 2}, {"name", "task.explode"}, {"args", json::object()}, {"clientTime", kClientTime}};
  HttpReply r = Push(PushBody({CreateTask(1, 1, "a"), explode}));
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.error_code(), "UNKNOWN_MUTATION") << r.body();
  ExpectStoreUntouched();
}

TEST_P(SyncRoutes, BodyOverTheLimitIs413) {
  // Valid JSON padded past the limit: only the size is wrong.
  std::string body = PushBody({CreateTask(1, 1, "a")}).dump();
  body.insert(1, server::http::kMaxRequestBodyBytes + 1 - body.size(), ' ');
  ASSERT_EQ(body.size(), server::http::kMaxRequestBodyBytes + 1);
  HttpReply r = client().Post("/api/sync/push", body);
  EXPECT_EQ(r.status, 413) << r.error;
  EXPECT_EQ(r.error_code(), "BODY_TOO_LARGE");
  ExpectStoreUntouched();

  // The server is still serving.
  EXPECT_EQ(client().Get("/healthz").status, 200);
}

TEST_P(SyncRoutes, BodyAtTheLimitIsAccepted) {
  std::string body = PushBody({CreateTask(1, 1, "a")}).dump();
  body.insert(1, server::http::kMaxRequestBodyBytes - body.size(), ' ');
  HttpReply r = client().Post("/api/sync/push", body);
  ASSERT_EQ(r.status, 200) << r.error << r.body();
  EXPECT_EQ(Statuses(r.json()), (std::vector<std::string>{"applied"}));
}

TEST_P(SyncRoutes, RejectedMutationDoesNotBlockTheRest) {
  HttpReply r = Push(
      PushBody({CreateTask(1, 1, "a"), UpdateTitle(2, 99, "no such task"), CreateTask(3, 3, "c")}));
  ASSERT_EQ(r.status, 200) << r.body();
  json j = r.json();
  EXPECT_EQ(Statuses(j), (std::vector<std::string>{"applied", "rejected", "applied"}));
  EXPECT_EQ(j["results"][1]["code"], "NOT_FOUND");
  EXPECT_TRUE(j["results"][1]["message"].is_string());
  EXPECT_EQ(j["lastMutationId"], 3);
  EXPECT_EQ(QueryInt("SELECT COUNT(*) FROM tasks"), 2);
  EXPECT_EQ(TaskVersion(1), 1);
  // The rejected mutation is consumed: a retry does not run it again, and
  // repeats its verdict (the first response may never have arrived).
  HttpReply retry = Push(PushBody({UpdateTitle(2, 99, "no such task")}));
  EXPECT_EQ(Statuses(retry.json()), (std::vector<std::string>{"rejected"}));
  EXPECT_EQ(retry.json()["results"][0]["code"], "NOT_FOUND");
  EXPECT_EQ(QueryInt("SELECT COUNT(*) FROM tasks"), 2);
}

TEST_P(SyncRoutes, PullValidatesItsQuery) {
  HttpReply bad_cursor = client().Get("/api/sync/pull?clientId=a&cursor=abc");
  EXPECT_EQ(bad_cursor.status, 400);
  EXPECT_EQ(bad_cursor.error_code(), "INVALID_ARGUMENT");
  HttpReply negative = client().Get("/api/sync/pull?clientId=a&cursor=-1");
  EXPECT_EQ(negative.error_code(), "INVALID_ARGUMENT");
  HttpReply no_client = client().Get("/api/sync/pull?cursor=0");
  EXPECT_EQ(no_client.status, 400);
  EXPECT_EQ(no_client.error_code(), "INVALID_ARGUMENT");
  HttpReply bad_escape = client().Get("/api/sync/pull?clientId=%zz");
  EXPECT_EQ(bad_escape.error_code(), "INVALID_ARGUMENT");

  // A client the server has never seen starts from nothing.
  HttpReply fresh = client().Get("/api/sync/pull?clientId=new%20client&cursor=0");
  ASSERT_EQ(fresh.status, 200) << fresh.body();
  EXPECT_EQ(fresh.json()["lastMutationId"], 0);
  EXPECT_TRUE(fresh.json()["changes"].empty());
}

TEST_P(SyncRoutes, WrongMethodIs405) {
  HttpReply get_push = client().Get("/api/sync/push");
  EXPECT_EQ(get_push.status, 405);
  EXPECT_EQ(get_push.error_code(), "METHOD_NOT_ALLOWED");
  EXPECT_EQ(get_push.header(boost::beast::http::field::allow), "POST");
  HttpReply delete_pull = client().Send(boost::beast::http::verb::delete_, "/api/sync/pull");
  EXPECT_EQ(delete_pull.status, 405);
}

TEST_P(SyncRoutes, ConnectionIsKeptAlive) {
  HttpConnection connection(port());
  HttpReply first = connection.Send(boost::beast::http::verb::get, "/healthz");
  ASSERT_EQ(first.status, 200) << first.error;
  ASSERT_TRUE(connection.is_open());
  HttpReply second = connection.Send(boost::beast::http::verb::post, "/api/sync/push",
                                     PushBody({CreateTask(1, 1, "a")}).dump());
  EXPECT_EQ(second.status, 200) << second.error;
}

// Pushes from many clients at once run on several store connections (on
// PostgreSQL); a client pulling meanwhile must still see every row, once the
// pushes are done and it has caught up, and versions must number the applied
// changes without gaps or repeats.
TEST_P(SyncRoutes, ConcurrentPushesAllApplyAndAPullMeanwhileMissesNothing) {
  constexpr int kPushers = 6;
  constexpr int kPushesEach = 20;
  std::atomic<int> failures{0};
  std::atomic<bool> done{false};
  std::set<std::string> seen;
  int64_t cursor = 0;
  auto pull_all = [&](const HttpClient& reader) {
    for (bool more = true; more;) {
      HttpReply r = reader.Get("/api/sync/pull?clientId=reader&cursor=" + std::to_string(cursor));
      if (r.status != 200) {
        ++failures;
        return;
      }
      json page = r.json();
      for (const json& c : page["changes"]) seen.insert(c["row"]["id"].get<std::string>());
      cursor = page["cursor"].get<int64_t>();
      more = page["more"].get<bool>();
    }
  };
  std::thread reader_thread([&] {
    HttpClient reader(port());
    while (!done) pull_all(reader);
  });
  std::vector<std::thread> pushers;
  for (int p = 0; p < kPushers; ++p) {
    pushers.emplace_back([&, p] {
      HttpClient mine(port());
      const std::string client_id = "pusher-" + std::to_string(p);
      for (int i = 1; i <= kPushesEach; ++i) {
        json body = {{"clientGroupId", "group-" + client_id},
                     {"clientId", client_id},
                     {"mutations", {CreateTask(i, p * 1000 + i, "t")}}};
        HttpReply r = mine.PostJson("/api/sync/push", body);
        if (r.status != 200 || r.json()["results"][0]["status"] != "applied") ++failures;
      }
    });
  }
  for (auto& t : pushers) t.join();
  done = true;
  reader_thread.join();
  pull_all(client());
  ASSERT_EQ(failures.load(), 0);

  constexpr int kTotal = kPushers * kPushesEach;
  EXPECT_EQ(seen.size(), static_cast<size_t>(kTotal));
  EXPECT_EQ(QueryInt("SELECT COUNT(*) FROM tasks"), kTotal);
  EXPECT_EQ(QueryInt("SELECT COUNT(DISTINCT row_version) FROM tasks"), kTotal);
  EXPECT_EQ(QueryInt("SELECT MIN(row_version) FROM tasks"), 1);
  EXPECT_EQ(QueryInt("SELECT MAX(row_version) FROM tasks"), kTotal);
  EXPECT_EQ(QueryInt("SELECT int_value FROM sync_state WHERE key = 'server_version'"), kTotal);
  EXPECT_EQ(QueryInt("SELECT MIN(last_mutation_id) FROM sync_clients"), kPushesEach);
}

INSTANTIATE_TEST_SUITE_P(Server, SyncRoutes,
                         ::testing::Values(StoreKind::kSqlite, StoreKind::kPostgres),
                         StoreKindTestName);

}  // namespace
}  // namespace ensemble::testing
