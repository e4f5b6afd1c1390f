// OpenAiClient against the fake model server on loopback: streamed text and
// tool calls, HTTP errors, the call limit and its message, Stop mid-stream,
// pooled keep-alive connections, and a key that reaches the provider but
// never a log line.

#include "server/model/openai_client.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <thread>

#include "core/model/chat_request.h"
#include "tests/fakes/fake_env.h"
#include "tests/server/connectors/feed_server.h"
#include "tests/server/model/fake_model_process.h"

namespace ensemble::server::model {
namespace {

namespace net = boost::asio;
using core::model::StreamEvent;
using nlohmann::json;
using std::chrono::milliseconds;
using ::testing::HasSubstr;
using ::testing::Not;

const char kKey[] = "sk-test-Zq81SECRETkey0042";

std::string Body(const std::string& question = "hello") {
  core::model::ModelInfo model;
  model.id = "fake-model";
  core::model::ChatRequest request;
  request.messages = {core::model::ChatMessage::System("Be brief."),
                      core::model::ChatMessage::User(question)};
  request.tools = {{"hub_list_tasks", "List tasks.", R"({"type":"object"})"}};
  return *core::model::BuildChatBodyText(model, request);
}

class OpenAiClientTest : public ::testing::Test {
 protected:
  void StartFake(std::string_view scenario) {
    auto fake = testing::FakeModelProcess::Start(json::parse(scenario));
    ASSERT_TRUE(fake.ok()) << fake.status().ToString();
    fake_ = std::move(fake).value();
  }

  std::unique_ptr<OpenAiClient> Client(std::string key = kKey,
                                       ModelConnectionPool* pool = nullptr) {
    ProviderConfig config;
    config.base_url = fake_->base_url();
    config.api_key = std::move(key);
    config.provider = "fake";
    auto client = OpenAiClient::Create(config, logger_, pool);
    EXPECT_TRUE(client.ok()) << client.status().ToString();
    return std::move(client).value();
  }

  CallResult Call(const OpenAiClient& client, std::string body,
                  milliseconds timeout = std::chrono::seconds(20),
                  std::shared_ptr<StopSignal> stop = nullptr,
                  std::function<void(const StreamEvent&)> on_event = nullptr) {
    net::io_context ioc;
    std::optional<CallResult> out;
    CallOptions options;
    options.timeout = timeout;
    options.model_name = "Fake Model";
    net::co_spawn(ioc,
                  client.StreamChat(
                      std::move(body), options,
                      [&](const StreamEvent& e) {
                        events_.push_back(e);
                        if (on_event) on_event(e);
                      },
                      stop),
                  [&](std::exception_ptr e, CallResult r) {
                    if (!e) out = std::move(r);
                  });
    ioc.run();
    EXPECT_TRUE(out.has_value());
    return out ? *out : CallResult{};
  }

  // Makes `n` calls one after another on one io_context, as the server's
  // turns share its io thread, each through a new client from `make` (as
  // each turn makes its own) and one pool; `between` runs before every call
  // but the first. Leaves the pool's idle count in idle_after_.
  using MakeClient = std::function<std::unique_ptr<OpenAiClient>(ModelConnectionPool*)>;
  std::vector<CallResult> PooledCalls(int n, const MakeClient& make,
                                      const std::function<void()>& between = nullptr,
                                      std::shared_ptr<StopSignal> stop = nullptr) {
    net::io_context ioc;
    auto pool = std::make_unique<ModelConnectionPool>(ioc.get_executor());
    std::vector<CallResult> out;
    auto calls = [&]() -> net::awaitable<void> {
      for (int i = 0; i < n; ++i) {
        if (i > 0 && between) between();
        std::unique_ptr<OpenAiClient> client = make(pool.get());
        CallOptions options;
        options.timeout = std::chrono::seconds(20);
        options.model_name = "Fake Model";
        out.push_back(co_await client->StreamChat(
            Body(), options,
            [&](const StreamEvent& e) {
              if (stop && e.kind == StreamEvent::Kind::kText) stop->Stop();
            },
            stop));
      }
    };
    net::co_spawn(ioc, calls(), net::detached);
    ioc.run();
    idle_after_ = pool->idle();
    pool.reset();  // Its sockets go before their io_context.
    return out;
  }

  // The fake notices a closed stream a moment after it happens.
  bool FakeSawClientClose() {
    for (int i = 0; i < 100; ++i) {
      json requests = fake_->Requests();
      if (!requests.empty() && requests.back().value("clientClosed", false)) return true;
      std::this_thread::sleep_for(milliseconds(20));
    }
    return false;
  }

  void ExpectKeyNeverLogged() {
    ASSERT_FALSE(logger_.lines.empty());
    for (const auto& line : logger_.lines) EXPECT_THAT(line, Not(HasSubstr(kKey)));
  }

  // Only for a test that does not start a fake of its own.
  void UseFake(std::unique_ptr<testing::FakeModelProcess> fake) { fake_ = std::move(fake); }

  testing::FakeLogger logger_;
  std::unique_ptr<testing::FakeModelProcess> fake_;
  std::vector<StreamEvent> events_;
  size_t idle_after_ = 0;
};

TEST_F(OpenAiClientTest, StreamsTextAsItArrives) {
  StartFake(R"({"responses": [{"text": ["Hel", "lo ", "there"],
      "usage": {"prompt_tokens": 12, "completion_tokens": 3, "cached_tokens": 8}}]})");
  auto client = Client();
  CallResult r = Call(*client, Body());
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.http_status, 200);
  EXPECT_EQ(r.text, "Hello there");
  EXPECT_EQ(r.finish_reason, "stop");
  ASSERT_TRUE(r.has_usage);
  EXPECT_EQ(r.usage.prompt_tokens, 12);
  EXPECT_EQ(r.usage.completion_tokens, 3);
  EXPECT_EQ(r.usage.cached_tokens, 8);
  std::vector<std::string> deltas;
  for (const auto& e : events_) {
    if (e.kind == StreamEvent::Kind::kText) deltas.push_back(e.text);
  }
  EXPECT_EQ(deltas, (std::vector<std::string>{"Hel", "lo ", "there"}));

  // What the provider received: the body as built, the key as a bearer token.
  json requests = fake_->Requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0]["path"], "/v1/chat/completions");
  EXPECT_EQ(requests[0]["headers"]["authorization"], std::string("Bearer ") + kKey);
  EXPECT_EQ(requests[0]["body"], json::parse(Body()));
  EXPECT_EQ(requests[0]["body"]["stream"], true);
}

TEST_F(OpenAiClientTest, AssemblesToolCallsSplitAcrossChunks) {
  StartFake(R"({"responses": [{"toolCalls": [
      {"id": "call_a", "name": "hub_list_tasks", "arguments": ["{\"sta", "tus\": \"to", "do\"}"]},
      {"id": "call_b", "name": "hub_create_tasks", "arguments": ["{\"tasks\": ["]}]}]})");
  auto client = Client();
  CallResult r = Call(*client, Body());
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.finish_reason, "tool_calls");
  ASSERT_EQ(r.tool_calls.size(), 2u);
  EXPECT_EQ(r.tool_calls[0].id, "call_a");
  EXPECT_EQ(r.tool_calls[0].name, "hub_list_tasks");
  EXPECT_EQ(r.tool_calls[0].input, json({{"status", "todo"}}));
  EXPECT_TRUE(r.tool_calls[0].status.ok());
  // A malformed call is reported, not dropped.
  EXPECT_EQ(r.tool_calls[1].status.code(), core::codes::kMalformedToolCall);
}

TEST_F(OpenAiClientTest, ReadsANonStreamedAnswer) {
  StartFake(R"({"responses": [{"text": "All done."}]})");
  auto client = Client();
  json body = json::parse(Body());
  body["stream"] = false;
  body.erase("stream_options");
  CallResult r = Call(*client, body.dump());
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.text, "All done.");
}

TEST_F(OpenAiClientTest, HttpErrorsCarryTheProvidersMessage) {
  StartFake(R"({"responses": [
      {"status": 429, "headers": {"retry-after": "2"},
       "error": {"message": "Rate limit reached for requests", "type": "requests"}},
      {"status": 500, "error": {"message": "The server had an error"}}]})");
  auto client = Client();
  CallResult limited = Call(*client, Body());
  EXPECT_EQ(limited.status.code(), core::codes::kModelError);
  EXPECT_EQ(limited.http_status, 429);
  EXPECT_EQ(limited.retry_after, "2");
  EXPECT_THAT(limited.status.message(), HasSubstr("Rate limit reached for requests"));
  EXPECT_THAT(limited.status.message(), HasSubstr("429"));

  CallResult failed = Call(*client, Body());
  EXPECT_EQ(failed.status.code(), core::codes::kModelError);
  EXPECT_EQ(failed.http_status, 500);
  EXPECT_THAT(failed.status.message(), HasSubstr("The server had an error"));
}

TEST_F(OpenAiClientTest, AnErrorMidStreamKeepsTheTextSoFar) {
  StartFake(R"({"responses": [
      {"text": ["Half an ", "answer"], "streamError": {"message": "overloaded"}},
      {"text": ["cut ", "off"], "cutAfter": 2}]})");
  auto client = Client();
  CallResult r = Call(*client, Body());
  EXPECT_EQ(r.status.code(), core::codes::kModelError);
  EXPECT_THAT(r.status.message(), HasSubstr("overloaded"));
  EXPECT_EQ(r.text, "Half an answer");

  CallResult cut = Call(*client, Body());
  EXPECT_EQ(cut.status.code(), core::codes::kModelError);
  EXPECT_EQ(cut.text, "cut ");
}

TEST_F(OpenAiClientTest, ASilentServerTimesOutWithTheChatsMessage) {
  StartFake(R"({"responses": [{"silent": "headers"}, {"silent": "no-headers"}]})");
  auto client = Client();
  for (int i = 0; i < 2; ++i) {
    const auto started = std::chrono::steady_clock::now();
    CallResult r = Call(*client, Body(), milliseconds(600));
    const auto took = std::chrono::steady_clock::now() - started;
    EXPECT_EQ(r.status.code(), core::codes::kModelTimeout);
    EXPECT_EQ(r.status.message(),
              "Fake Model did not answer within 1 second, so I stopped waiting. Ask again, or "
              "try a narrower question.");
    EXPECT_GE(took, milliseconds(550));
    EXPECT_LT(took, milliseconds(5000));
    EXPECT_TRUE(FakeSawClientClose()) << "the provider's stream was not closed";
  }
}

TEST_F(OpenAiClientTest, ATimeoutKeepsTheTextAlreadyStreamed) {
  StartFake(R"({"responses": [{"text": ["Hello", " world"], "delayMs": 10000}]})");
  auto client = Client();
  CallResult r = Call(*client, Body(), std::chrono::seconds(2));
  EXPECT_EQ(r.status.code(), core::codes::kModelTimeout);
  EXPECT_THAT(r.status.message(), HasSubstr("did not answer within 2 seconds"));
  EXPECT_EQ(r.text, "Hello");
}

TEST_F(OpenAiClientTest, StopMidStreamClosesTheStream) {
  StartFake(R"({"responses": [{"text": ["one ", "two ", "three"], "delayMs": 300}]})");
  auto client = Client();
  auto stop = std::make_shared<StopSignal>();
  CallResult r = Call(*client, Body(), std::chrono::seconds(20), stop, [&](const StreamEvent& e) {
    if (e.kind == StreamEvent::Kind::kText && e.text == "one ") stop->Stop();
  });
  EXPECT_EQ(r.status.code(), core::codes::kCancelled);
  EXPECT_EQ(r.text, "one ");
  EXPECT_TRUE(FakeSawClientClose());
}

TEST_F(OpenAiClientTest, StopFromAnotherThread) {
  StartFake(R"({"responses": [{"silent": "headers"}]})");
  auto client = Client();
  auto stop = std::make_shared<StopSignal>();
  std::thread stopper([stop] {
    std::this_thread::sleep_for(milliseconds(300));
    stop->Stop();
  });
  const auto started = std::chrono::steady_clock::now();
  CallResult r = Call(*client, Body(), std::chrono::seconds(20), stop);
  stopper.join();
  EXPECT_EQ(r.status.code(), core::codes::kCancelled);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5));
  // A signal already stopped stops the next call before it is sent.
  CallResult again = Call(*client, Body(), std::chrono::seconds(20), stop);
  EXPECT_EQ(again.status.code(), core::codes::kCancelled);
  EXPECT_EQ(fake_->Requests().size(), 1u);
}

TEST_F(OpenAiClientTest, APooledConnectionCarriesTheNextCall) {
  StartFake(R"({"responses": [{"text": "first"}, {"text": "second"}, {"text": "third"}]})");
  auto results = PooledCalls(3, [&](ModelConnectionPool* pool) { return Client(kKey, pool); });
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0].text, "first");
  EXPECT_EQ(results[1].text, "second");
  EXPECT_EQ(results[2].text, "third");
  json requests = fake_->Requests();
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_EQ(requests[1]["connection"], requests[0]["connection"]);
  EXPECT_EQ(requests[2]["connection"], requests[0]["connection"]);
  EXPECT_NE(requests[0]["headers"].value("connection", ""), "close");
  EXPECT_EQ(idle_after_, 1u);
}

TEST_F(OpenAiClientTest, WithoutAPoolEachCallHasItsOwnConnection) {
  StartFake(R"({"responses": [{"text": "first"}, {"text": "second"}]})");
  auto client = Client();
  ASSERT_TRUE(Call(*client, Body()).status.ok());
  ASSERT_TRUE(Call(*client, Body()).status.ok());
  json requests = fake_->Requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_NE(requests[1]["connection"], requests[0]["connection"]);
  EXPECT_EQ(requests[0]["headers"]["connection"], "close");
}

TEST_F(OpenAiClientTest, AConnectionTheProviderClosedWhileIdleIsReplacedOnce) {
  StartFake(R"({"responses": [{"text": "first"}, {"text": "second"}]})");
  auto results = PooledCalls(
      2, [&](ModelConnectionPool* pool) { return Client(kKey, pool); },
      [&] {
        fake_->CloseIdleConnections();
        std::this_thread::sleep_for(milliseconds(100));  // The close reaches this side.
      });
  ASSERT_EQ(results.size(), 2u);
  ASSERT_TRUE(results[1].status.ok()) << results[1].status.ToString();
  EXPECT_EQ(results[1].text, "second");
  json requests = fake_->Requests();
  ASSERT_EQ(requests.size(), 2u);  // Sent once: the dead connection carried nothing.
  EXPECT_NE(requests[1]["connection"], requests[0]["connection"]);
}

TEST_F(OpenAiClientTest, AStoppedCallsConnectionIsNotKept) {
  StartFake(R"({"responses": [{"text": ["one ", "two"], "delayMs": 300}]})");
  auto stop = std::make_shared<StopSignal>();
  auto results = PooledCalls(
      1, [&](ModelConnectionPool* pool) { return Client(kKey, pool); }, nullptr, stop);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].status.code(), core::codes::kCancelled);
  EXPECT_EQ(idle_after_, 0u);
}

TEST_F(OpenAiClientTest, AFailedAnswersConnectionIsNotKept) {
  StartFake(R"({"responses": [{"status": 429, "error": {"message": "slow down"}}]})");
  auto results = PooledCalls(1, [&](ModelConnectionPool* pool) { return Client(kKey, pool); });
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].status.code(), core::codes::kModelError);
  EXPECT_EQ(idle_after_, 0u);
}

TEST_F(OpenAiClientTest, TheKeyNeverReachesALogLine) {
  StartFake(std::string(R"({"requireKey": ")") + kKey + R"(", "responses": [
      {"text": "fine"},
      {"status": 401, "error": {"message": "Incorrect API key provided: )" +
            kKey + R"(", "code": "invalid_api_key"}}]})");
  auto client = Client();
  CallResult ok = Call(*client, Body());
  ASSERT_TRUE(ok.status.ok()) << ok.status.ToString();
  CallResult refused = Call(*client, Body());
  EXPECT_EQ(refused.http_status, 401);
  EXPECT_THAT(refused.status.message(), HasSubstr("Incorrect API key provided"));
  EXPECT_THAT(refused.status.message(), Not(HasSubstr(kKey)));
  ExpectKeyNeverLogged();

  // A wrong key: the provider's 401, and the key still nowhere in the logs.
  auto wrong = Client("sk-wrong-key-000");
  CallResult denied = Call(*wrong, Body());
  EXPECT_EQ(denied.http_status, 401);
  ExpectKeyNeverLogged();
}

TEST_F(OpenAiClientTest, AnUnreachableProviderIsAModelError) {
  StartFake(R"({"responses": []})");
  const uint16_t port = fake_->port();
  fake_->Stop();
  ProviderConfig config;
  config.base_url = "http://127.0.0.1:" + std::to_string(port) + "/v1";
  auto client = OpenAiClient::Create(config, logger_);
  ASSERT_TRUE(client.ok());
  CallResult r = Call(**client, Body());
  EXPECT_EQ(r.status.code(), core::codes::kModelError);
  EXPECT_EQ(r.http_status, 0);
}

// An answer that declares a body over the limit is refused as too large when
// its header ends (it used to read as a provider that "did not answer").
TEST_F(OpenAiClientTest, AnAnswerDeclaredOverTheLimitIsRefused) {
  testing::FeedServer server;
  server.Set("/v1/chat/completions", {200, std::string(kMaxResponseBodyBytes + 1, ' '),
                                      "Content-Type: application/json\r\n"});
  ProviderConfig config;
  config.base_url = server.Url("/v1");
  config.provider = "fake";
  auto client = OpenAiClient::Create(config, logger_);
  ASSERT_TRUE(client.ok());
  CallResult r = Call(**client, Body());
  EXPECT_EQ(r.status.code(), core::codes::kBodyTooLarge) << r.status.ToString();
  EXPECT_THAT(r.status.message(), HasSubstr("sent an answer over"));
}

// HTTPS: the fake with a certificate for "localhost" made for the test.
class OpenAiClientTlsTest : public OpenAiClientTest {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/ensemble_tls_XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    dir_ = dir;
    const std::string command =
        "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 "
        "-subj /CN=localhost -addext subjectAltName=DNS:localhost -keyout " +
        dir_ + "/key.pem -out " + dir_ + "/cert.pem >/dev/null 2>&1";
    if (std::system(command.c_str()) != 0) GTEST_SKIP() << "openssl could not make a certificate";
    const std::string scenario =
        R"({"responses": [{"text": ["secure ", "hello"]}], "exhausted": "repeat-last"})";
    auto fake = testing::FakeModelProcess::Start(
        json::parse(scenario), {"--tls-cert", dir_ + "/cert.pem", "--tls-key", dir_ + "/key.pem"});
    ASSERT_TRUE(fake.ok()) << fake.status().ToString();
    UseFake(std::move(fake).value());
  }
  void TearDown() override {
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }

  std::unique_ptr<OpenAiClient> TlsClient(const std::string& host, bool trust_the_cert) {
    ProviderConfig config;
    config.base_url = "https://" + host + ":" + std::to_string(fake_->port()) + "/v1";
    config.api_key = kKey;
    if (trust_the_cert) config.ca_file = dir_ + "/cert.pem";
    auto client = OpenAiClient::Create(config, logger_);
    EXPECT_TRUE(client.ok()) << client.status().ToString();
    return std::move(client).value();
  }

  std::string dir_;
};

TEST_F(OpenAiClientTlsTest, StreamsFromAProviderWithATrustedCertificate) {
  auto client = TlsClient("localhost", /*trust_the_cert=*/true);
  CallResult r = Call(*client, Body());
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.text, "secure hello");
  EXPECT_EQ(fake_->Requests()[0]["headers"]["authorization"], std::string("Bearer ") + kKey);
}

TEST_F(OpenAiClientTlsTest, RefusesAnUntrustedCertificateBeforeSendingTheKey) {
  auto client = TlsClient("localhost", /*trust_the_cert=*/false);
  CallResult r = Call(*client, Body());
  EXPECT_EQ(r.status.code(), core::codes::kModelError);
  EXPECT_THAT(r.status.message(), HasSubstr("TLS handshake"));
  EXPECT_EQ(fake_->Requests(), json::array());  // The key was never sent.
}

TEST_F(OpenAiClientTlsTest, RefusesACertificateForAnotherHost) {
  // The certificate names localhost, not 127.0.0.1.
  auto client = TlsClient("127.0.0.1", /*trust_the_cert=*/true);
  CallResult r = Call(*client, Body());
  EXPECT_EQ(r.status.code(), core::codes::kModelError);
  EXPECT_THAT(r.status.message(), HasSubstr("TLS handshake"));
  EXPECT_EQ(fake_->Requests(), json::array());  // The key was never sent.
}

TEST_F(OpenAiClientTlsTest, AVerifiedConnectionOutlivesTheClientThatMadeIt) {
  // Each turn makes its own client (and TLS context); the pooled connection
  // keeps the context it was verified with.
  auto results = PooledCalls(2, [&](ModelConnectionPool* pool) {
    ProviderConfig config;
    config.base_url = "https://localhost:" + std::to_string(fake_->port()) + "/v1";
    config.ca_file = dir_ + "/cert.pem";
    return std::move(OpenAiClient::Create(config, logger_, pool)).value();
  });
  ASSERT_EQ(results.size(), 2u);
  ASSERT_TRUE(results[1].status.ok()) << results[1].status.ToString();
  EXPECT_EQ(results[1].text, "secure hello");
  json requests = fake_->Requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[1]["connection"], requests[0]["connection"]);
}

TEST(OpenAiClient, RefusesBadConfiguration) {
  testing::FakeLogger logger;
  for (const char* url : {"ftp://x/v1", "127.0.0.1:8080", "http://:80/v1", "http://h:99999/v1",
                          "http://h:port/v1", "http://user:pw@h/v1", "http://[::1/v1"}) {
    ProviderConfig config;
    config.base_url = url;
    EXPECT_EQ(OpenAiClient::Create(config, logger).status().code(), core::codes::kInvalidArgument)
        << url;
  }
  ProviderConfig bad_key;
  bad_key.base_url = "http://127.0.0.1:1/v1";
  bad_key.api_key = "sk-abc\r\nX-Evil: 1";
  EXPECT_EQ(OpenAiClient::Create(bad_key, logger).status().code(), core::codes::kInvalidArgument);
  ProviderConfig bad_ca;
  bad_ca.base_url = "https://127.0.0.1:1/v1";
  bad_ca.ca_file = "/nonexistent/ca.pem";
  EXPECT_EQ(OpenAiClient::Create(bad_ca, logger).status().code(), core::codes::kInvalidArgument);
}

TEST(OpenAiClient, AcceptsProviderUrls) {
  testing::FakeLogger logger;
  for (const char* url :
       {"https://api.openai.com/v1", "http://localhost:11434/v1/", "http://[::1]:8000/v1",
        "https://x.openai.azure.com/openai/deployments/d?api-version=2024-10-21"}) {
    ProviderConfig config;
    config.base_url = url;
    auto client = OpenAiClient::Create(config, logger);
    ASSERT_TRUE(client.ok()) << url << ": " << client.status().ToString();
  }
  ProviderConfig config;
  config.base_url = "https://api.openai.com/v1";
  EXPECT_TRUE((*OpenAiClient::Create(config, logger))->tls());
}

}  // namespace
}  // namespace ensemble::server::model
