// The router's path patterns: which paths a ":name" route matches, and the
// named, decoded parameters it hands the handler.

#include "server/http/router.h"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <string>

namespace ensemble::server::http {
namespace {

TEST(RouterPaths, AColonSegmentMatchesOneNonEmptySegment) {
  const char kPattern[] = "/api/assistant/conversations/:id/messages";
  EXPECT_TRUE(PathMatches(kPattern, "/api/assistant/conversations/abc/messages"));
  EXPECT_FALSE(PathMatches(kPattern, "/api/assistant/conversations//messages"));
  EXPECT_FALSE(PathMatches(kPattern, "/api/assistant/conversations/abc/messages/"));
  EXPECT_FALSE(PathMatches(kPattern, "/api/assistant/conversations/abc"));
  EXPECT_FALSE(PathMatches(kPattern, "/api/assistant/conversations/a/b/messages"));
  EXPECT_TRUE(PathMatches("/api/sync/push", "/api/sync/push"));
  EXPECT_FALSE(PathMatches("/api/sync/push", "/api/sync/pull"));
}

TEST(RouterPaths, AColonSegmentIsANamedDecodedParameter) {
  std::map<std::string, std::string, std::less<>> params;
  ASSERT_TRUE(
      PathMatches("/api/spaces/:id/members/:account", "/api/spaces/s%201/members/a2", &params));
  EXPECT_EQ(params,
            (std::map<std::string, std::string, std::less<>>{{"account", "a2"}, {"id", "s 1"}}));
  // A malformed escape matches the route but gives no value: the handler
  // answers as for a missing id.
  ASSERT_TRUE(
      PathMatches("/api/assistant/turns/:id/stop", "/api/assistant/turns/%zz/stop", &params));
  EXPECT_TRUE(params.empty());
  // A path that does not match leaves the parameters as they were.
  params = {{"kept", "yes"}};
  EXPECT_FALSE(PathMatches("/api/people/:id/merge", "/api/people/p1", &params));
  EXPECT_EQ(params.size(), 1u);
}

}  // namespace
}  // namespace ensemble::server::http
