// Requests from other sites (docs/SECURITY.md, "Requests from other sites"):
// a page on another site, or one that rebinds its own name to 127.0.0.1,
// reaches nothing; every response carries the headers that keep the app's
// own page safe; local mode does not listen on the network by accident.

#include "server/http/request_guard.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "server/config.h"
#include "tests/server/accounts_fixture.h"

namespace ensemble::testing {
namespace {

namespace bhttp = boost::beast::http;
using nlohmann::json;
using server::http::RequestGuard;

constexpr char kTaskId[] = "01J00000000000000000000001";

json PushOneTask(const std::string& title) {
  return {{"clientGroupId", "group-a"},
          {"clientId", "client-a"},
          {"mutations",
           {{{"id", 1},
             {"name", "task.create"},
             {"args", {{"id", kTaskId}, {"spaceId", "personal"}, {"title", title}}},
             {"clientTime", 1'764'000'000'000}}}}};
}

server::http::Request MakeRequest(bhttp::verb method, std::string target, std::string host,
                                  Headers headers = {}, std::string body = "") {
  server::http::Request req(method, target, 11);
  req.set(bhttp::field::host, host);
  for (const auto& [name, value] : headers) req.set(name, value);
  req.body() = std::move(body);
  return req;
}

TEST(RequestGuard, AnswersOnlyForItsOwnNames) {
  RequestGuard guard("127.0.0.1", {"hub.example.com"});
  for (const char* host :
       {"127.0.0.1", "127.0.0.1:8080", "localhost", "LOCALHOST:8080", "app.localhost:1",
        "127.7.7.7", "[::1]", "[::1]:8080", "hub.example.com", "Hub.Example.Com.:443"}) {
    EXPECT_TRUE(guard.HostAllowed(host)) << host;
  }
  for (const char* host : {"", "evil.test", "evil.test:8080", "localhost.evil.test",
                           "127.0.0.1.evil.test", "hub.example.com.evil.test", "10.0.0.5", "[::1",
                           "::1", "127.0.0.1:80x", "a b", "evil.test@127.0.0.1"}) {
    EXPECT_FALSE(guard.HostAllowed(host)) << host;
  }
  // A specific address the server binds is one of its names; 0.0.0.0 is not.
  EXPECT_TRUE(RequestGuard("192.168.1.20", {}).HostAllowed("192.168.1.20:8080"));
  EXPECT_FALSE(RequestGuard("0.0.0.0", {}).HostAllowed("0.0.0.0"));
}

TEST(RequestGuard, AcceptsItsOwnOriginAndClientsWithout) {
  RequestGuard guard("127.0.0.1", {"hub.example.com"});
  const std::string json_body = "{}";
  const Headers json_type = {{"Content-Type", "application/json; charset=utf-8"}};
  EXPECT_FALSE(guard.Check(
      MakeRequest(bhttp::verb::post, "/api/sync/push", "127.0.0.1:8080", json_type, json_body)));
  Headers own = json_type;
  own.emplace_back("Origin", "http://127.0.0.1:8080");
  own.emplace_back("Sec-Fetch-Site", "same-origin");
  EXPECT_FALSE(guard.Check(
      MakeRequest(bhttp::verb::post, "/api/sync/push", "127.0.0.1:8080", own, json_body)));
  // Default ports are left out of an Origin.
  EXPECT_FALSE(guard.Check(MakeRequest(bhttp::verb::post, "/api/sync/push", "hub.example.com",
                                       {{"Origin", "https://hub.example.com"}}, "")));
  // A DELETE with no body needs no type.
  EXPECT_FALSE(guard.Check(MakeRequest(bhttp::verb::delete_, "/api/x/1", "localhost:1")));
  // Opening the app from a link on another site is a navigation, not a write.
  EXPECT_FALSE(guard.Check(
      MakeRequest(bhttp::verb::get, "/", "127.0.0.1:8080", {{"Sec-Fetch-Site", "cross-site"}})));
}

TEST(RequestGuard, RefusesWhatAnotherSiteCouldSend) {
  RequestGuard guard("127.0.0.1", {});
  struct Case {
    const char* why;
    bhttp::verb method;
    const char* target;
    Headers headers;
    std::string body;
    std::string code;
  };
  const Case cases[] = {
      {"a form's text/plain",
       bhttp::verb::post,
       "/api/sync/push",
       {{"Content-Type", "text/plain"}},
       "{}",
       "CROSS_ORIGIN"},
      {"a urlencoded form",
       bhttp::verb::post,
       "/api/auth/login",
       {{"Content-Type", "application/x-www-form-urlencoded"}},
       "a=b",
       "CROSS_ORIGIN"},
      {"multipart",
       bhttp::verb::post,
       "/api/auth/login",
       {{"Content-Type", "multipart/form-data; boundary=x"}},
       "--x--",
       "CROSS_ORIGIN"},
      {"a body without a type", bhttp::verb::post, "/api/sync/push", {}, "{}", "CROSS_ORIGIN"},
      {"a JSON-looking type",
       bhttp::verb::post,
       "/api/sync/push",
       {{"Content-Type", "application/jsonp"}},
       "{}",
       "CROSS_ORIGIN"},
      {"another origin",
       bhttp::verb::post,
       "/api/sync/push",
       {{"Content-Type", "application/json"}, {"Origin", "http://evil.test"}},
       "{}",
       "CROSS_ORIGIN"},
      {"another port",
       bhttp::verb::post,
       "/api/sync/push",
       {{"Content-Type", "application/json"}, {"Origin", "http://127.0.0.1:3000"}},
       "{}",
       "CROSS_ORIGIN"},
      {"a sandboxed frame",
       bhttp::verb::put,
       "/api/settings/model",
       {{"Content-Type", "application/json"}, {"Origin", "null"}},
       "{}",
       "CROSS_ORIGIN"},
      {"cross-site fetch metadata",
       bhttp::verb::post,
       "/api/sync/push",
       {{"Content-Type", "application/json"}, {"Sec-Fetch-Site", "cross-site"}},
       "{}",
       "CROSS_ORIGIN"},
      {"a cross-origin read of the API",
       bhttp::verb::get,
       "/api/sync/pull?cursor=0",
       {{"Origin", "http://evil.test"}},
       "",
       "CROSS_ORIGIN"},
  };
  for (const Case& c : cases) {
    auto refusal =
        guard.Check(MakeRequest(c.method, c.target, "127.0.0.1:8080", c.headers, c.body));
    ASSERT_TRUE(refusal) << c.why;
    EXPECT_EQ(refusal->result_int(), 403) << c.why;
    EXPECT_NE(refusal->body().find(c.code), std::string::npos) << c.why << refusal->body();
  }
  auto rebound = guard.Check(MakeRequest(bhttp::verb::get, "/api/sync/pull", "evil.test:8080"));
  ASSERT_TRUE(rebound);
  EXPECT_EQ(rebound->result_int(), 421);
  EXPECT_NE(rebound->body().find("HOST_NOT_ALLOWED"), std::string::npos);
}

// The embedded default, local mode: no sign-in, so the guard is all there is.
class LocalModeGuard : public AccountsServerTest {
 protected:
  int64_t Tasks() { return QueryInt(store(), "SELECT COUNT(*) FROM tasks"); }
};

TEST_P(LocalModeGuard, AnotherSitesPushChangesNothing) {
  // The exact request of the report: a form-like post with another site's
  // Origin and Host.
  HttpReply r = Send(bhttp::verb::post, "/api/sync/push", PushOneTask("planted").dump(),
                     {{"Content-Type", "text/plain"}, {"Origin", "http://evil.test"}});
  EXPECT_EQ(r.status, 403) << r.body();
  EXPECT_EQ(r.error_code(), "CROSS_ORIGIN");
  r = Send(bhttp::verb::post, "/api/sync/push", PushOneTask("planted").dump(),
           {{"Host", "evil.test:8080"}, {"Origin", "http://evil.test:8080"}});
  EXPECT_EQ(r.status, 421) << r.body();
  EXPECT_EQ(r.error_code(), "HOST_NOT_ALLOWED");
  EXPECT_EQ(Tasks(), 0);

  // The app's own page, and a script with no Origin, still push.
  r = Send(bhttp::verb::post, "/api/sync/push", PushOneTask("mine").dump(),
           {{"Origin", "http://127.0.0.1"}});
  ASSERT_EQ(r.status, 200) << r.body();
  EXPECT_EQ(r.json()["results"][0]["status"], "applied");
  EXPECT_EQ(Tasks(), 1);
}

TEST_P(LocalModeGuard, ARebindingPageReadsNothingAndCannotMoveTheModel) {
  ASSERT_EQ(Send(bhttp::verb::post, "/api/sync/push", PushOneTask("secret plan").dump()).status,
            200);
  HttpReply r = Send(bhttp::verb::get, "/api/sync/pull?clientId=c&cursor=0", "",
                     {{"Host", "evil.test:8080"}});
  EXPECT_EQ(r.status, 421);
  EXPECT_EQ(r.body().find("secret plan"), std::string::npos);
  r = Send(bhttp::verb::put, "/api/settings/model",
           json{{"provider", "openai"}, {"baseUrl", "http://evil.test/v1"}, {"model", "m"}}.dump(),
           {{"Host", "evil.test:8080"}, {"Origin", "http://evil.test:8080"}});
  EXPECT_EQ(r.status, 421);
  r = Send(bhttp::verb::get, "/api/settings/model");
  ASSERT_EQ(r.status, 200);
  EXPECT_NE(r.json()["baseUrl"], "http://evil.test/v1") << r.body();
}

TEST_P(LocalModeGuard, EveryResponseCarriesTheSecurityHeaders) {
  std::filesystem::create_directories(scratch_dir() / "web");
  { std::ofstream(scratch_dir() / "web" / "index.html") << "<!doctype html><title>x</title>"; }
  for (const auto& [method, target, headers] :
       std::vector<std::tuple<bhttp::verb, std::string, Headers>>{
           {bhttp::verb::get, "/", {{"Sec-Fetch-Site", "cross-site"}}},
           {bhttp::verb::get, "/healthz", {}},
           {bhttp::verb::get, "/no-such-file.js", {}},
           {bhttp::verb::get, "/api/sync/pull", {{"Host", "evil.test"}}},
           {bhttp::verb::post, "/api/sync/push", {{"Origin", "http://evil.test"}}}}) {
    HttpReply r = Send(method, target, "", headers);
    ASSERT_NE(r.status, 0) << target << r.error;
    EXPECT_EQ(r.message["Content-Security-Policy"], server::http::kContentSecurityPolicy) << target;
    EXPECT_EQ(r.message["X-Content-Type-Options"], "nosniff") << target;
    EXPECT_EQ(r.message["Referrer-Policy"], "no-referrer") << target;
  }
  EXPECT_EQ(Send(bhttp::verb::get, "/", "", {{"Sec-Fetch-Site", "cross-site"}}).status, 200);
}

INSTANTIATE_TEST_SUITE_P(Security, LocalModeGuard, ::testing::Values(StoreKind::kSqlite),
                         StoreKindTestName);

class AccountsGuard : public AccountsServerTest {
 protected:
  void Configure(server::Config& config) override {
    config.accounts = true;
    config.open_signup = true;
    config.secure_cookies = true;
  }
};

TEST_P(AccountsGuard, SignInThroughAnotherSitesFormIsRefused) {
  SignedUp("ada@example.com");
  // Login CSRF: the other site signs the browser in to its own account.
  HttpReply r = Send(bhttp::verb::post, "/api/auth/login", "email=ada%40example.com&password=x",
                     {{"Content-Type", "application/x-www-form-urlencoded"}});
  EXPECT_EQ(r.status, 403);
  EXPECT_EQ(r.error_code(), "CROSS_ORIGIN");
  EXPECT_EQ(r.header(bhttp::field::set_cookie), "");
  r = Send(bhttp::verb::post, "/api/auth/signup",
           json{{"email", "eve@example.com"}, {"password", kPassword}, {"name", "Eve"}}.dump(),
           {{"Origin", "https://evil.test"}});
  EXPECT_EQ(r.status, 403);
  EXPECT_EQ(QueryInt(store(), "SELECT COUNT(*) FROM accounts"), 1);
}

TEST_P(AccountsGuard, SecureSessionCookiesAreHostPrefixed) {
  HttpReply r = Signup("ada@example.com", kPassword);
  ASSERT_EQ(r.status, 201) << r.body();
  const std::string set_cookie = r.header(bhttp::field::set_cookie);
  EXPECT_TRUE(set_cookie.starts_with("__Host-ensemble_session=")) << set_cookie;
  EXPECT_NE(set_cookie.find("; Secure"), std::string::npos);
  EXPECT_NE(set_cookie.find("; Path=/"), std::string::npos);
  EXPECT_EQ(set_cookie.find("Domain"), std::string::npos);
  const std::string cookie = SessionCookieOf(r);
  EXPECT_EQ(Send(bhttp::verb::get, "/api/auth/me", "", WithCookie(cookie)).status, 200);
  // The same token under the plain name (as a page on http could set it)
  // is no session.
  const std::string plain = cookie.substr(std::string("__Host-").size());
  EXPECT_EQ(Send(bhttp::verb::get, "/api/auth/me", "", WithCookie(plain)).status, 401);
}

INSTANTIATE_TEST_SUITE_P(Security, AccountsGuard, ::testing::Values(StoreKind::kSqlite),
                         StoreKindTestName);

TEST(LocalModeOnTheNetwork, RefusesToStartUnlessTheOperatorSaysSo) {
  auto store = ScratchStore::Create(StoreKind::kSqlite);
  ASSERT_TRUE(store.ok());
  server::Config config = (*store)->config();
  config.http_addr = "0.0.0.0";
  config.port = 0;
  FakeClock clock;
  FakeRandom random;
  CapturingLogger logger;
  core::platform::Env env{&clock, &random, &logger};
  auto refused = server::App::Create(config, env);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), "FAILED_PRECONDITION");
  EXPECT_NE(refused.status().message().find("ENSEMBLE_LOCAL_ON_NETWORK=on"), std::string::npos);

  config.local_on_network = true;
  auto warned = server::App::Create(config, env);
  ASSERT_TRUE(warned.ok()) << warned.status().ToString();
  EXPECT_TRUE(logger.Contains("ENSEMBLE_LOCAL_ON_NETWORK=on"));
  warned->reset();

  config.local_on_network = false;
  config.accounts = true;  // Accounts mode signs people in: it may listen anywhere.
  auto accounts = server::App::Create(config, env);
  EXPECT_TRUE(accounts.ok()) << accounts.status().ToString();
}

TEST(LocalModeOnTheNetwork, ConfigReadsTheAllowedHostsAndTheSwitch) {
  auto config = server::ConfigFromEnv([](const char* name) -> const char* {
    std::string n(name);
    if (n == "ENSEMBLE_ALLOWED_HOSTS") return "hub.example.com, Other.Example:8443,";
    if (n == "ENSEMBLE_LOCAL_ON_NETWORK") return "on";
    return nullptr;
  });
  ASSERT_TRUE(config.ok()) << config.status().ToString();
  EXPECT_EQ(config->allowed_hosts,
            (std::vector<std::string>{"hub.example.com", "Other.Example:8443"}));
  EXPECT_TRUE(config->local_on_network);
  auto bad = server::ConfigFromEnv([](const char* name) -> const char* {
    return std::string(name) == "ENSEMBLE_ALLOWED_HOSTS" ? "*" : nullptr;
  });
  EXPECT_FALSE(bad.ok());
}

}  // namespace
}  // namespace ensemble::testing
