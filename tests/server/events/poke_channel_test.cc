// The poke's NOTIFY payload: the version, and the accounts that can read the
// change when they fit; anything else in a payload is not a poke.

#include "server/events/poke_channel.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace ensemble::server::events {
namespace {

Poke For(int64_t version, std::vector<std::string> readers) {
  return Poke{version, std::make_shared<const std::vector<std::string>>(std::move(readers))};
}

TEST(PokeChannel, PayloadsRoundTripWithTheirReaders) {
  EXPECT_EQ(PokePayload(Poke{42, nullptr}), "42");
  EXPECT_EQ(PokePayload(For(42, {"ann", "bob"})), "42:ann,bob");
  auto everyone = ParsePokePayload("42");
  ASSERT_TRUE(everyone.has_value());
  EXPECT_EQ(everyone->version, 42);
  EXPECT_EQ(everyone->readers, nullptr);
  auto two = ParsePokePayload("42:bob,ann");
  ASSERT_TRUE(two.has_value());
  EXPECT_EQ(*two->readers, (std::vector<std::string>{"ann", "bob"}));  // Sorted for lookup.
  auto nobody = ParsePokePayload(PokePayload(For(7, {})));
  ASSERT_TRUE(nobody.has_value());
  ASSERT_NE(nobody->readers, nullptr);
  EXPECT_TRUE(nobody->readers->empty());
}

TEST(PokeChannel, ReadersThatDoNotFitMakeAPokeForEveryone) {
  std::vector<std::string> many;
  for (int i = 0; i < 1000; ++i) many.push_back("account-" + std::to_string(1000 + i));
  const std::string payload = PokePayload(For(9, many));
  EXPECT_EQ(payload, "9");
  EXPECT_LE(PokePayload(For(9, {std::string(kMaxPokePayloadBytes - 10, 'a')})).size(),
            kMaxPokePayloadBytes);
  // An id holding a separator cannot be listed either.
  EXPECT_EQ(PokePayload(For(9, {"a,b"})), "9");
}

TEST(PokeChannel, AnythingElseIsNotAPoke) {
  for (const char* bad : {"", "x", "-1", "12x", "12:a,,b", "12:a:b", " 12", "12:,"}) {
    EXPECT_FALSE(ParsePokePayload(bad).has_value()) << bad;
  }
}

}  // namespace
}  // namespace ensemble::server::events
