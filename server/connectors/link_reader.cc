#include "server/connectors/link_reader.h"

#include <algorithm>
#include <vector>

namespace ensemble::server::connectors {

namespace {

// The entry of `map` to drop for room: the one kept longest.
template <typename Map>
typename Map::iterator Oldest(Map& map) {
  return std::min_element(map.begin(), map.end(),
                          [](const auto& a, const auto& b) { return a.second.at < b.second.at; });
}

}  // namespace

core::Result<std::string> LinkReader::ReadCalendarFeed(core::store::Database& db,
                                                       const core::connections::Connection& c) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = kept_.find(c.id);
    if (it != kept_.end() && std::chrono::steady_clock::now() - it->second.at < kFeedReuse) {
      if (it->second.failure.ok()) return it->second.feed;
      core::Status failure = it->second.failure;
      kept_.erase(it);
      return failure;
    }
  }
  ENSEMBLE_ASSIGN_OR_RETURN(std::string sealed, core::connections::SealedSecret(db, c.id));
  core::Result<std::string> link = box_.Open(sealed);
  if (!link.ok()) {
    return core::Status(core::codes::kAppUnreachable,
                        "its saved link could not be opened with this server's key; add it again.");
  }
  std::lock_guard<std::mutex> lock(mu_);
  if (noted_.size() >= kMaxKeptFeeds && !noted_.count(c.id)) noted_.erase(noted_.begin());
  noted_[c.id] = std::move(*link);
  return core::Status(core::codes::kAppReadPending, "the calendar is not read yet.");
}

boost::asio::awaitable<void> LinkReader::FetchNoted() {
  std::map<std::string, std::string> noted;
  {
    std::lock_guard<std::mutex> lock(mu_);
    noted.swap(noted_);
  }
  for (auto& [id, link] : noted) {
    core::Result<std::string> feed = co_await HttpGetAsync(std::move(link), limits_);
    Kept kept{std::string(), core::Status::Ok(), std::chrono::steady_clock::now()};
    if (feed.ok()) {
      kept.feed = std::move(*feed);
    } else {
      kept.failure = feed.status();
    }
    Keep(id, std::move(kept));
  }
}

void LinkReader::Keep(const std::string& id, Kept kept) {
  std::lock_guard<std::mutex> lock(mu_);
  if (kept_.size() >= kMaxKeptFeeds && !kept_.count(id)) kept_.erase(Oldest(kept_));
  kept_[id] = std::move(kept);
}

}  // namespace ensemble::server::connectors
