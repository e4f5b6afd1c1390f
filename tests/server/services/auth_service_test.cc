// Accounts mode end to end, on both stores: sign-up, sign-in, sign-out and
// me; the session cookie's attributes; one answer for a wrong password and an
// unknown email; every sync, events and settings route refusing a request
// without a session; and accounts kept to their own spaces.

#include <gtest/gtest.h>

#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>
#include <chrono>
#include <nlohmann/json.hpp>
#include <string>

#include "core/base/status.h"
#include "tests/server/accounts_fixture.h"
#include "tests/server/event_client.h"

namespace ensemble::testing {
namespace {

using nlohmann::json;
namespace bhttp = boost::beast::http;
namespace codes = core::codes;

constexpr int64_t kClientTime = 1'764'000'000'000;

std::string TaskId(int n) {
  std::string digits = std::to_string(n);
  return "01J" + std::string(23 - digits.size(), '0') + digits;
}

json PushBody(const std::string& client_id, std::vector<json> mutations) {
  return {
      {"clientGroupId", client_id + "-group"}, {"clientId", client_id}, {"mutations", mutations}};
}

json CreateTask(int64_t mutation_id, int task, const std::string& space, const std::string& title) {
  return {{"id", mutation_id},
          {"name", "task.create"},
          {"args", {{"id", TaskId(task)}, {"spaceId", space}, {"title", title}}},
          {"clientTime", kClientTime + mutation_id}};
}

json UpdateTitle(int64_t mutation_id, int task, const std::string& title) {
  return {{"id", mutation_id},
          {"name", "task.update"},
          {"args", {{"id", TaskId(task)}, {"fields", {{"title", title}}}}},
          {"clientTime", kClientTime + mutation_id}};
}

class AuthRoutes : public AccountsServerTest {
 protected:
  void Configure(server::Config& config) override {
    config.accounts = true;
    config.open_signup = true;
  }

  struct Person {
    std::string cookie;
    std::string account_id;
    std::string space_id;
  };
  Person SignedUp(const std::string& email, const std::string& name = "Ada") {
    HttpReply r = Signup(email, kPassword, name);
    EXPECT_EQ(r.status, 201) << r.error << r.body();
    Person p;
    p.cookie = SessionCookieOf(r);
    p.account_id = r.json()["account"]["id"].get<std::string>();
    p.space_id = r.json()["spaces"][0]["id"].get<std::string>();
    return p;
  }
  HttpReply Login(const std::string& email, const std::string& password) {
    return PostJson("/api/auth/login", {{"email", email}, {"password", password}});
  }
  HttpReply Me(const std::string& cookie) {
    return Send(bhttp::verb::get, "/api/auth/me", "", WithCookie(cookie));
  }
};

TEST_P(AuthRoutes, SignupMeLogoutLogin) {
  HttpReply signup = Signup("  Ada@Example.COM ", kPassword, " Ada Lovelace ");
  ASSERT_EQ(signup.status, 201) << signup.error << signup.body();
  json body = signup.json();
  EXPECT_EQ(body["mode"], "accounts");
  EXPECT_EQ(body["account"]["email"], "ada@example.com");
  EXPECT_EQ(body["account"]["name"], "Ada Lovelace");
  ASSERT_EQ(body["spaces"].size(), 1u);  // A space of its own.
  EXPECT_EQ(body["spaces"][0]["role"], "owner");
  EXPECT_EQ(body.dump().find(kPassword), std::string::npos);
  const std::string cookie = SessionCookieOf(signup);
  ASSERT_FALSE(cookie.empty());

  HttpReply me = Me(cookie);
  ASSERT_EQ(me.status, 200) << me.body();
  EXPECT_EQ(me.json(), body);

  HttpReply logout = Send(bhttp::verb::post, "/api/auth/logout", "", WithCookie(cookie));
  ASSERT_EQ(logout.status, 200) << logout.body();
  std::string cleared(logout.message[bhttp::field::set_cookie]);
  EXPECT_TRUE(cleared.starts_with("ensemble_session=;")) << cleared;
  EXPECT_NE(cleared.find("Max-Age=0"), std::string::npos);
  EXPECT_EQ(core::store::AsInt(store().Query("SELECT COUNT(*) FROM sessions")->rows[0][0]), 0);
  HttpReply after = Me(cookie);
  EXPECT_EQ(after.status, 401);
  EXPECT_EQ(after.error_code(), codes::kUnauthenticated);

  HttpReply login = Login("ADA@example.com", kPassword);
  ASSERT_EQ(login.status, 200) << login.body();
  EXPECT_EQ(login.json(), body);
  const std::string second = SessionCookieOf(login);
  EXPECT_NE(second, cookie);
  EXPECT_EQ(Me(second).status, 200);
}

TEST_P(AuthRoutes, CookieIsHttpOnlyLaxOnTheWholeSite) {
  HttpReply r = Signup("c@example.com", kPassword);
  ASSERT_EQ(r.status, 201) << r.body();
  std::string set_cookie(r.message[bhttp::field::set_cookie]);
  EXPECT_TRUE(set_cookie.starts_with("ensemble_session=")) << set_cookie;
  EXPECT_NE(set_cookie.find("; HttpOnly"), std::string::npos) << set_cookie;
  EXPECT_NE(set_cookie.find("; SameSite=Lax"), std::string::npos) << set_cookie;
  EXPECT_NE(set_cookie.find("; Path=/"), std::string::npos) << set_cookie;
  EXPECT_NE(set_cookie.find("; Max-Age="), std::string::npos) << set_cookie;
  EXPECT_EQ(set_cookie.find("Secure"), std::string::npos) << set_cookie;  // Not configured.
}

TEST_P(AuthRoutes, SessionIsStoredOnlyAsAHashAndPasswordAsArgon2id) {
  HttpReply r = Signup("h@example.com", kPassword);
  ASSERT_EQ(r.status, 201);
  std::string cookie = SessionCookieOf(r);
  std::string token = cookie.substr(cookie.find('=') + 1);
  auto rows = store().Query("SELECT token_hash FROM sessions");
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 1u);
  EXPECT_NE(core::store::AsText(rows->rows[0][0]), token);
  EXPECT_EQ(core::store::AsText(rows->rows[0][0]).find(token), std::string::npos);
  auto hash = store().Query("SELECT password_hash FROM accounts");
  ASSERT_TRUE(hash.ok());
  EXPECT_TRUE(core::store::AsText(hash->rows[0][0]).starts_with("$argon2id$"));
}

TEST_P(AuthRoutes, WrongPasswordAndUnknownEmailGetTheSameAnswer) {
  SignedUp("known@example.com");
  auto timed = [this](const std::string& email, const std::string& password, double& ms) {
    auto start = std::chrono::steady_clock::now();
    HttpReply r = Login(email, password);
    ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return r;
  };
  double wrong_ms = 0, unknown_ms = 0;
  HttpReply wrong = timed("known@example.com", "not the password", wrong_ms);
  HttpReply unknown = timed("nobody@example.com", "not the password", unknown_ms);
  EXPECT_EQ(wrong.status, 401);
  EXPECT_EQ(wrong.error_code(), codes::kBadCredentials);
  EXPECT_EQ(unknown.status, wrong.status);
  EXPECT_EQ(unknown.body(), wrong.body());
  EXPECT_TRUE(unknown.message[bhttp::field::set_cookie].empty());
  // An unknown email still pays for an Argon2id verification (tens of
  // milliseconds), not a bare lookup (well under one).
  EXPECT_GT(unknown_ms, wrong_ms / 4) << "unknown " << unknown_ms << " ms, wrong " << wrong_ms;
}

TEST_P(AuthRoutes, BadInputGetsStableCodes) {
  SignedUp("taken@example.com");
  struct Case {
    json body;
    std::string_view code;
  };
  const Case cases[] = {
      {{{"email", "no-at-sign"}, {"password", kPassword}, {"name", "A"}}, codes::kInvalidArgument},
      {{{"email", "a@b"}, {"password", kPassword}, {"name", "A"}}, codes::kInvalidArgument},
      {{{"email", "x@example.com"}, {"password", "short"}, {"name", "A"}}, codes::kInvalidArgument},
      {{{"email", "x@example.com"}, {"password", std::string(257, 'p')}, {"name", "A"}},
       codes::kInvalidArgument},
      {{{"email", "x@example.com"}, {"password", kPassword}, {"name", "  "}},
       codes::kInvalidArgument},
      {{{"email", "x@example.com"}, {"password", kPassword}, {"name", std::string(101, 'n')}},
       codes::kInvalidArgument},
      {{{"email", "x@example.com"}, {"password", kPassword}}, codes::kInvalidArgument},
      {{{"email", 5}, {"password", kPassword}, {"name", "A"}}, codes::kInvalidArgument},
      {json::array(), codes::kInvalidArgument},
      {{{"email", "x@example.com"}, {"password", kPassword}, {"name", "A"}, {"admin", true}},
       codes::kInvalidArgument},
      {{{"email", "Taken@example.com"}, {"password", kPassword}, {"name", "A"}},
       codes::kAlreadyExists},
  };
  for (const Case& c : cases) {
    HttpReply r = PostJson("/api/auth/signup", c.body);
    EXPECT_EQ(r.error_code(), c.code) << c.body.dump() << " -> " << r.body();
    EXPECT_EQ(r.body().find(kPassword), std::string::npos);
  }
  HttpReply malformed = Send(bhttp::verb::post, "/api/auth/signup", "{not json");
  EXPECT_EQ(malformed.error_code(), codes::kMalformedJson);
  EXPECT_EQ(Login("taken@example.com", "").error_code(), codes::kBadCredentials);
  EXPECT_EQ(PostJson("/api/auth/login", {{"email", "taken@example.com"}}).error_code(),
            codes::kInvalidArgument);
  HttpReply password_number =
      PostJson("/api/auth/login", {{"email", "taken@example.com"}, {"password", 12345678}});
  EXPECT_EQ(password_number.error_code(), codes::kInvalidArgument);
  EXPECT_EQ(password_number.json()["error"]["message"], "password must be a string");
  // A refused sign-in sets no cookie.
  EXPECT_TRUE(password_number.header(bhttp::field::set_cookie).empty());
  EXPECT_EQ(core::store::AsInt(store().Query("SELECT COUNT(*) FROM accounts")->rows[0][0]), 1);
}

TEST_P(AuthRoutes, EveryProtectedRouteNeedsASession) {
  Person ada = SignedUp("ada@example.com");
  struct Route {
    bhttp::verb method;
    std::string target;
    std::string body;
  };
  const Route routes[] = {
      {bhttp::verb::post, "/api/sync/push", PushBody("c1", {}).dump()},
      {bhttp::verb::get, "/api/sync/pull?clientId=c1&cursor=0", ""},
      {bhttp::verb::get, "/api/events", ""},
      {bhttp::verb::get, "/api/settings/model", ""},
      {bhttp::verb::put, "/api/settings/model",
       json{{"provider", "openai"}, {"baseUrl", "https://api.openai.com/v1"}, {"model", "m"}}
           .dump()},
      {bhttp::verb::delete_, "/api/settings/model", ""},
      {bhttp::verb::get, "/api/auth/me", ""},
  };
  const std::string forged = "ensemble_session=" + std::string(43, 'A');
  for (const Route& route : routes) {
    for (const Headers& headers :
         {Headers{}, WithCookie(forged), WithCookie("ensemble_session=x")}) {
      HttpReply r = Send(route.method, route.target, route.body, headers);
      EXPECT_EQ(r.status, 401) << route.target << ": " << r.error << r.body();
      EXPECT_EQ(r.error_code(), codes::kUnauthenticated) << route.target;
    }
  }
  // With the session they answer.
  EXPECT_EQ(
      Send(bhttp::verb::get, "/api/sync/pull?clientId=c1&cursor=0", "", WithCookie(ada.cookie))
          .status,
      200);
  EXPECT_EQ(Send(bhttp::verb::get, "/api/settings/model", "", WithCookie(ada.cookie)).status, 200);
  EXPECT_EQ(core::store::AsInt(store().Query("SELECT COUNT(*) FROM model_credentials")->rows[0][0]),
            0);
}

TEST_P(AuthRoutes, EventsStreamOpensWithASession) {
  Person ada = SignedUp("ada@example.com");
  boost::asio::io_context ioc;
  boost::asio::ip::tcp::socket socket(ioc);
  socket.connect({boost::asio::ip::make_address("127.0.0.1"), app().port()});
  bhttp::request<bhttp::empty_body> req(bhttp::verb::get, "/api/events", 11);
  req.set(bhttp::field::host, "127.0.0.1");
  req.set(bhttp::field::cookie, ada.cookie);
  bhttp::write(socket, req);
  boost::beast::flat_buffer buffer;
  bhttp::response_parser<bhttp::empty_body> parser;
  bhttp::read_header(socket, buffer, parser);
  EXPECT_EQ(parser.get().result_int(), 200);
  EXPECT_EQ(parser.get()[bhttp::field::content_type], "text/event-stream");
}

TEST_P(AuthRoutes, PushIntoAnotherAccountsSpaceIsRefusedAndPullIsIsolated) {
  Person ada = SignedUp("ada@example.com", "Ada");
  Person bob = SignedUp("bob@example.com", "Bob");
  ASSERT_NE(ada.space_id, bob.space_id);

  HttpReply a =
      PostJson("/api/sync/push", PushBody("ada-1", {CreateTask(1, 1, ada.space_id, "Ada's plan")}),
               WithCookie(ada.cookie));
  ASSERT_EQ(a.status, 200) << a.body();
  EXPECT_EQ(a.json()["results"][0]["status"], "applied");

  // Bob edits Ada's task, creates one in her space, and one in his own: only
  // the last applies, each refusal on its own mutation.
  HttpReply b = PostJson("/api/sync/push",
                         PushBody("bob-1", {UpdateTitle(1, 1, "Bob was here"),
                                            CreateTask(2, 2, ada.space_id, "Planted"),
                                            CreateTask(3, 3, bob.space_id, "Bob's own")}),
                         WithCookie(bob.cookie));
  ASSERT_EQ(b.status, 200) << b.body();
  const json pushed = b.json();
  const json& results = pushed["results"];
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0]["status"], "rejected");
  EXPECT_EQ(results[0]["code"], codes::kNotFound);  // Not even told it exists.
  EXPECT_EQ(results[1]["status"], "rejected");
  EXPECT_EQ(results[1]["code"], codes::kForbidden);
  EXPECT_EQ(results[2]["status"], "applied");
  auto title = store().Query("SELECT title FROM tasks WHERE id = '" + TaskId(1) + "'");
  ASSERT_TRUE(title.ok());
  EXPECT_EQ(core::store::AsText(title->rows[0][0]), "Ada's plan");

  auto pulled_titles = [this](const Person& p, const std::string& client) {
    HttpReply r = Send(bhttp::verb::get, "/api/sync/pull?clientId=" + client + "&cursor=0", "",
                       WithCookie(p.cookie));
    EXPECT_EQ(r.status, 200) << r.body();
    std::vector<std::string> titles;
    const json pulled = r.json();
    for (const json& c : pulled["changes"]) titles.push_back(c["row"]["title"].get<std::string>());
    return titles;
  };
  EXPECT_EQ(pulled_titles(ada, "ada-1"), std::vector<std::string>{"Ada's plan"});
  EXPECT_EQ(pulled_titles(bob, "bob-1"), std::vector<std::string>{"Bob's own"});
}

TEST_P(AuthRoutes, APushPokesOnlyTheAccountsThatCanReadIt) {
  Person ada = SignedUp("ada@example.com", "Ada");
  Person bob = SignedUp("bob@example.com", "Bob");
  EventClient ada_events(app().port(), "/api/events", ada.cookie);
  EventClient bob_events(app().port(), "/api/events", bob.cookie);
  ASSERT_EQ(ada_events.WaitForStatus(), 200) << ada_events.received();
  ASSERT_EQ(bob_events.WaitForStatus(), 200) << bob_events.received();

  HttpReply a = PostJson("/api/sync/push", PushBody("ada-1", {CreateTask(1, 1, ada.space_id, "A")}),
                         WithCookie(ada.cookie));
  ASSERT_EQ(a.status, 200) << a.body();
  EXPECT_TRUE(ada_events.WaitFor("event: poke")) << ada_events.received();
  HttpReply b = PostJson("/api/sync/push", PushBody("bob-1", {CreateTask(1, 2, bob.space_id, "B")}),
                         WithCookie(bob.cookie));
  ASSERT_EQ(b.status, 200) << b.body();
  EXPECT_TRUE(bob_events.WaitFor("event: poke")) << bob_events.received();
  // Bob heard of his own change only: the poke for Ada's came first and
  // would be in his stream before his own.
  EXPECT_EQ(bob_events.received().find("event: poke"), bob_events.received().rfind("event: poke"))
      << bob_events.received();
  EXPECT_EQ(ada_events.ReadFor(std::chrono::milliseconds(300)).find("event: poke"),
            std::string::npos);

  // A client id is its account's: Bob cannot push or pull as Ada's.
  HttpReply hijack =
      PostJson("/api/sync/push", PushBody("ada-1", {CreateTask(2, 3, bob.space_id, "as Ada")}),
               WithCookie(bob.cookie));
  EXPECT_EQ(hijack.status, 403) << hijack.body();
  HttpReply peek =
      Send(bhttp::verb::get, "/api/sync/pull?clientId=ada-1&cursor=0", "", WithCookie(bob.cookie));
  EXPECT_EQ(peek.status, 403) << peek.body();
}

INSTANTIATE_TEST_SUITE_P(Stores, AuthRoutes,
                         ::testing::Values(StoreKind::kSqlite, StoreKind::kPostgres),
                         StoreKindTestName);

class ClosedSignup : public AccountsServerTest {
 protected:
  void Configure(server::Config& config) override {
    config.accounts = true;
    config.secure_cookies = true;
  }
};

TEST_P(ClosedSignup, OnlyTheFirstAccountMaySignUpAndCookiesAreSecure) {
  HttpReply first = Signup("owner@example.com", kPassword);
  ASSERT_EQ(first.status, 201) << first.body();
  std::string set_cookie(first.message[bhttp::field::set_cookie]);
  EXPECT_TRUE(set_cookie.ends_with("; Secure")) << set_cookie;
  HttpReply second = Signup("guest@example.com", kPassword);
  EXPECT_EQ(second.status, 403);
  EXPECT_EQ(second.error_code(), codes::kForbidden);
  EXPECT_EQ(core::store::AsInt(store().Query("SELECT COUNT(*) FROM accounts")->rows[0][0]), 1);
}

INSTANTIATE_TEST_SUITE_P(Stores, ClosedSignup,
                         ::testing::Values(StoreKind::kSqlite, StoreKind::kPostgres),
                         StoreKindTestName);

class LocalMode : public AccountsServerTest {};

TEST_P(LocalMode, NoSignInAndTheSyncRoutesNeedNoSession) {
  EXPECT_EQ(Signup("a@example.com", kPassword).error_code(), codes::kNotFound);
  EXPECT_EQ(PostJson("/api/auth/login", {{"email", "a@example.com"}, {"password", kPassword}})
                .error_code(),
            codes::kNotFound);
  HttpReply me = Send(bhttp::verb::get, "/api/auth/me");
  ASSERT_EQ(me.status, 200);
  EXPECT_EQ(me.json()["mode"], "local");
  HttpReply push =
      PostJson("/api/sync/push", PushBody("local-1", {CreateTask(1, 1, "personal", "Mine")}));
  ASSERT_EQ(push.status, 200) << push.body();
  EXPECT_EQ(push.json()["results"][0]["status"], "applied");
  EXPECT_EQ(Send(bhttp::verb::get, "/api/sync/pull?clientId=local-1&cursor=0").status, 200);
}

INSTANTIATE_TEST_SUITE_P(Stores, LocalMode,
                         ::testing::Values(StoreKind::kSqlite, StoreKind::kPostgres),
                         StoreKindTestName);

}  // namespace
}  // namespace ensemble::testing
