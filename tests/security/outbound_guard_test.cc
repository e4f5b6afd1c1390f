// One guard for every outbound request (docs/SECURITY.md, "One guard for
// every outbound request"): the core's address policy refuses every special
// range, the server connects only to what it checked, its errors name the
// host only, and a saved model key does not follow its base URL elsewhere.

#include "server/outbound/outbound_guard.h"

#include "server/boost_prelude.h"

#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/address.hpp>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/net/url_origin.h"
#include "server/connectors/http_fetch.h"
#include "server/model/openai_client.h"
#include "server/platform/system_env.h"
#include "tests/server/accounts_fixture.h"

namespace ensemble::testing {
namespace {

namespace asio = boost::asio;
namespace bhttp = boost::beast::http;
using nlohmann::json;

bool Public(const char* address) {
  return server::outbound::IsPublicAddress(asio::ip::make_address(address));
}

TEST(AddressPolicy, RefusesEverySpecialPurposeRange) {
  for (const char* refused :
       {"0.0.0.0", "0.1.2.3", "10.0.0.1", "10.255.255.255", "100.64.0.1", "100.127.255.255",
        "127.0.0.1", "127.255.0.9", "169.254.169.254", "172.16.0.1", "172.31.255.255", "192.0.0.8",
        "192.0.2.1", "192.88.99.1", "192.168.1.1", "198.18.0.1", "198.19.255.255", "198.51.100.7",
        "203.0.113.9", "224.0.0.251", "239.1.1.1", "240.0.0.1", "255.255.255.255",
        // IPv6, and every form that embeds an IPv4 address.
        "::", "::1", "::127.0.0.1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:0:a00:1",
        "64:ff9b::a00:1", "64:ff9b:1::1", "100::1", "2001::1", "2001:0:4136:e378::1", "2001:db8::1",
        "2002:7f00:1::1", "3fff::1", "fc00::1", "fd12:3456::1", "fe80::1", "fec0::1", "ff02::1",
        "4000::1", "::2"}) {
    EXPECT_FALSE(Public(refused)) << refused;
  }
  for (const char* allowed :
       {"1.1.1.1", "8.8.8.8", "100.63.255.255", "100.128.0.0", "172.15.255.255", "172.32.0.0",
        "192.0.1.1", "192.169.0.1", "198.17.255.255", "198.20.0.0", "223.255.255.255",
        "2606:4700:4700::1111", "2a00:1450:4001::1", "2001:4860::8888"}) {
    EXPECT_TRUE(Public(allowed)) << allowed;
  }
}

TEST(UrlOrigin, IsSchemeHostAndPort) {
  using core::net::UrlOrigin;
  EXPECT_EQ(UrlOrigin("HTTPS://API.Example.com/v1?x#y"), "https://api.example.com:443");
  EXPECT_EQ(UrlOrigin("https://api.example.com:443/v2"), "https://api.example.com:443");
  EXPECT_EQ(UrlOrigin("http://[::1]:8080/v1"), "http://[::1]:8080");
  EXPECT_EQ(UrlOrigin("http://host"), "http://host:80");
  EXPECT_EQ(UrlOrigin("http://user@host:080/"), "http://host:80");
  EXPECT_NE(UrlOrigin("http://host/v1"), UrlOrigin("https://host/v1"));
  EXPECT_NE(UrlOrigin("https://host/v1"), UrlOrigin("https://host:8443/v1"));
  EXPECT_EQ(UrlOrigin("ftp://host/"), std::nullopt);
  EXPECT_EQ(UrlOrigin("https:///path"), std::nullopt);
  EXPECT_EQ(UrlOrigin("https://host:80x/"), std::nullopt);
}

TEST(OutboundGuard, ARefusedOrFailedPrivateTargetIsNamedByHostOnly) {
  // Nothing listens on port 1: a scan would learn "refused" from the text.
  server::connectors::FetchLimits strict;
  for (const auto& [url, host] :
       {std::pair{"http://127.0.0.1:1/feed.ics?token=s3cret", "127.0.0.1"},
        std::pair{"http://localhost:1/feed.ics", "localhost"},
        std::pair{"http://[::1]:1/x", "::1"}}) {
    auto r = server::connectors::HttpGet(url, strict);
    ASSERT_FALSE(r.ok()) << url;
    EXPECT_EQ(r.status().code(), "APP_UNREACHABLE");
    EXPECT_EQ(r.status().message(),
              std::string(host) +
                  " is an address of a private network (or another special-purpose range), "
                  "which this server does not connect to for a person.");
  }
  // Allowed on the person's own machine (local mode), but still no port state.
  server::connectors::FetchLimits local;
  local.allow_private_addresses = true;
  auto failed = server::connectors::HttpGet("http://127.0.0.1:1/feed.ics", local);
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.status().message(), "could not connect to 127.0.0.1.");
}

TEST(OutboundGuard, APersonsModelBaseUrlReachesNoPrivateAddress) {
  server::platform::StderrLogger logger(core::platform::LogLevel::kError);
  server::model::ProviderConfig config;
  config.base_url = "http://127.0.0.1:1/v1";
  config.api_key = "sk-should-never-leave";
  config.public_addresses_only = true;
  auto client = server::model::OpenAiClient::Create(config, logger);
  ASSERT_TRUE(client.ok()) << client.status().ToString();
  asio::io_context ioc;
  std::optional<server::model::CallResult> out;
  asio::co_spawn(ioc, (*client)->StreamChat("{}", {}, nullptr, nullptr),
                 [&](std::exception_ptr e, server::model::CallResult r) {
                   if (!e) out = std::move(r);
                 });
  ioc.run();
  ASSERT_TRUE(out);
  EXPECT_EQ(out->status.code(), "MODEL_ERROR");
  EXPECT_NE(out->status.message().find("private network"), std::string::npos)
      << out->status.message();
  EXPECT_EQ(out->http_status, 0);
}

class ModelKeyOrigin : public AccountsServerTest {
 protected:
  HttpReply Put(const std::string& base_url, const json& key = json()) {
    json body = {{"provider", "openai"}, {"baseUrl", base_url}, {"model", "gpt-4.1"}};
    if (!key.is_null()) body["apiKey"] = key;
    return Send(bhttp::verb::put, "/api/settings/model", body.dump());
  }
  std::string ResolvedKey() {
    auto creds = app().credentials().ResolveModelCredentials(store(), "local");
    return creds.ok() && creds->has_value() ? (*creds)->api_key : "<none>";
  }
};

TEST_P(ModelKeyOrigin, ABaseUrlOnAnotherOriginDropsTheSavedKey) {
  constexpr char kKey[] = "sk-proj-ORIGINBOUND0123456789abcdef";
  ASSERT_EQ(Put("https://api.openai.com/v1", kKey).json()["hasKey"], true);
  // The same origin keeps it (a new path, the default port written out).
  EXPECT_EQ(Put("https://api.openai.com:443/v2").json()["hasKey"], true);
  EXPECT_EQ(ResolvedKey(), kKey);
  // Another host, port or scheme: the key stays behind, and is gone.
  for (const char* elsewhere :
       {"https://evil.test/v1", "https://api.openai.com:8443/v1", "http://api.openai.com/v1"}) {
    ASSERT_EQ(Put("https://api.openai.com/v1", kKey).status, 200);
    HttpReply moved = Put(elsewhere);
    ASSERT_EQ(moved.status, 200) << moved.body();
    EXPECT_EQ(moved.json()["hasKey"], false) << elsewhere;
    EXPECT_EQ(ResolvedKey(), "") << elsewhere;
  }
  // A key sent with the new address is the person's choice.
  EXPECT_EQ(Put("https://other.example/v1", "sk-proj-NEWKEYFORTHEOTHER0123").json()["hasKey"],
            true);
}

INSTANTIATE_TEST_SUITE_P(Security, ModelKeyOrigin, ::testing::Values(StoreKind::kSqlite),
                         StoreKindTestName);

class HostedModelReach : public AccountsServerTest {
 protected:
  void Configure(server::Config& config) override {
    config.accounts = true;
    config.open_signup = true;
    config.private_links = false;  // ConfigFromEnv's default with accounts on.
  }
};

TEST_P(HostedModelReach, APersonsOwnBaseUrlIsPublicOnlyOnASharedServer) {
  Member ada = SignedUp("ada@example.com");
  HttpReply put = Call(ada, bhttp::verb::put, "/api/settings/model",
                       {{"provider", "openai"},
                        {"baseUrl", "http://127.0.0.1:1/v1"},
                        {"model", "m"},
                        {"apiKey", "sk-proj-HOSTED0123456789abcdef"}});
  ASSERT_EQ(put.status, 200) << put.body();
  auto creds = app().credentials().ResolveModelCredentials(store(), ada.account_id);
  ASSERT_TRUE(creds.ok() && creds->has_value());
  // The turn's model client refuses private addresses for it
  // (OutboundGuard.APersonsModelBaseUrlReachesNoPrivateAddress).
  EXPECT_TRUE((*creds)->public_addresses_only);
}

INSTANTIATE_TEST_SUITE_P(Security, HostedModelReach, ::testing::Values(StoreKind::kSqlite),
                         StoreKindTestName);

}  // namespace
}  // namespace ensemble::testing
