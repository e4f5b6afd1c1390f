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

}  // namespace
}  // namespace ensemble::server
