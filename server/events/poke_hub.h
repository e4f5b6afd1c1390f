// PokeHub: the server's in-process fan-out of pokes ("the data changed; pull")
// to its SSE subscribers (GET /api/events, server/events/event_stream.h).
//
// A subscriber keeps only the latest version it has not been sent yet, so a
// slow subscriber costs one integer however many pushes commit: Publish never
// waits, never allocates per poke and never blocks the push path. A poke
// names the accounts that can read what changed; a subscriber of another
// account does not hear of it (the single local person hears everything).
// Versions only grow (they come from the store's change counter), so a
// subscriber is not poked again for a version it has already heard of; that
// also merges the local poke after a push with the same poke coming back over
// LISTEN/NOTIFY. The check is per subscriber: a later poke for other readers
// must not hide an earlier one for this one.
//
// Thread-safety: Subscribe, Publish and the Subscription's methods run on the
// server's io thread; subscriber_count() may be read from any thread.

#ifndef ENSEMBLE_SERVER_EVENTS_POKE_HUB_H_
#define ENSEMBLE_SERVER_EVENTS_POKE_HUB_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ensemble::server::events {

// How many SSE subscribers one server process keeps; each holds a socket, and
// the default descriptor limit (1024) must leave room for ordinary requests.
inline constexpr size_t kMaxEventSubscribers = 500;
// Event streams one account may hold open in one process (a tab keeps one):
// one person cannot take every place of kMaxEventSubscribers.
inline constexpr size_t kMaxEventStreamsPerAccount = 20;

// One committed change: the store's server version after it.
struct Poke {
  int64_t version = 0;
  // The accounts that can read the change, sorted; null: every subscriber
  // (local mode, or a poke whose readers are unknown).
  std::shared_ptr<const std::vector<std::string>> readers;
};

class PokeHub {
 public:
  // A registration; unsubscribes when destroyed.
  class Subscription {
   public:
    ~Subscription();
    Subscription(const Subscription&) = delete;
    Subscription& operator=(const Subscription&) = delete;

    // The newest version published since the last call, if any.
    std::optional<int64_t> TakePending();

   private:
    friend class PokeHub;
    Subscription(PokeHub& hub, std::function<void()> wake, std::string account_id)
        : hub_(hub), wake_(std::move(wake)), account_id_(std::move(account_id)) {}

    PokeHub& hub_;
    std::function<void()> wake_;
    const std::string account_id_;  // Empty: the local person, who reads everything.
    std::optional<int64_t> pending_;
    int64_t heard_ = 0;  // The newest version this subscriber was poked with.
  };

  explicit PokeHub(size_t max_subscribers = kMaxEventSubscribers)
      : max_subscribers_(max_subscribers) {}
  PokeHub(const PokeHub&) = delete;
  PokeHub& operator=(const PokeHub&) = delete;

  // Registers a subscriber for `account_id` (empty: the local person, who
  // hears every poke) whose `wake` is called (on the io thread, and must not
  // call back into the hub) when a poke is pending; nullptr when
  // max_subscribers are already registered. The hub must outlive it.
  std::unique_ptr<Subscription> Subscribe(std::function<void()> wake, std::string account_id = {});

  // Pokes every subscriber that wants `poke`, unless a version at least as new
  // was published already.
  void Publish(const Poke& poke);

  size_t subscriber_count() const { return count_.load(std::memory_order_relaxed); }
  // The subscribers registered for `account_id` (on the io thread).
  size_t SubscribersOf(std::string_view account_id) const;
  size_t max_subscribers() const { return max_subscribers_; }

 private:
  // Whether `subscriber` may hear of `poke`: it reads what changed.
  static bool Wants(const Subscription& subscriber, const Poke& poke);
  void Unsubscribe(Subscription* subscriber);

  const size_t max_subscribers_;
  std::vector<Subscription*> subscribers_;
  std::atomic<size_t> count_{0};
};

}  // namespace ensemble::server::events

#endif  // ENSEMBLE_SERVER_EVENTS_POKE_HUB_H_
