#include "server/events/poke_hub.h"

#include <algorithm>

namespace ensemble::server::events {

PokeHub::Subscription::~Subscription() { hub_.Unsubscribe(this); }

std::optional<int64_t> PokeHub::Subscription::TakePending() {
  std::optional<int64_t> out = pending_;
  pending_.reset();
  return out;
}

std::unique_ptr<PokeHub::Subscription> PokeHub::Subscribe(std::function<void()> wake,
                                                          std::string account_id) {
  if (subscribers_.size() >= max_subscribers_) return nullptr;
  std::unique_ptr<Subscription> sub(
      new Subscription(*this, std::move(wake), std::move(account_id)));
  subscribers_.push_back(sub.get());
  count_.store(subscribers_.size(), std::memory_order_relaxed);
  return sub;
}

size_t PokeHub::SubscribersOf(std::string_view account_id) const {
  return static_cast<size_t>(
      std::count_if(subscribers_.begin(), subscribers_.end(),
                    [account_id](const Subscription* s) { return s->account_id_ == account_id; }));
}

void PokeHub::Unsubscribe(Subscription* subscriber) {
  auto it = std::find(subscribers_.begin(), subscribers_.end(), subscriber);
  if (it == subscribers_.end()) return;
  *it = subscribers_.back();  // Order does not matter: swap and pop.
  subscribers_.pop_back();
  count_.store(subscribers_.size(), std::memory_order_relaxed);
}

bool PokeHub::Wants(const Subscription& subscriber, const Poke& poke) {
  if (!poke.readers || subscriber.account_id_.empty()) return true;
  return std::binary_search(poke.readers->begin(), poke.readers->end(), subscriber.account_id_);
}

void PokeHub::Publish(const Poke& poke) {
  for (Subscription* sub : subscribers_) {
    if (poke.version <= sub->heard_ || !Wants(*sub, poke)) continue;
    sub->heard_ = poke.version;
    sub->pending_ = std::max(sub->pending_.value_or(0), poke.version);
    sub->wake_();
  }
}

}  // namespace ensemble::server::events
