// The codings a request accepts, and the Brotli compression of API answers.

#include "server/http/compression.h"

#include <brotli/decode.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "server/http/json_response.h"
#include "tests/server/server_fixture.h"

namespace ensemble::testing {
namespace {

using boost::beast::http::field;
using boost::beast::http::status;
using server::http::AcceptsEncoding;
using server::http::CompressAnswer;
using server::http::JsonResponse;
using server::http::kMinCompressedBody;

// `in` decoded from Brotli; empty unless it is one whole Brotli stream.
std::string Unbrotli(std::string_view in) {
  BrotliDecoderState* state = BrotliDecoderCreateInstance(nullptr, nullptr, nullptr);
  size_t avail_in = in.size();
  const auto* next_in = reinterpret_cast<const uint8_t*>(in.data());
  std::string out;
  BrotliDecoderResult result;
  do {
    uint8_t chunk[1 << 16];
    size_t avail_out = sizeof chunk;
    uint8_t* next_out = chunk;
    result =
        BrotliDecoderDecompressStream(state, &avail_in, &next_in, &avail_out, &next_out, nullptr);
    out.append(reinterpret_cast<const char*>(chunk), sizeof chunk - avail_out);
  } while (result == BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT);
  BrotliDecoderDestroyInstance(state);
  return result == BROTLI_DECODER_RESULT_SUCCESS ? out : std::string();
}

TEST(AcceptsEncoding, HonoursQValues) {
  EXPECT_TRUE(AcceptsEncoding("gzip, deflate, br", "br"));
  EXPECT_TRUE(AcceptsEncoding(" br ; q=0.001 ", "br"));
  EXPECT_TRUE(AcceptsEncoding("*;q=0.5", "gzip"));
  EXPECT_FALSE(AcceptsEncoding("", "br"));
  EXPECT_FALSE(AcceptsEncoding("gzip", "br"));
  EXPECT_FALSE(AcceptsEncoding("br;q=0", "br"));
  EXPECT_FALSE(AcceptsEncoding("br;q=0.000", "br"));
  EXPECT_FALSE(AcceptsEncoding("br;q=0, *", "br"));
  EXPECT_FALSE(AcceptsEncoding("br;q=2", "br"));
  EXPECT_FALSE(AcceptsEncoding("br;q=1.0001", "br"));
  EXPECT_FALSE(AcceptsEncoding("brotli", "br"));
}

server::http::Request Accepting(std::string accept_encoding) {
  server::http::Request request(boost::beast::http::verb::get, "/api/sync/pull", 11);
  if (!accept_encoding.empty()) request.set(field::accept_encoding, accept_encoding);
  return request;
}

// A JSON answer of about `bytes` bytes, as repetitive as a list of records.
server::http::StringResponse Answer(size_t bytes) {
  nlohmann::json rows = nlohmann::json::array();
  while (rows.dump().size() < bytes)
    rows.push_back({{"title", "Benchmark task"}, {"n", rows.size()}});
  return JsonResponse(status::ok, {{"rows", rows}});
}

TEST(CompressAnswer, SendsALargeAnswerInBrotliWhenAccepted) {
  server::http::StringResponse response = Answer(20'000);
  const std::string plain = response.body();
  CompressAnswer(Accepting("gzip, deflate, br"), response);
  EXPECT_EQ(response[field::content_encoding], "br");
  EXPECT_EQ(response[field::vary], "Accept-Encoding");
  EXPECT_LT(response.body().size(), plain.size() / 4);
  EXPECT_EQ(response[field::content_length], std::to_string(response.body().size()));
  EXPECT_EQ(Unbrotli(response.body()), plain);
}

TEST(CompressAnswer, LeavesAnswersAloneThatItShouldNotCompress) {
  auto unchanged = [](server::http::StringResponse response, const std::string& accept) {
    const std::string before = response.body();
    CompressAnswer(Accepting(accept), response);
    return response.count(field::content_encoding) == 0 && response.body() == before;
  };
  EXPECT_TRUE(unchanged(Answer(20'000), ""));
  EXPECT_TRUE(unchanged(Answer(20'000), "gzip"));
  EXPECT_TRUE(unchanged(Answer(20'000), "br;q=0"));
  // Too small to be worth it.
  EXPECT_TRUE(unchanged(JsonResponse(status::ok, {{"ok", true}}), "br"));
  server::http::StringResponse small = Answer(kMinCompressedBody / 2);
  EXPECT_TRUE(unchanged(small, "br"));
  // Not an API answer: a file's JSON has its own validator and copies.
  server::http::StringResponse file = Answer(20'000);
  file.set(field::cache_control, "no-cache");
  EXPECT_TRUE(unchanged(file, "br"));
  server::http::StringResponse text = Answer(20'000);
  text.set(field::content_type, "text/plain");
  EXPECT_TRUE(unchanged(text, "br"));
}

// Through the server: a pull of many tasks comes in Brotli to a client that
// asks for it, and as it was to one that does not.
class CompressedAnswers : public ServerTest {};

TEST_P(CompressedAnswers, APullComesInBrotliToAClientThatAcceptsIt) {
  nlohmann::json mutations = nlohmann::json::array();
  for (int i = 1; i <= 40; ++i) {
    char id[27];
    std::snprintf(id, sizeof id, "01JB00000000000000000T%04d", i);
    mutations.push_back({{"id", i},
                         {"name", "task.create"},
                         {"args", {{"id", id}, {"spaceId", "personal"}, {"title", "Pulled"}}},
                         {"clientTime", 1'764'000'000'000 + i}});
  }
  ASSERT_EQ(client()
                .PostJson("/api/sync/push", {{"clientGroupId", "01JB00000000000000000000G1"},
                                             {"clientId", "01JB00000000000000000000C1"},
                                             {"mutations", mutations}})
                .status,
            200);
  const std::string pull = "/api/sync/pull?clientId=01JB00000000000000000000C2&cursor=0";
  HttpReply plain = client().Get(pull);
  ASSERT_EQ(plain.status, 200) << plain.body();
  EXPECT_EQ(plain.header(field::content_encoding), "");
  EXPECT_EQ(plain.header(field::vary), "Accept-Encoding");
  EXPECT_EQ(plain.json()["changes"].size(), 40u);

  HttpReply compressed = client().Get(pull, {{field::accept_encoding, "gzip, deflate, br"}});
  ASSERT_EQ(compressed.status, 200);
  EXPECT_EQ(compressed.header(field::content_encoding), "br");
  EXPECT_LT(compressed.body().size(), plain.body().size() / 4);
  EXPECT_EQ(Unbrotli(compressed.body()), plain.body());
}

INSTANTIATE_TEST_SUITE_P(Server, CompressedAnswers, ::testing::Values(StoreKind::kSqlite),
                         StoreKindTestName);

}  // namespace
}  // namespace ensemble::testing
