// AppendJsonString must write exactly what nlohmann::json's compact dump
// writes, since request bodies mix the two.

#include "core/text/json_string.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>
#include <string>

namespace ensemble::core::text {
namespace {

std::string Library(const std::string& s) {
  return nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string Ours(std::string_view s) {
  std::string out = "prefix:";
  AppendJsonString(out, s);
  return out.substr(7);
}

TEST(JsonString, EscapesAsTheLibraryDoes) {
  for (const std::string s :
       {std::string(""), std::string("plain"), std::string("quote \" backslash \\ slash /"),
        std::string("\b\f\n\r\t"), std::string("\x01\x1f\x7f", 3), std::string("nul \0 in", 8),
        std::string("é ✓ 🙂 </script>"), std::string("bad \xff byte"),
        std::string("cut \xe2\x9c"), std::string("surrogate \xed\xa0\x80")}) {
    EXPECT_EQ(Ours(s), Library(s)) << s;
  }
}

TEST(JsonString, MatchesTheLibraryOnRandomBytes) {
  std::mt19937 rng(20261130);
  // Mostly printable text with the bytes that matter mixed in.
  const std::string alphabet =
      std::string("ab \"\\/\n\t\x01\x1f\x7f", 11) + "\xc3\xa9\xe2\x9c\x93\xf0\x9f\x99\x82\xff\x80";
  for (int round = 0; round < 5000; ++round) {
    std::string s;
    const size_t len = rng() % 40;
    for (size_t i = 0; i < len; ++i) s += alphabet[rng() % alphabet.size()];
    ASSERT_EQ(Ours(s), Library(s)) << "round " << round;
  }
}

}  // namespace
}  // namespace ensemble::core::text
