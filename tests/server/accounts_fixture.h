// AccountsServerTest: the whole server in-process on both stores, like
// ServerTest, with what the account and credential tests need besides: a
// logger that keeps every line (debug and up) so a test can search them for
// secrets, requests with headers (cookies), and a Config hook.
//
// Thread-safety: the server runs on its own thread; CapturingLogger is safe
// from any thread.

#ifndef ENSEMBLE_TESTS_SERVER_ACCOUNTS_FIXTURE_H_
#define ENSEMBLE_TESTS_SERVER_ACCOUNTS_FIXTURE_H_

#include <gtest/gtest.h>

#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "core/platform/env.h"
#include "server/app.h"
#include "tests/fakes/fake_env.h"
#include "tests/server/http_client.h"
#include "tests/server/scratch_store.h"

namespace ensemble::testing {

// The password of every test account.
inline constexpr char kPassword[] = "correct horse battery";

class CapturingLogger final : public core::platform::Logger {
 public:
  void Log(core::platform::LogLevel, std::string_view message) override {
    std::lock_guard<std::mutex> lock(mu_);
    lines_.emplace_back(message);
  }
  std::vector<std::string> lines() const {
    std::lock_guard<std::mutex> lock(mu_);
    return lines_;
  }
  // True when any line holds `needle`.
  bool Contains(std::string_view needle) const;

 private:
  mutable std::mutex mu_;
  std::vector<std::string> lines_;
};

using Headers = std::vector<std::pair<std::string, std::string>>;

class AccountsServerTest : public ::testing::TestWithParam<StoreKind> {
 protected:
  void SetUp() override;
  void TearDown() override;
  // Adjusts the Config before the server starts (accounts mode, env model...).
  virtual void Configure(server::Config& config) {}

  // One request on a fresh connection, with `headers` added (they may
  // replace Host, and a body's Content-Type, which is JSON otherwise).
  HttpReply Send(boost::beast::http::verb method, const std::string& target,
                 const std::string& body = "", const Headers& headers = {}) const {
    return SendFrom("", method, target, body, headers);
  }
  // The same from local address `source` (any of 127.0.0.0/8; "" lets the
  // system choose): what another client's address looks like to the server.
  HttpReply SendFrom(const std::string& source, boost::beast::http::verb method,
                     const std::string& target, const std::string& body = "",
                     const Headers& headers = {}) const;
  HttpReply PostJson(const std::string& target, const nlohmann::json& body,
                     const Headers& headers = {}) const {
    return Send(boost::beast::http::verb::post, target, body.dump(), headers);
  }

  // POST /api/auth/signup; returns the reply.
  HttpReply Signup(const std::string& email, const std::string& password,
                   const std::string& name = "Ada") const;
  // An account signed up as `email` (needs open sign-up) and its session.
  struct Member {
    std::string cookie;
    std::string account_id;
    std::string email;
  };
  Member SignedUp(const std::string& email) const;
  // One request as `m`, with `body` as JSON unless it is null.
  HttpReply Call(const Member& m, boost::beast::http::verb verb, const std::string& path,
                 const nlohmann::json& body = nullptr) const {
    return Send(verb, path, body.is_null() ? "" : body.dump(), WithCookie(m.cookie));
  }
  // A space `m` makes (and owns); its id.
  std::string MakeSpace(const Member& m, const std::string& name) const;
  // `owner` shares `space` with `member` in `role` and `member` accepts the
  // invitation: the two steps consent takes. False (and a test failure)
  // when either fails.
  bool Share(const Member& owner, const std::string& space, const Member& member,
             const std::string& role) const;

  // The Cookie header that sends back the session a reply set ("" if none).
  static std::string SessionCookieOf(const HttpReply& reply);
  static Headers WithCookie(const std::string& cookie) { return {{"Cookie", cookie}}; }

  server::App& app() { return *app_; }
  const std::filesystem::path& scratch_dir() const { return store_->dir(); }
  core::store::Database& store();
  const CapturingLogger& logger() const { return logger_; }

 private:
  std::unique_ptr<ScratchStore> store_;
  std::unique_ptr<core::store::Database> db_;
  FakeClock clock_;
  FakeRandom random_;
  CapturingLogger logger_;
  std::unique_ptr<server::App> app_;
  std::thread io_thread_;
};

}  // namespace ensemble::testing

#endif  // ENSEMBLE_TESTS_SERVER_ACCOUNTS_FIXTURE_H_
