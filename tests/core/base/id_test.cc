#include "core/base/id.h"

#include <gtest/gtest.h>

#include <set>

#include "tests/fakes/fake_env.h"

namespace ensemble::core {
namespace {

TEST(Id, HasTheUlidShape) {
  testing::FakeEnv env;
  std::string id = NewId(env.clock, env.random);
  EXPECT_EQ(id.size(), kIdLength);
  EXPECT_TRUE(IsValidId(id));
}

TEST(Id, SortsByCreationTime) {
  testing::FakeEnv env;
  std::string earlier = NewId(env.clock, env.random);
  env.clock.Advance(1);
  std::string later = NewId(env.clock, env.random);
  EXPECT_LT(earlier, later);
}

TEST(Id, NeverRepeatsWithinOneMillisecond) {
  testing::FakeEnv env;
  std::set<std::string> seen;
  for (int i = 0; i < 10000; ++i) seen.insert(NewId(env.clock, env.random));
  EXPECT_EQ(seen.size(), 10000u);
}

TEST(Id, RejectsOtherShapes) {
  EXPECT_FALSE(IsValidId(""));
  EXPECT_FALSE(IsValidId("01ARZ3NDEKTSV4RRFFQ69G5FA"));   // 25 characters.
  EXPECT_FALSE(IsValidId("01ARZ3NDEKTSV4RRFFQ69G5FAU"));  // U is not Crockford base32.
  EXPECT_FALSE(IsValidId("81ARZ3NDEKTSV4RRFFQ69G5FAV"));  // Overflows 128 bits.
  EXPECT_TRUE(IsValidId("01ARZ3NDEKTSV4RRFFQ69G5FAV"));
}

TEST(Id, DerivedIdsAreValidStableAndKeepTheSourcesTime) {
  const std::string from = "01JB0000000000000000000001";
  const std::string a = DerivedId(from, "email@1");
  EXPECT_TRUE(IsValidId(a)) << a;
  EXPECT_EQ(a, DerivedId(from, "email@1"));
  EXPECT_NE(a, DerivedId(from, "email@2"));
  EXPECT_NE(a, DerivedId("01JB0000000000000000000002", "email@1"));
  EXPECT_EQ(a.substr(0, 10), from.substr(0, 10));
}

}  // namespace
}  // namespace ensemble::core
