#include "server/connectors/link_reader.h"

#include <algorithm>
#include <utility>

namespace ensemble::server::connectors {

core::Result<std::string> LinkReader::ReadCalendarFeed(core::store::Database& db,
                                                       const core::connections::Connection& c) {
  const auto now = std::chrono::steady_clock::now();
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = kept_.find(c.id);
    if (it != kept_.end() && now - it->second.at < kFeedReuse) return it->second.feed;
  }
  ENSEMBLE_ASSIGN_OR_RETURN(std::string sealed, core::connections::SealedSecret(db, c.id));
  core::Result<std::string> link = box_.Open(sealed);
  if (!link.ok()) {
    return core::Status(core::codes::kAppUnreachable,
                        "its saved link could not be opened with this server's key; add it again.");
  }
  ENSEMBLE_ASSIGN_OR_RETURN(std::string feed, HttpGet(*link, limits_));
  std::lock_guard<std::mutex> lock(mu_);
  if (kept_.size() >= kMaxKeptFeeds && !kept_.count(c.id)) {
    auto oldest = std::min_element(kept_.begin(), kept_.end(), [](const auto& a, const auto& b) {
      return a.second.at < b.second.at;
    });
    kept_.erase(oldest);
  }
  kept_[c.id] = {feed, now};
  return feed;
}

}  // namespace ensemble::server::connectors
