// The App's own routes: GET /metrics (what it counts, who may read it) and
// the request id every answer carries.

#include "server/app.h"

#include <gtest/gtest.h>

#include <chrono>
#include <regex>
#include <set>
#include <string>
#include <thread>

#include "tests/server/event_client.h"
#include "tests/server/server_fixture.h"

namespace ensemble::testing {
namespace {

using boost::beast::http::field;
using nlohmann::json;

// server::http::kRequestIdHeader, as the client takes a header name.
constexpr char kRequestId[] = "X-Request-Id";

json CreateTask(int64_t mutation_id, const std::string& task_id) {
  return {{"id", mutation_id},
          {"name", "task.create"},
          {"args", {{"id", task_id}, {"spaceId", "personal"}, {"title", "Count me"}}},
          {"clientTime", 1'764'000'000'000 + mutation_id}};
}

class AppMetrics : public ServerTest {
 protected:
  void Configure(server::Config& config) override {
    config.sse_heartbeat = std::chrono::milliseconds(50);
  }

  std::string Scrape() {
    HttpReply r = client().Get("/metrics");
    EXPECT_EQ(r.status, 200) << r.body();
    EXPECT_EQ(r.header(field::content_type), "text/plain; version=0.0.4; charset=utf-8");
    return r.body();
  }

  // True when a line of the scrape is exactly `line`.
  static bool Has(const std::string& scrape, const std::string& line) {
    return ("\n" + scrape).find("\n" + line + "\n") != std::string::npos;
  }

  // Scrapes until `line` shows, for at most two seconds.
  bool ShowsSoon(const std::string& line) {
    for (int i = 0; i < 40; ++i) {
      if (Has(Scrape(), line)) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
  }
};

TEST_P(AppMetrics, CountsRequestsByRoutePushesAndMutations) {
  const std::string scrape_before = Scrape();
  EXPECT_TRUE(Has(scrape_before, "ensemble_sync_pushes_total{result=\"ok\"} 0")) << scrape_before;
  EXPECT_TRUE(Has(scrape_before, "ensemble_event_streams_open 0")) << scrape_before;

  json push = {
      {"clientGroupId", "g"},
      {"clientId", "c"},
      {"mutations",
       {CreateTask(1, "01J00000000000000000000001"), CreateTask(2, "01J00000000000000000000002")}}};
  ASSERT_EQ(client().PostJson("/api/sync/push", push).status, 200);
  ASSERT_EQ(client().PostJson("/api/sync/push", push).status, 200);  // Both skipped now.
  EXPECT_EQ(client().PostJson("/api/sync/push", json{{"clientId", 3}}).status, 400);

  const std::string scrape = Scrape();
  for (
      const char* line : {
          "ensemble_sync_pushes_total{result=\"ok\"} 2",
          "ensemble_sync_pushes_total{result=\"error\"} 1",
          "ensemble_sync_mutations_total{status=\"applied\"} 2",
          "ensemble_sync_mutations_total{status=\"skipped\"} 2",
          "ensemble_http_requests_total{method=\"POST\",route=\"/api/sync/push\",status=\"200\"} 2",
          "ensemble_http_requests_total{method=\"POST\",route=\"/api/sync/push\",status=\"400\"} 1",
          "ensemble_http_request_duration_seconds_count{method=\"POST\",route=\"/api/sync/push\"} "
          "3",
          // The first scrape is counted under its own route.
          "ensemble_http_requests_total{method=\"GET\",route=\"/metrics\",status=\"200\"} 1",
      }) {
    EXPECT_TRUE(Has(scrape, line)) << line << "\n" << scrape;
  }
  // A method of the client's own making is one label, whatever the word.
  EXPECT_EQ(client().SendMethod("BREW", "/api/sync/push").status, 405);
  EXPECT_EQ(client().SendMethod("STEEP", "/api/sync/push").status, 405);
  EXPECT_TRUE(Has(Scrape(),
                  "ensemble_http_requests_total{method=\"OTHER\",route=\"/api/sync/push\","
                  "status=\"405\"} 2"));
  // Paths no route names are one series, whatever the path.
  client().Get("/no/such/file.txt");
  client().Get("/nor/this.txt");
  EXPECT_TRUE(Has(Scrape(),
                  "ensemble_http_requests_total{method=\"GET\",route=\"static\","
                  "status=\"404\"} 2"));
  EXPECT_NE(scrape.find("ensemble_store_wait_seconds_count "), std::string::npos);
}

TEST_P(AppMetrics, CountsOpenEventStreams) {
  {
    EventClient events(port());
    ASSERT_EQ(events.WaitForStatus(), 200);
    EXPECT_TRUE(ShowsSoon("ensemble_event_streams_open 1"));
  }
  // The closed stream is noticed at its next heartbeat.
  EXPECT_TRUE(ShowsSoon("ensemble_event_streams_open 0"));
}

TEST_P(AppMetrics, CountsStreamsWithTheOtherRequestsOnceTheyEnd) {
  {
    EventClient events(port());
    ASSERT_EQ(events.WaitForStatus(), 200);
  }
  EXPECT_EQ(client().Post("/api/assistant/conversations/c1/messages", "not json").status, 400);
  // The closed stream ends at its next heartbeat; the refused turn at once.
  EXPECT_TRUE(ShowsSoon(
      "ensemble_http_requests_total{method=\"GET\",route=\"/api/events\",status=\"200\"} 1"));
  const std::string scrape = Scrape();
  EXPECT_TRUE(Has(scrape,
                  "ensemble_http_requests_total{method=\"POST\","
                  "route=\"/api/assistant/conversations/:id/messages\",status=\"400\"} 1"))
      << scrape;
  // A stream's lifetime is not a latency: no duration series for it.
  EXPECT_EQ(scrape.find("ensemble_http_request_duration_seconds_count{method=\"GET\","
                        "route=\"/api/events\"}"),
            std::string::npos)
      << scrape;
}

TEST_P(AppMetrics, EveryAnswerCarriesARequestId) {
  EXPECT_EQ(client().Get("/healthz", {{kRequestId, "trace-42.a:b_c"}}).header(kRequestId),
            "trace-42.a:b_c");
  // Not a plain token, or too long: the server names the request itself.
  const std::regex generated("[0-9a-f]{8}-[0-9a-f]+");
  std::set<std::string> seen;
  for (const std::string& given : {std::string("two words"), std::string(65, 'a'), std::string()}) {
    const std::string id = client().Get("/healthz", {{kRequestId, given}}).header(kRequestId);
    EXPECT_TRUE(std::regex_match(id, generated)) << id;
    seen.insert(id);
  }
  EXPECT_EQ(seen.size(), 3u);
  // Refusals and errors too.
  EXPECT_FALSE(client().Get("/no/such/file").header(kRequestId).empty());
  // And streams, which write their own answers: the event stream's, and a
  // turn's refused before it streams (its body is not a message).
  EventClient events(port());
  ASSERT_EQ(events.WaitForStatus(), 200);
  EXPECT_TRUE(std::regex_search(events.received(),
                                std::regex("\r\nX-Request-Id: [0-9a-f]{8}-[0-9a-f]+\r\n")))
      << events.received();
  HttpReply turn = client().Post("/api/assistant/conversations/c1/messages", "not json");
  EXPECT_EQ(turn.status, 400);
  EXPECT_TRUE(std::regex_match(turn.header(kRequestId), generated)) << turn.header(kRequestId);
}

INSTANTIATE_TEST_SUITE_P(Server, AppMetrics,
                         ::testing::Values(StoreKind::kSqlite, StoreKind::kPostgres),
                         StoreKindTestName);

class AppMetricsToken : public ServerTest {
 protected:
  void Configure(server::Config& config) override { config.metrics_token = "s3cret-token"; }
};

TEST_P(AppMetricsToken, AScrapeNeedsTheTokenWhenOneIsSet) {
  EXPECT_EQ(client().Get("/metrics").status, 401);
  EXPECT_EQ(client().Get("/metrics", {{field::authorization, "Bearer s3cret-toke"}}).status, 401);
  EXPECT_EQ(client().Get("/metrics", {{field::authorization, "Bearer s3cret-tokenX"}}).status, 401);
  HttpReply ok = client().Get("/metrics", {{field::authorization, "Bearer s3cret-token"}});
  EXPECT_EQ(ok.status, 200);
  EXPECT_NE(ok.body().find("# TYPE ensemble_http_requests_total counter"), std::string::npos);
  EXPECT_EQ(ok.body().find("s3cret"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Server, AppMetricsToken, ::testing::Values(StoreKind::kSqlite),
                         StoreKindTestName);

}  // namespace
}  // namespace ensemble::testing
