// GET /api/events (Server-Sent Events pokes) over HTTP, on both stores: a
// push that applied something pokes every subscriber with the new version;
// one that applied nothing does not; heartbeats; the subscriber limit and
// what frees a place; server stop. And, on PostgreSQL, two real server
// processes on one database: a push to one pokes the other's subscribers
// through LISTEN/NOTIFY, also after the listening connection was cut.

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "server/events/event_stream.h"
#include "server/events/pg_poke_listener.h"
#include "tests/server/event_client.h"
#include "tests/server/server_fixture.h"
#include "tests/server/server_process.h"

namespace ensemble::testing {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

constexpr int64_t kClientTime = 1'764'000'000'000;
constexpr size_t kTestSubscriberLimit = 2;
// Long enough that a missing event is missing, short enough for the suite.
constexpr auto kQuietPeriod = 300ms;
constexpr auto kPokeTimeout = 5s;

std::string TaskId(int n) {
  std::string digits = std::to_string(n);
  return "01J" + std::string(23 - digits.size(), '0') + digits;
}

json CreateTask(int64_t mutation_id, int task) {
  return {{"id", mutation_id},
          {"name", "task.create"},
          {"args", {{"id", TaskId(task)}, {"spaceId", "personal"}, {"title", "t"}}},
          {"clientTime", kClientTime + mutation_id}};
}

json PushBody(std::vector<json> mutations, const std::string& client_id = "client-a") {
  return {
      {"clientGroupId", "group-" + client_id}, {"clientId", client_id}, {"mutations", mutations}};
}

class Events : public ServerTest {
 protected:
  void Configure(server::Config& config) override {
    config.max_event_subscribers = kTestSubscriberLimit;
  }
  HttpReply Push(const json& body) { return client().PostJson("/api/sync/push", body); }
};

TEST_P(Events, PushThatAppliesPokesEverySubscriber) {
  EventClient first(port());
  EventClient second(port());
  ASSERT_EQ(first.WaitForStatus(), 200) << first.received();
  ASSERT_EQ(second.WaitForStatus(), 200) << second.received();
  EXPECT_NE(first.received().find("Content-Type: text/event-stream"), std::string::npos)
      << first.received();

  ASSERT_EQ(Push(PushBody({CreateTask(1, 1), CreateTask(2, 2)})).status, 200);
  const std::string poke = server::events::PokeEventText(2);
  EXPECT_EQ(poke, "event: poke\ndata: {\"version\": 2}\n\n");
  EXPECT_TRUE(first.WaitFor(poke, kPokeTimeout)) << first.received();
  EXPECT_TRUE(second.WaitFor(poke, kPokeTimeout)) << second.received();
}

TEST_P(Events, PushThatAppliesNothingDoesNotPoke) {
  EventClient events(port());
  ASSERT_EQ(events.WaitForStatus(), 200);
  ASSERT_EQ(Push(PushBody({CreateTask(1, 1)})).status, 200);
  ASSERT_TRUE(events.WaitFor(server::events::PokeEventText(1), kPokeTimeout));

  // Already applied: skipped. A gap: refused. Neither changes anything.
  ASSERT_EQ(Push(PushBody({CreateTask(1, 1)})).status, 200);
  ASSERT_EQ(Push(PushBody({CreateTask(5, 5)})).status, 200);
  EXPECT_EQ(events.ReadFor(kQuietPeriod).find("event:"), std::string::npos) << events.received();

  // The next real change is the next poke.
  ASSERT_EQ(Push(PushBody({CreateTask(2, 2)})).status, 200);
  EXPECT_TRUE(events.WaitFor(server::events::PokeEventText(2), kPokeTimeout)) << events.received();
}

TEST_P(Events, SubscribersBeyondTheLimitGet503UntilOneLeaves) {
  auto first = std::make_unique<EventClient>(port());
  EventClient second(port());
  ASSERT_EQ(first->WaitForStatus(), 200);
  ASSERT_EQ(second.WaitForStatus(), 200);

  EventClient refused(port());
  EXPECT_EQ(refused.WaitForStatus(), 503) << refused.received();
  EXPECT_NE(refused.received().find("TOO_MANY_SUBSCRIBERS"), std::string::npos);
  EXPECT_NE(refused.received().find("Retry-After:"), std::string::npos);
  EXPECT_TRUE(refused.WaitForClose());

  // A subscriber that disconnects frees its place promptly (the server reads
  // the close; it does not wait for a heartbeat to fail).
  first->Close();
  bool admitted = false;
  for (auto deadline = std::chrono::steady_clock::now() + kPokeTimeout;
       !admitted && std::chrono::steady_clock::now() < deadline;) {
    EventClient again(port());
    admitted = again.WaitForStatus() == 200;
    if (!admitted) std::this_thread::sleep_for(50ms);
  }
  EXPECT_TRUE(admitted);
  // Ordinary requests are not limited by it.
  EXPECT_EQ(client().Get("/healthz").status, 200);
}

TEST_P(Events, HeadAndPostAreNotAllowed) {
  EXPECT_EQ(client().Head("/api/events").status, 405);
  HttpReply post = client().Post("/api/events", "{}");
  EXPECT_EQ(post.status, 405);
  EXPECT_EQ(post.header(boost::beast::http::field::allow), "GET");
}

TEST_P(Events, ServerStopEndsTheStream) {
  EventClient events(port());
  ASSERT_EQ(events.WaitForStatus(), 200);
  StopServer();
  EXPECT_TRUE(events.WaitForClose());
}

INSTANTIATE_TEST_SUITE_P(Server, Events,
                         ::testing::Values(StoreKind::kSqlite, StoreKind::kPostgres),
                         StoreKindTestName);

class Heartbeat : public ServerTest {
 protected:
  void Configure(server::Config& config) override { config.sse_heartbeat = 100ms; }
};

TEST_P(Heartbeat, IdleStreamGetsCommentLines) {
  EventClient events(port());
  ASSERT_EQ(events.WaitForStatus(), 200);
  EXPECT_TRUE(events.WaitFor(": ping\n\n", kPokeTimeout));
  EXPECT_TRUE(events.WaitFor(": ping\n\n", kPokeTimeout)) << "pings repeat";
}

INSTANTIATE_TEST_SUITE_P(Server, Heartbeat, ::testing::Values(StoreKind::kSqlite),
                         StoreKindTestName);

// --- Two server processes on one PostgreSQL database. ---

TEST(TwoProcesses, PushToOnePokesTheOthersSubscribers) {
  ENSEMBLE_SKIP_IF_STORE_MISSING(StoreKind::kPostgres);
  auto store = ScratchStore::Create(StoreKind::kPostgres);
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  const std::map<std::string, std::string> env = (*store)->ProcessEnv();
  auto one = ServerProcess::Start(env);
  ASSERT_TRUE(one.ok()) << one.status().ToString();
  auto two = ServerProcess::Start(env);
  ASSERT_TRUE(two.ok()) << two.status().ToString();
  ASSERT_TRUE((*one)->WaitUntilListening(kPokeTimeout));
  ASSERT_TRUE((*two)->WaitUntilListening(kPokeTimeout));

  EventClient events((*two)->port());
  ASSERT_EQ(events.WaitForStatus(), 200);
  HttpClient push_client((*one)->port());
  ASSERT_EQ(push_client.PostJson("/api/sync/push", PushBody({CreateTask(1, 1)})).status, 200);
  EXPECT_TRUE(events.WaitFor(server::events::PokeEventText(1), kPokeTimeout)) << events.received();

  // Cut process two's listening connection: it reconnects, and pokes flow again.
  auto admin = (*store)->Connect();
  ASSERT_TRUE(admin.ok()) << admin.status().ToString();
  ASSERT_TRUE((*admin)
                  ->Exec(std::string("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                                     " WHERE application_name = '") +
                         server::events::kListenApplicationName + "'")
                  .ok());
  std::this_thread::sleep_for(100ms);
  ASSERT_TRUE((*one)->WaitUntilListening(kPokeTimeout));
  ASSERT_TRUE((*two)->WaitUntilListening(kPokeTimeout));
  ASSERT_EQ(push_client.PostJson("/api/sync/push", PushBody({CreateTask(2, 2)})).status, 200);
  EXPECT_TRUE(events.WaitFor(server::events::PokeEventText(2), kPokeTimeout)) << events.received();
  admin->reset();
  (*two)->Stop();
  (*one)->Stop();
}

}  // namespace
}  // namespace ensemble::testing
