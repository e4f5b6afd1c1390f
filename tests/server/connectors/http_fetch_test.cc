// HttpGet (server/connectors/http_fetch.h) against a loopback server: a 200
// body, redirects, refused statuses, a size limit, a deadline, and private
// addresses refused unless allowed, with messages that never carry the
// link's path.

#include "server/connectors/http_fetch.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/server/connectors/feed_server.h"

namespace ensemble::server::connectors {
namespace {

using testing::FeedServer;
using ::testing::HasSubstr;
using ::testing::Not;

FetchLimits Loopback() {
  FetchLimits limits;
  limits.allow_private_addresses = true;
  limits.timeout = std::chrono::milliseconds(3000);
  return limits;
}

TEST(HttpFetch, ReadsABodyAndFollowsRedirects) {
  FeedServer server;
  server.Set("/secret-token/basic.ics", {200, "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n"});
  server.Set("/moved", {302, "", "Location: /secret-token/basic.ics\r\n"});
  server.Set("/moved-absolute",
             {302, "", "Location: " + server.Url("/secret-token/basic.ics") + "\r\n"});
  for (const char* path : {"/secret-token/basic.ics", "/moved", "/moved-absolute"}) {
    auto body = HttpGet(server.Url(path), Loopback());
    ASSERT_TRUE(body.ok()) << path << ": " << body.status().ToString();
    EXPECT_EQ(*body, "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n");
  }
  server.Set("/loop", {302, "", "Location: /loop\r\n"});
  auto loop = HttpGet(server.Url("/loop"), Loopback());
  ASSERT_FALSE(loop.ok());
  EXPECT_THAT(loop.status().message(), HasSubstr("redirected too many times"));
}

TEST(HttpFetch, RefusalsAreReadableAndNeverNameThePath) {
  FeedServer server;
  server.Set("/secret-token/gone", {404, "nope"});
  auto gone = HttpGet(server.Url("/secret-token/gone"), Loopback());
  ASSERT_FALSE(gone.ok());
  EXPECT_EQ(gone.status().code(), core::codes::kAppUnreachable);
  EXPECT_EQ(gone.status().message(), "the calendar answered 404 Not Found.");

  server.Set("/secret-token/big", {200, std::string(64 * 1024, 'x')});
  FetchLimits small = Loopback();
  small.max_bytes = 1024;
  auto big = HttpGet(server.Url("/secret-token/big"), small);
  ASSERT_FALSE(big.ok());
  EXPECT_THAT(big.status().message(), HasSubstr("larger than"));

  server.Set("/secret-token/slow", {200, "late", "", std::chrono::milliseconds(2000)});
  FetchLimits quick = Loopback();
  quick.timeout = std::chrono::milliseconds(300);
  auto slow = HttpGet(server.Url("/secret-token/slow"), quick);
  ASSERT_FALSE(slow.ok());
  EXPECT_THAT(slow.status().message(), HasSubstr("did not answer in time"));

  for (const auto& r : {gone, big, slow}) {
    EXPECT_THAT(r.status().message(), Not(HasSubstr("secret-token")));
  }
}

TEST(HttpFetch, PrivateAddressesAreRefusedUnlessAllowed) {
  FeedServer server;
  server.Set("/cal.ics", {200, "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n"});
  FetchLimits strict = Loopback();
  strict.allow_private_addresses = false;
  auto refused = HttpGet(server.Url("/cal.ics"), strict);
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(refused.status().message(), HasSubstr("private network"));
  EXPECT_EQ(server.requests(), 0);
  for (const char* url : {"http://10.1.2.3/a.ics", "http://192.168.0.1/a.ics",
                          "http://169.254.169.254/latest", "http://[::1]:80/a.ics"}) {
    auto r = HttpGet(url, strict);
    ASSERT_FALSE(r.ok()) << url;
    EXPECT_THAT(r.status().message(), HasSubstr("private network")) << url;
  }
}

TEST(HttpFetch, OnlyHttpAddressesAreRead) {
  auto r = HttpGet("ftp://example.com/a.ics", Loopback());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), core::codes::kAppUnreachable);
}

}  // namespace
}  // namespace ensemble::server::connectors
