// PokeHub on its own: coalescing (a subscriber that has not taken its pokes
// holds only the newest version), dropping versions that are not news, pokes
// only for the accounts that can read the change, the subscriber limit and
// unsubscribing on destruction.

#include "server/events/poke_hub.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace ensemble::server::events {
namespace {

TEST(PokeHub, ASlowSubscriberKeepsOnlyTheNewestVersion) {
  PokeHub hub;
  int wakes = 0;
  auto sub = hub.Subscribe([&wakes] { ++wakes; });
  ASSERT_NE(sub, nullptr);
  EXPECT_EQ(sub->TakePending(), std::nullopt);
  for (int64_t v = 1; v <= 1000; ++v) hub.Publish(Poke{v, nullptr});
  EXPECT_EQ(wakes, 1000);
  EXPECT_EQ(sub->TakePending(), 1000);
  EXPECT_EQ(sub->TakePending(), std::nullopt);
}

TEST(PokeHub, VersionsThatAreNotNewsAreDropped) {
  PokeHub hub;
  int wakes = 0;
  auto sub = hub.Subscribe([&wakes] { ++wakes; });
  hub.Publish(Poke{5, nullptr});
  hub.Publish(Poke{5, nullptr});  // The same poke back over LISTEN/NOTIFY.
  hub.Publish(Poke{3, nullptr});  // Late, and already covered by 5.
  EXPECT_EQ(wakes, 1);
  EXPECT_EQ(sub->TakePending(), 5);
}

Poke PokeFor(int64_t version, std::vector<std::string> readers) {
  return Poke{version, std::make_shared<const std::vector<std::string>>(std::move(readers))};
}

TEST(PokeHub, AnAccountHearsOnlyOfChangesItCanRead) {
  PokeHub hub;
  int ann_wakes = 0, bob_wakes = 0, local_wakes = 0;
  auto ann = hub.Subscribe([&] { ++ann_wakes; }, "ann");
  auto bob = hub.Subscribe([&] { ++bob_wakes; }, "bob");
  auto local = hub.Subscribe([&] { ++local_wakes; });
  hub.Publish(PokeFor(5, {"ann", "vic"}));
  EXPECT_EQ(ann->TakePending(), 5);
  EXPECT_EQ(bob->TakePending(), std::nullopt);
  EXPECT_EQ(bob_wakes, 0);
  EXPECT_EQ(local->TakePending(), 5);  // The local person reads everything.
  hub.Publish(Poke{6, nullptr});       // Readers unknown: everyone.
  EXPECT_EQ(ann->TakePending(), 6);
  EXPECT_EQ(bob->TakePending(), 6);
  EXPECT_EQ(local->TakePending(), 6);
  hub.Publish(PokeFor(7, {}));  // Nobody reads it (a space without members).
  EXPECT_EQ(ann->TakePending(), std::nullopt);
  EXPECT_EQ(local->TakePending(), 7);
  EXPECT_EQ(ann_wakes, 2);
  EXPECT_EQ(local_wakes, 3);
}

TEST(PokeHub, ALaterPokeForOthersDoesNotHideAnEarlierOne) {
  PokeHub hub;
  auto ann = hub.Subscribe([] {}, "ann");
  auto bob = hub.Subscribe([] {}, "bob");
  // Two server processes: bob's change (9) arrives over LISTEN/NOTIFY after
  // ann's (10) was published here.
  hub.Publish(PokeFor(10, {"ann"}));
  hub.Publish(PokeFor(9, {"bob"}));
  EXPECT_EQ(ann->TakePending(), 10);
  EXPECT_EQ(bob->TakePending(), 9);
  hub.Publish(PokeFor(9, {"bob"}));  // Its echo is not news to bob.
  EXPECT_EQ(bob->TakePending(), std::nullopt);
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
  hub.Publish(Poke{1, nullptr});
  EXPECT_EQ(wakes, 1);
  EXPECT_EQ(b->TakePending(), 1);
}

}  // namespace
}  // namespace ensemble::server::events
