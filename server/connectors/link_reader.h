// LinkReader: the server's core::connections::AppReader. It opens a
// connection's sealed link with the SecretBox and reads it with HttpGet.
// A proposal and its Apply read the same calendar twice each (prepare, then
// preview or run), so a feed is kept for kFeedReuse and reused within it.
//
// Thread-safety: safe from several store threads (the kept feeds are
// guarded by a mutex).

#ifndef ENSEMBLE_SERVER_CONNECTORS_LINK_READER_H_
#define ENSEMBLE_SERVER_CONNECTORS_LINK_READER_H_

#include <chrono>
#include <map>
#include <mutex>
#include <string>

#include "core/connections/app_reader.h"
#include "server/connectors/http_fetch.h"
#include "server/credentials/secret_box.h"

namespace ensemble::server::connectors {

// Long enough for a preview and the Apply right after it; short enough that
// a later import reads the calendar as it is.
inline constexpr std::chrono::seconds kFeedReuse{60};
// Feeds kept at once; the oldest goes first.
inline constexpr size_t kMaxKeptFeeds = 16;

class LinkReader : public core::connections::AppReader {
 public:
  // `box` must outlive the reader.
  LinkReader(const credentials::SecretBox& box, FetchLimits limits) : box_(box), limits_(limits) {}

  core::Result<std::string> ReadCalendarFeed(core::store::Database& db,
                                             const core::connections::Connection& c) override;

 private:
  struct Kept {
    std::string feed;
    std::chrono::steady_clock::time_point at;
  };

  const credentials::SecretBox& box_;
  const FetchLimits limits_;
  std::mutex mu_;
  std::map<std::string, Kept> kept_;  // By connection id.
};

}  // namespace ensemble::server::connectors

#endif  // ENSEMBLE_SERVER_CONNECTORS_LINK_READER_H_
