#include "server/config.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace ensemble::server {
namespace {

EnvLookup From(const std::map<std::string, std::string>& vars) {
  return [vars](const char* name) -> const char* {
    auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  };
}

TEST(ServerConfig, DefaultsRunFromTheRepositoryRoot) {
  auto config = ConfigFromEnv(From({}));
  ASSERT_TRUE(config.ok());
  EXPECT_EQ(config->http_addr, "127.0.0.1");
  EXPECT_EQ(config->port, 8080);
  EXPECT_EQ(config->data_dir, ".data");
  EXPECT_EQ(config->database_url, "");
  EXPECT_EQ(config->web_root, "web-shell");
  EXPECT_EQ(config->wasm_dir, "build/wasm/wasm");
  EXPECT_EQ(config->max_event_subscribers, events::kMaxEventSubscribers);
}

TEST(ServerConfig, ReadsEveryVariable) {
  auto config = ConfigFromEnv(From({{"ENSEMBLE_HTTP_ADDR", "0.0.0.0"},
                                    {"ENSEMBLE_PORT", "0"},
                                    {"ENSEMBLE_DATA_DIR", "/var/lib/ensemble"},
                                    {"ENSEMBLE_DATABASE_URL", "postgresql://u:p@h/db"},
                                    {"ENSEMBLE_WEB_ROOT", "/srv/web"},
                                    {"ENSEMBLE_WASM_DIR", "/srv/wasm"}}));
  ASSERT_TRUE(config.ok());
  EXPECT_EQ(config->http_addr, "0.0.0.0");
  EXPECT_EQ(config->port, 0);
  EXPECT_EQ(config->data_dir, "/var/lib/ensemble");
  EXPECT_EQ(config->database_url, "postgresql://u:p@h/db");
  EXPECT_EQ(config->web_root, "/srv/web");
  EXPECT_EQ(config->wasm_dir, "/srv/wasm");
}

TEST(ServerConfig, EmptyMeansUnset) {
  auto config = ConfigFromEnv(From({{"ENSEMBLE_PORT", ""}, {"ENSEMBLE_DATABASE_URL", ""}}));
  ASSERT_TRUE(config.ok());
  EXPECT_EQ(config->port, 8080);
  EXPECT_EQ(config->database_url, "");
}

TEST(ServerConfig, BadPortIsInvalidArgument) {
  for (std::string port : {"http", "65536", "-1", "80x"}) {
    auto config = ConfigFromEnv(From({{"ENSEMBLE_PORT", port}}));
    ASSERT_FALSE(config.ok()) << port;
    EXPECT_EQ(config.status().code(), "INVALID_ARGUMENT");
  }
}

TEST(ServerConfig, MaxEventSubscribersIsAPositiveNumber) {
  auto config = ConfigFromEnv(From({{"ENSEMBLE_MAX_EVENT_SUBSCRIBERS", "7"}}));
  ASSERT_TRUE(config.ok());
  EXPECT_EQ(config->max_event_subscribers, 7u);
  for (std::string n : {"0", "-3", "many"}) {
    auto bad = ConfigFromEnv(From({{"ENSEMBLE_MAX_EVENT_SUBSCRIBERS", n}}));
    ASSERT_FALSE(bad.ok()) << n;
    EXPECT_EQ(bad.status().code(), "INVALID_ARGUMENT");
  }
}

TEST(ServerConfig, TurnsPerAccountDefaultToTheCapAndArePositive) {
  EXPECT_EQ(ConfigFromEnv(From({}))->max_turns_per_account,
            core::assistant::kMaxConcurrentTurnsPerAccount);
  auto config = ConfigFromEnv(From({{"ENSEMBLE_MAX_TURNS_PER_ACCOUNT", "500"}}));
  ASSERT_TRUE(config.ok());
  EXPECT_EQ(config->max_turns_per_account, 500u);
  for (std::string n : {"0", "-3", "lots"}) {
    auto bad = ConfigFromEnv(From({{"ENSEMBLE_MAX_TURNS_PER_ACCOUNT", n}}));
    ASSERT_FALSE(bad.ok()) << n;
    EXPECT_NE(bad.status().message().find("ENSEMBLE_MAX_TURNS_PER_ACCOUNT"), std::string::npos);
  }
}

TEST(ServerConfig, StoreConnectionsAreBounded) {
  EXPECT_EQ(ConfigFromEnv(From({}))->store_connections, kDefaultStoreConnections);
  auto config = ConfigFromEnv(From({{"ENSEMBLE_STORE_CONNECTIONS", "12"}}));
  ASSERT_TRUE(config.ok());
  EXPECT_EQ(config->store_connections, 12u);
  for (std::string n : {"0", "65", "-1", "four"}) {
    auto bad = ConfigFromEnv(From({{"ENSEMBLE_STORE_CONNECTIONS", n}}));
    ASSERT_FALSE(bad.ok()) << n;
    EXPECT_EQ(bad.status().code(), "INVALID_ARGUMENT");
    EXPECT_NE(bad.status().message().find("ENSEMBLE_STORE_CONNECTIONS"), std::string::npos);
  }
}

TEST(ServerConfig, LocalModeIsTheDefaultAndAccountsAreASwitch) {
  auto config = ConfigFromEnv(From({}));
  ASSERT_TRUE(config.ok());
  EXPECT_FALSE(config->accounts);
  EXPECT_FALSE(config->open_signup);
  EXPECT_FALSE(config->secure_cookies);
  EXPECT_FALSE(config->operator_model.configured());
  auto on = ConfigFromEnv(From({{"ENSEMBLE_ACCOUNTS", "on"},
                                {"ENSEMBLE_SIGNUP", "open"},
                                {"ENSEMBLE_COOKIE_SECURE", "on"}}));
  ASSERT_TRUE(on.ok()) << on.status().ToString();
  EXPECT_TRUE(on->accounts);
  EXPECT_TRUE(on->open_signup);
  EXPECT_TRUE(on->secure_cookies);
  for (auto [name, value] :
       {std::pair{"ENSEMBLE_ACCOUNTS", "yes please"}, std::pair{"ENSEMBLE_SIGNUP", "everyone"},
        std::pair{"ENSEMBLE_COOKIE_SECURE", "2"}}) {
    auto bad = ConfigFromEnv(From({{name, value}}));
    ASSERT_FALSE(bad.ok()) << name;
    EXPECT_EQ(bad.status().code(), "INVALID_ARGUMENT");
    EXPECT_NE(bad.status().message().find(name), std::string::npos);
  }
}

TEST(ServerConfig, PrivateLinksAreAllowedLocallyAndRefusedWithAccountsByDefault) {
  EXPECT_TRUE(ConfigFromEnv(From({}))->private_links);
  EXPECT_FALSE(ConfigFromEnv(From({{"ENSEMBLE_ACCOUNTS", "on"}}))->private_links);
  EXPECT_TRUE(ConfigFromEnv(From({{"ENSEMBLE_ACCOUNTS", "on"}, {"ENSEMBLE_PRIVATE_LINKS", "on"}}))
                  ->private_links);
  EXPECT_FALSE(ConfigFromEnv(From({{"ENSEMBLE_PRIVATE_LINKS", "off"}}))->private_links);
  EXPECT_FALSE(ConfigFromEnv(From({{"ENSEMBLE_PRIVATE_LINKS", "maybe"}})).ok());
}

TEST(ServerConfig, ReadsTheOperatorModelAndSecretKey) {
  auto config = ConfigFromEnv(From({{"ENSEMBLE_MODEL_API_KEY", "sk-op"},
                                    {"ENSEMBLE_MODEL", "gpt-4.1"},
                                    {"ENSEMBLE_MODEL_BASE_URL", "https://api.example.com/v1"},
                                    {"ENSEMBLE_SECRET_KEY", "c2VjcmV0"}}));
  ASSERT_TRUE(config.ok());
  EXPECT_TRUE(config->operator_model.configured());
  EXPECT_EQ(config->operator_model.provider, "openai");  // The default when unnamed.
  EXPECT_EQ(config->operator_model.api_key, "sk-op");
  EXPECT_EQ(config->operator_model.model, "gpt-4.1");
  EXPECT_EQ(config->operator_model.base_url, "https://api.example.com/v1");
  EXPECT_EQ(config->secret_key, "c2VjcmV0");
}

TEST(ServerConfig, ReadsTheMetricsToken) {
  EXPECT_EQ(ConfigFromEnv(From({}))->metrics_token, "");
  EXPECT_EQ(ConfigFromEnv(From({{"ENSEMBLE_METRICS_TOKEN", "t0ken"}}))->metrics_token, "t0ken");
}

}  // namespace
}  // namespace ensemble::server
