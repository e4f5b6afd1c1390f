// Per-account and per-process caps (docs/SECURITY.md, "Hostile model
// answers and heavy requests"): one account holds at most 20 event streams
// in a process, and a process serves at most ENSEMBLE_MAX_CONNECTIONS
// connections at once, answering one more 503 at once instead of queueing
// it, and a space keeps at most kMaxRecordsPerSpace records, on either
// store. (Turns and conversations per account: tests/core/assistant.)

#include <gtest/gtest.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/write.hpp>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/sync/space_records.h"
#include "server/events/poke_hub.h"
#include "tests/server/accounts_fixture.h"

namespace ensemble::testing {
namespace {

namespace net = boost::asio;
namespace bhttp = boost::beast::http;
using nlohmann::json;

constexpr size_t kConnectionCap = 4;
constexpr int kFreedWaitRounds = 100;
constexpr auto kFreedWaitStep = std::chrono::milliseconds(20);

// One raw connection that sends `request` and reads the response's status
// and headers only, then stays open (an event stream never ends).
class RawConnection {
 public:
  RawConnection(uint16_t port, const std::string& request) : socket_(ioc_) {
    boost::system::error_code ec;
    socket_.connect({net::ip::make_address("127.0.0.1"), port}, ec);
    if (ec) return;
    timeval tv{kClientTimeoutSeconds, 0};
    setsockopt(socket_.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    if (!request.empty()) net::write(socket_, net::buffer(request), ec);
  }
  // The status code of the response's first line; 0 when none came.
  int Status() {
    boost::system::error_code ec;
    net::read_until(socket_, buffer_, "\r\n\r\n", ec);
    const std::string head(static_cast<const char*>(buffer_.data().data()), buffer_.size());
    if (head.rfind("HTTP/1.1 ", 0) != 0) return 0;
    head_ = head;
    return std::atoi(head.c_str() + 9);
  }
  const std::string& head() const { return head_; }

 private:
  net::io_context ioc_;
  net::ip::tcp::socket socket_;
  net::streambuf buffer_;
  std::string head_;
};

std::string EventsRequest(const std::string& cookie) {
  return "GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\nCookie: " +
         cookie + "\r\n\r\n";
}

class Caps : public AccountsServerTest {
 protected:
  void Configure(server::Config& config) override {
    config.accounts = true;
    config.open_signup = true;
    config.private_links = false;
  }
};

TEST_P(Caps, AnAccountHoldsAtMostTwentyEventStreams) {
  Member ana = SignedUp("ana@example.org");
  Member bo = SignedUp("bo@example.org");
  std::vector<std::unique_ptr<RawConnection>> open;
  for (size_t i = 0; i < server::events::kMaxEventStreamsPerAccount; ++i) {
    open.push_back(std::make_unique<RawConnection>(app().port(), EventsRequest(ana.cookie)));
    ASSERT_EQ(open.back()->Status(), 200) << "stream " << i;
  }
  // A stream's head carries the security headers too.
  EXPECT_NE(open.front()->head().find("Content-Security-Policy: default-src 'self'"),
            std::string::npos)
      << open.front()->head();
  RawConnection one_more(app().port(), EventsRequest(ana.cookie));
  EXPECT_EQ(one_more.Status(), 429);
  EXPECT_NE(one_more.head().find("Retry-After"), std::string::npos) << one_more.head();
  RawConnection bos(app().port(), EventsRequest(bo.cookie));
  EXPECT_EQ(bos.Status(), 200);  // Another account is not held up.
}

TEST_P(Caps, ASpaceKeepsAtMostItsRecordCap) {
  constexpr int64_t kClientNow = 1'764'000'000'000;  // The fixture's FakeClock.
  Member ana = SignedUp("ana@example.org");
  const std::string space = MakeSpace(ana, "Crowded");
  auto push = [&](int64_t id) {
    const std::string task = "01J0000000000000000000000" + std::to_string(id);
    json body = {{"clientGroupId", "g"},
                 {"clientId", "c"},
                 {"mutations",
                  {{{"id", id},
                    {"name", "task.create"},
                    {"args", {{"id", task}, {"spaceId", space}, {"title", "t" + task}}},
                    {"clientTime", kClientNow}}}}};
    HttpReply r = Call(ana, bhttp::verb::post, "/api/sync/push", body);
    EXPECT_EQ(r.status, 200) << r.body();
    return r.json()["results"][0];
  };
  ASSERT_EQ(push(1)["status"], "applied");
  EXPECT_EQ(QueryInt(store(), "SELECT records FROM space_records WHERE space_id = '" + space + "'"),
            1);
  // Filling a space for real would take minutes; the counter stands in.
  ASSERT_TRUE(store()
                  .Exec("UPDATE space_records SET records = " +
                        std::to_string(core::sync::kMaxRecordsPerSpace - 1) +
                        " WHERE space_id = '" + space + "'")
                  .ok());
  EXPECT_EQ(push(2)["status"], "applied");
  const json refused = push(3);
  EXPECT_EQ(refused["status"], "rejected");
  EXPECT_EQ(refused["code"], "LIMIT_REACHED");
  EXPECT_NE(refused["message"].get<std::string>().find("limit of 100000 records"),
            std::string::npos)
      << refused;
  EXPECT_EQ(QueryInt(store(), "SELECT COUNT(*) FROM tasks WHERE space_id = '" + space + "'"), 2);
}

INSTANTIATE_TEST_SUITE_P(Security, Caps,
                         ::testing::Values(StoreKind::kSqlite, StoreKind::kPostgres),
                         StoreKindTestName);

class ConnectionCap : public AccountsServerTest {
 protected:
  void Configure(server::Config& config) override { config.max_connections = kConnectionCap; }
};

TEST_P(ConnectionCap, OnePastTheCapIsAnsweredBusyAtOnce) {
  std::vector<std::unique_ptr<RawConnection>> idle;
  for (size_t i = 0; i < kConnectionCap; ++i) {
    idle.push_back(std::make_unique<RawConnection>(app().port(), ""));
  }
  // Every place is taken by a connection that sends nothing.
  RawConnection refused(app().port(), "");
  EXPECT_EQ(refused.Status(), 503);
  EXPECT_NE(refused.head().find("Retry-After"), std::string::npos) << refused.head();
  // One leaves: a request is served again once the server has seen it go.
  idle.pop_back();
  int status = 0;
  for (int i = 0; i < kFreedWaitRounds && status != 200; ++i) {
    status = Send(bhttp::verb::get, "/healthz").status;
    if (status != 200) std::this_thread::sleep_for(kFreedWaitStep);
  }
  EXPECT_EQ(status, 200);
}

INSTANTIATE_TEST_SUITE_P(Security, ConnectionCap, ::testing::Values(StoreKind::kSqlite),
                         StoreKindTestName);

}  // namespace
}  // namespace ensemble::testing
