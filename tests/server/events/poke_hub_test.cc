// PokeHub on its own: coalescing (a subscriber that has not taken its pokes
// holds only the newest version), dropping versions that are not news, the
// subscriber limit and unsubscribing on destruction.

#include "server/events/poke_hub.h"

#include <gtest/gtest.h>

#include <memory>

namespace ensemble::server::events {
namespace {

TEST(PokeHub, ASlowSubscriberKeepsOnlyTheNewestVersion) {
  PokeHub hub;
  int wakes = 0;
  auto sub = hub.Subscribe([&wakes] { ++wakes; });
  ASSERT_NE(sub, nullptr);
  EXPECT_EQ(sub->TakePending(), std::nullopt);
  for (int64_t v = 1; v <= 1000; ++v) hub.Publish(Poke{v});
  EXPECT_EQ(wakes, 1000);
  EXPECT_EQ(sub->TakePending(), 1000);
  EXPECT_EQ(sub->TakePending(), std::nullopt);
}

TEST(PokeHub, VersionsThatAreNotNewsAreDropped) {
  PokeHub hub;
  int wakes = 0;
  auto sub = hub.Subscribe([&wakes] { ++wakes; });
  hub.Publish(Poke{5});
  hub.Publish(Poke{5});  // The same poke back over LISTEN/NOTIFY.
  hub.Publish(Poke{3});  // Late, and already covered by 5.
  EXPECT_EQ(wakes, 1);
  EXPECT_EQ(sub->TakePending(), 5);
}

TEST(PokeHub, LimitsSubscribersAndFreesPlacesOnDestruction) {
  PokeHub hub(2);
  auto a = hub.Subscribe([] {});
  auto b = hub.Subscribe([] {});
  EXPECT_NE(a, nullptr);
  EXPECT_NE(b, nullptr);
  EXPECT_EQ(hub.Subscribe([] {}), nullptr);
  EXPECT_EQ(hub.subscriber_count(), 2u);
  a.reset();
  EXPECT_EQ(hub.subscriber_count(), 1u);
  int wakes = 0;
  auto c = hub.Subscribe([&wakes] { ++wakes; });
  ASSERT_NE(c, nullptr);
  hub.Publish(Poke{1});
  EXPECT_EQ(wakes, 1);
  EXPECT_EQ(b->TakePending(), 1);
}

}  // namespace
}  // namespace ensemble::server::events
