// Model credentials end to end, on both stores: saving, showing and removing
// them through /api/settings/model; the key never in any response, in the
// stored row, or in a log line; the resolver the turn loop uses, which lends
// the operator's environment key only in local mode; and a server that
// refuses to start on a bad secret key.

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "core/base/status.h"
#include "server/config.h"
#include "server/credentials/secret_box.h"
#include "tests/server/accounts_fixture.h"

namespace ensemble::testing {
namespace {

using nlohmann::json;
namespace bhttp = boost::beast::http;
namespace codes = core::codes;
using server::credentials::CredentialSource;

constexpr char kKey[] = "sk-proj-SECRETvalue0123456789abcdefXYZ";
constexpr char kOtherKey[] = "sk-proj-ANOTHERsecret9876543210zyxwvu";
constexpr char kOperatorKey[] = "sk-operator-ENVKEY-00112233445566778899";
constexpr char kPassword[] = "correct horse battery";

json ModelBody(const json& api_key = json()) {
  json body = {
      {"provider", "openai"}, {"baseUrl", "https://api.openai.com/v1"}, {"model", "gpt-4.1"}};
  if (api_key.is_string()) body["apiKey"] = api_key;
  return body;
}

class SettingsTest : public AccountsServerTest {
 protected:
  HttpReply Put(const json& body, const Headers& h = {}) {
    return Send(bhttp::verb::put, "/api/settings/model", body.dump(), h);
  }
  HttpReply Get(const Headers& h = {}) {
    return Send(bhttp::verb::get, "/api/settings/model", "", h);
  }
  HttpReply Delete(const Headers& h = {}) {
    return Send(bhttp::verb::delete_, "/api/settings/model", "", h);
  }
  // What the turn loop would get for `account`.
  core::Result<std::optional<server::credentials::ModelCredentials>> Resolve(
      const std::string& account) {
    return app().credentials().ResolveModelCredentials(store(), account);
  }
  std::string SealedKeyOf(const std::string& account) {
    auto rows = store().Query("SELECT sealed_key FROM model_credentials WHERE account_id = '" +
                              account + "'");
    EXPECT_TRUE(rows.ok());
    return rows.ok() && !rows->empty() ? core::store::AsText(rows->rows[0][0]) : "";
  }
  // No line the server logged holds any part of a key.
  void ExpectNoKeyInLogs() {
    for (const char* key : {kKey, kOtherKey, kOperatorKey}) {
      std::string k(key);
      EXPECT_FALSE(logger().Contains(k)) << key;
      EXPECT_FALSE(logger().Contains(k.substr(8, 12))) << key;  // Nor a piece of it.
    }
  }
};

// Local mode, no operator model.
class LocalSettings : public SettingsTest {};

TEST_P(LocalSettings, CredentialsRoundTripWithoutEverShowingTheKey) {
  HttpReply empty = Get();
  ASSERT_EQ(empty.status, 200) << empty.body();
  EXPECT_EQ(empty.json(), (json{{"configured", false}, {"hasKey", false}}));

  HttpReply put = Put(ModelBody(kKey));
  ASSERT_EQ(put.status, 200) << put.body();
  const json expected = {{"configured", true},   {"source", "saved"},
                         {"provider", "openai"}, {"baseUrl", "https://api.openai.com/v1"},
                         {"model", "gpt-4.1"},   {"efforts", json::array()},
                         {"hasKey", true}};
  EXPECT_EQ(put.json(), expected);
  HttpReply get = Get();
  ASSERT_EQ(get.status, 200);
  EXPECT_EQ(get.json(), expected);
  for (const HttpReply* r : {&put, &get}) {
    EXPECT_EQ(r->body().find(kKey), std::string::npos);
    EXPECT_EQ(r->body().find(std::string(kKey).substr(0, 12)), std::string::npos);
  }

  // Stored sealed: neither the key nor a piece of it is in the row.
  std::string sealed = SealedKeyOf("local");
  EXPECT_TRUE(sealed.starts_with(server::credentials::kSealedPrefix)) << sealed;
  EXPECT_EQ(sealed.find(kKey), std::string::npos);
  EXPECT_EQ(sealed.find(std::string(kKey).substr(8, 12)), std::string::npos);

  // The resolver opens it for a model call.
  auto resolved = Resolve("local");
  ASSERT_TRUE(resolved.ok()) << resolved.status().ToString();
  ASSERT_TRUE(resolved->has_value());
  EXPECT_EQ((*resolved)->api_key, kKey);
  EXPECT_EQ((*resolved)->settings.model, "gpt-4.1");
  EXPECT_EQ((*resolved)->source, CredentialSource::kSaved);

  // Without apiKey the key stays; null removes it.
  HttpReply renamed = Put({{"provider", "openai"},
                           {"baseUrl", "https://api.openai.com/v1"},
                           {"model", "gpt-4.1-mini"}});
  ASSERT_EQ(renamed.status, 200) << renamed.body();
  EXPECT_EQ(renamed.json()["hasKey"], true);
  HttpReply reasoning =
      Put({{"provider", "openai"}, {"baseUrl", "https://api.openai.com/v1"}, {"model", "o4-mini"}});
  ASSERT_EQ(reasoning.status, 200) << reasoning.body();
  // The efforts the assistant's effort setting may take for this model.
  EXPECT_EQ(reasoning.json()["efforts"], (json{"low", "medium", "high"}));
  EXPECT_EQ((*Resolve("local"))->api_key, kKey);
  HttpReply keyless = Put({{"provider", "ollama"},
                           {"baseUrl", "http://127.0.0.1:11434/v1"},
                           {"model", "llama3"},
                           {"apiKey", nullptr}});
  ASSERT_EQ(keyless.status, 200) << keyless.body();
  EXPECT_EQ(keyless.json()["hasKey"], false);
  EXPECT_EQ((*Resolve("local"))->api_key, "");

  HttpReply del = Delete();
  ASSERT_EQ(del.status, 200);
  EXPECT_EQ(del.json()["deleted"], true);
  EXPECT_EQ(Get().json()["configured"], false);
  EXPECT_EQ(Delete().json()["deleted"], false);
  auto gone = Resolve("local");
  ASSERT_TRUE(gone.ok());
  EXPECT_FALSE(gone->has_value());  // Nothing saved, nothing to borrow.
  ExpectNoKeyInLogs();
}

TEST_P(LocalSettings, BadSettingsAreRefusedWithoutQuotingTheKey) {
  const json cases[] = {
      {{"provider", "openai"}, {"baseUrl", "ftp://example.com"}, {"model", "m"}, {"apiKey", kKey}},
      {{"provider", "openai"},
       {"baseUrl", std::string("https://user:") + kKey + "@example.com/v1"},
       {"model", "m"}},
      {{"provider", "openai"},
       {"baseUrl", std::string("https://example.com/v1?key=") + kKey},
       {"model", "m"}},
      {{"provider", "OpenAI!"},
       {"baseUrl", "https://example.com"},
       {"model", "m"},
       {"apiKey", kKey}},
      {{"provider", "openai"}, {"baseUrl", "https://example.com"}, {"model", ""}, {"apiKey", kKey}},
      {{"provider", "openai"},
       {"baseUrl", "https://example.com"},
       {"model", "m"},
       {"apiKey", std::string(kKey) + " with space"}},
      {{"provider", "openai"}, {"baseUrl", "https://example.com"}, {"model", "m"}, {"apiKey", ""}},
      {{"provider", "openai"}, {"baseUrl", "https://example.com"}, {"model", "m"}, {"apiKey", 42}},
      {{"provider", "openai"},
       {"baseUrl", "https://example.com"},
       {"model", "m"},
       {"apiKey", std::string(4097, 'k')}},
      {{"baseUrl", "https://example.com"}, {"model", "m"}, {"apiKey", kKey}},
      {{"provider", "openai"},
       {"baseUrl", "https://example.com"},
       {"model", "m"},
       {"apiKey", kKey},
       {"temperature", 1}},
  };
  for (const json& body : cases) {
    HttpReply r = Put(body);
    EXPECT_EQ(r.status, 400) << body.dump() << " -> " << r.body();
    EXPECT_EQ(r.error_code(), codes::kInvalidArgument) << r.body();
    EXPECT_EQ(r.body().find(kKey), std::string::npos) << r.body();
  }
  HttpReply malformed =
      Send(bhttp::verb::put, "/api/settings/model", std::string("{\"apiKey\": \"") + kKey + "\",");
  EXPECT_EQ(malformed.error_code(), codes::kMalformedJson);
  EXPECT_EQ(malformed.body().find(kKey), std::string::npos);
  EXPECT_EQ(Get().json()["configured"], false);
  ExpectNoKeyInLogs();
}

TEST_P(LocalSettings, TamperedCiphertextFailsToResolve) {
  ASSERT_EQ(Put(ModelBody(kKey)).status, 200);
  std::string sealed = SealedKeyOf("local");
  sealed[sealed.size() / 2] = sealed[sealed.size() / 2] == 'A' ? 'B' : 'A';
  ASSERT_TRUE(store()
                  .Exec("UPDATE model_credentials SET sealed_key = $1 WHERE account_id = 'local'",
                        {core::store::Value(sealed)})
                  .ok());
  auto resolved = Resolve("local");
  ASSERT_FALSE(resolved.ok());
  EXPECT_EQ(resolved.status().code(), codes::kDecryptFailed);
  EXPECT_EQ(resolved.status().message().find(kKey), std::string::npos);
  // The screen still shows the settings, never the key.
  EXPECT_EQ(Get().json()["hasKey"], true);
}

INSTANTIATE_TEST_SUITE_P(Stores, LocalSettings,
                         ::testing::Values(StoreKind::kSqlite, StoreKind::kPostgres),
                         StoreKindTestName);

// Local mode with the operator's model in the environment.
class LocalWithOperatorModel : public SettingsTest {
 protected:
  void Configure(server::Config& config) override {
    config.operator_model = {"openai", "https://api.example.com/v1", "op-model", kOperatorKey};
  }
};

TEST_P(LocalWithOperatorModel, TheLocalPersonUsesTheOperatorsKeyUntilTheySaveTheirOwn) {
  HttpReply get = Get();
  ASSERT_EQ(get.status, 200);
  EXPECT_EQ(get.json()["source"], "environment");
  EXPECT_EQ(get.json()["hasKey"], true);
  EXPECT_EQ(get.json()["model"], "op-model");
  EXPECT_EQ(get.body().find(kOperatorKey), std::string::npos);
  auto resolved = Resolve("local");
  ASSERT_TRUE(resolved.ok() && resolved->has_value());
  EXPECT_EQ((*resolved)->api_key, kOperatorKey);
  EXPECT_EQ((*resolved)->source, CredentialSource::kOperator);

  ASSERT_EQ(Put(ModelBody(kKey)).status, 200);
  resolved = Resolve("local");
  ASSERT_TRUE(resolved.ok() && resolved->has_value());
  EXPECT_EQ((*resolved)->api_key, kKey);
  EXPECT_EQ((*resolved)->source, CredentialSource::kSaved);
  ExpectNoKeyInLogs();
}

INSTANTIATE_TEST_SUITE_P(Stores, LocalWithOperatorModel,
                         ::testing::Values(StoreKind::kSqlite, StoreKind::kPostgres),
                         StoreKindTestName);

// Accounts mode with the operator's model in the environment.
class HostedSettings : public SettingsTest {
 protected:
  void Configure(server::Config& config) override {
    config.accounts = true;
    config.open_signup = true;
    config.operator_model = {"openai", "https://api.example.com/v1", "op-model", kOperatorKey};
  }
  std::pair<std::string, std::string> SignedUp(const std::string& email) {
    HttpReply r = Signup(email, kPassword);
    EXPECT_EQ(r.status, 201) << r.body();
    return {SessionCookieOf(r), r.json()["account"]["id"].get<std::string>()};
  }
};

TEST_P(HostedSettings, AHostedAccountNeverBorrowsTheOperatorsKey) {
  auto [cookie, account] = SignedUp("ada@example.com");
  HttpReply get = Get(WithCookie(cookie));
  ASSERT_EQ(get.status, 200) << get.body();
  EXPECT_EQ(get.json(), (json{{"configured", false}, {"hasKey", false}}));
  EXPECT_EQ(get.body().find("op-model"), std::string::npos);
  auto resolved = Resolve(account);
  ASSERT_TRUE(resolved.ok()) << resolved.status().ToString();
  EXPECT_FALSE(resolved->has_value());
  // Not even under the local account's id.
  auto local = Resolve("local");
  ASSERT_TRUE(local.ok());
  EXPECT_FALSE(local->has_value());
}

TEST_P(HostedSettings, EachAccountSeesOnlyItsOwnCredentials) {
  auto [ada_cookie, ada] = SignedUp("ada@example.com");
  auto [bob_cookie, bob] = SignedUp("bob@example.com");
  ASSERT_EQ(Put(ModelBody(kKey), WithCookie(ada_cookie)).status, 200);
  EXPECT_EQ(Get(WithCookie(bob_cookie)).json()["configured"], false);
  ASSERT_EQ(Put(ModelBody(kOtherKey), WithCookie(bob_cookie)).status, 200);
  EXPECT_EQ((*Resolve(ada))->api_key, kKey);
  EXPECT_EQ((*Resolve(bob))->api_key, kOtherKey);
  // Bob's DELETE removes only his.
  EXPECT_EQ(Delete(WithCookie(bob_cookie)).json()["deleted"], true);
  EXPECT_EQ(Get(WithCookie(ada_cookie)).json()["hasKey"], true);
  EXPECT_FALSE(Resolve(bob)->has_value());
  ExpectNoKeyInLogs();
  EXPECT_FALSE(logger().Contains(kPassword));
}

INSTANTIATE_TEST_SUITE_P(Stores, HostedSettings,
                         ::testing::Values(StoreKind::kSqlite, StoreKind::kPostgres),
                         StoreKindTestName);

// Start-up refusals: the server does not start without a usable key, and
// says why without printing it.
TEST(SecretKeyAtStartup, BadVariableStopsTheServerNamingOnlyTheVariable) {
  auto store = ScratchStore::Create(StoreKind::kSqlite);
  ASSERT_TRUE(store.ok());
  const std::string bad = "definitely-not-a-key";
  auto config = server::ConfigFromEnv([&](const char* name) -> const char* {
    if (std::string(name) == "ENSEMBLE_SECRET_KEY") return bad.c_str();
    return nullptr;
  });
  ASSERT_TRUE(config.ok()) << config.status().ToString();
  config->data_dir = (*store)->config().data_dir;
  config->port = 0;
  FakeEnv env;
  auto app = server::App::Create(*config, env.env());
  ASSERT_FALSE(app.ok());
  EXPECT_NE(app.status().message().find("ENSEMBLE_SECRET_KEY"), std::string::npos);
  EXPECT_EQ(app.status().message().find(bad), std::string::npos);
}

TEST(SecretKeyAtStartup, KeyFileIsMadePrivateAndAnOpenOneStopsTheServer) {
  auto store = ScratchStore::Create(StoreKind::kSqlite);
  ASSERT_TRUE(store.ok());
  server::Config config = (*store)->config();
  config.port = 0;
  FakeEnv env;
  {
    auto app = server::App::Create(config, env.env());
    ASSERT_TRUE(app.ok()) << app.status().ToString();
  }
  const std::filesystem::path file =
      std::filesystem::path(config.data_dir) / server::credentials::kSecretKeyFileName;
  struct stat st {};
  ASSERT_EQ(::stat(file.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  ASSERT_EQ(::chmod(file.c_str(), 0644), 0);
  auto app = server::App::Create(config, env.env());
  ASSERT_FALSE(app.ok());
  EXPECT_NE(app.status().message().find(file.string()), std::string::npos);
  EXPECT_NE(app.status().message().find("chmod 600"), std::string::npos);
}

}  // namespace
}  // namespace ensemble::testing
