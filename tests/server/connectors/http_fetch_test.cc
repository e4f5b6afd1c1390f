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
  // Relative redirects resolve against the link that redirected.
  server.Set("/secret-token/moved", {301, "", "Location: basic.ics\r\n"});
  server.Set("/secret-token/query", {307, "", "Location: ?v=2\r\n"});
  server.Set("/secret-token/query?v=2", {302, "", "Location: /moved\r\n"});
  const std::string authority = server.Url("").substr(std::string("http:").size());
  server.Set("/scheme-relative", {302, "", "Location: " + authority + "/moved\r\n"});
  for (const char* path : {"/secret-token/moved", "/secret-token/query", "/scheme-relative"}) {
    auto body = HttpGet(server.Url(path), Loopback());
    ASSERT_TRUE(body.ok()) << path << ": " << body.status().ToString();
    EXPECT_EQ(*body, "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n") << path;
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

TEST(HttpFetch, RedirectsResolveAgainstTheLinkTheyCameFrom) {
  const std::string from = "https://cal.example.com/a/b/feed.ics?key=1";
  EXPECT_EQ(ResolveRedirect(from, "https://other.example/x.ics"), "https://other.example/x.ics");
  EXPECT_EQ(ResolveRedirect(from, "HTTP://other.example/x"), "http://other.example/x");
  EXPECT_EQ(ResolveRedirect(from, "//cdn.example/x.ics"), "https://cdn.example/x.ics");
  EXPECT_EQ(ResolveRedirect(from, "/c/d.ics"), "https://cal.example.com:443/c/d.ics");
  EXPECT_EQ(ResolveRedirect(from, "?key=2"), "https://cal.example.com:443/a/b/feed.ics?key=2");
  EXPECT_EQ(ResolveRedirect(from, "next.ics"), "https://cal.example.com:443/a/b/next.ics");
  // An IPv6 host keeps its brackets, so that its port is not read as a part
  // of the address.
  EXPECT_EQ(ResolveRedirect("http://[2001:db8::1]:8080/cal", "/moved"),
            "http://[2001:db8::1]:8080/moved");
  EXPECT_EQ(ResolveRedirect("http://[2001:db8::1]/dir/cal", "other"),
            "http://[2001:db8::1]:80/dir/other");
  // Another scheme is passed on as written, and the read refuses it.
  EXPECT_EQ(ResolveRedirect(from, "ftp://files.example/x"), "ftp://files.example/x");
}

TEST(HttpFetch, OnlyHttpAddressesAreRead) {
  auto r = HttpGet("ftp://example.com/a.ics", Loopback());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), core::codes::kAppUnreachable);
}

}  // namespace
}  // namespace ensemble::server::connectors
