// LinkReader: the server's core::connections::AppReader. It opens a
// connection's sealed link with the SecretBox and reads it with HttpGetAsync,
// never on a store thread: the embedded store has one, and a slow calendar
// must not stall every other request. So a read from the core (on a store
// thread) answers from the feeds kept here, or notes the link and answers
// APP_READ_PENDING; the caller then runs RunWithAppReads' loop: FetchNoted
// on the io_context, and the same store work again.
// A proposal and its Apply read the same calendar twice each (prepare, then
// preview or run), so a feed is kept for kFeedReuse and reused within it.
//
// Thread-safety: ReadCalendarFeed is safe from several store threads (the
// kept feeds and noted links are guarded by a mutex); FetchNoted runs on the
// server's single-threaded io_context.

#ifndef ENSEMBLE_SERVER_CONNECTORS_LINK_READER_H_
#define ENSEMBLE_SERVER_CONNECTORS_LINK_READER_H_

#include "server/boost_prelude.h"

#include <boost/asio/awaitable.hpp>
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
// Feeds kept at once, and links noted at once; the oldest goes first.
inline constexpr size_t kMaxKeptFeeds = 16;
// Reads one piece of store work may wait for: a call reads one calendar.
inline constexpr int kMaxAppReadRounds = 3;

class LinkReader : public core::connections::AppReader {
 public:
  // `box` must outlive the reader.
  LinkReader(const credentials::SecretBox& box, FetchLimits limits) : box_(box), limits_(limits) {}

  // A kept feed, or a kept failure (once: the next read tries again), or
  // APP_READ_PENDING with the link noted for FetchNoted.
  core::Result<std::string> ReadCalendarFeed(core::store::Database& db,
                                             const core::connections::Connection& c) override;

  // Reads every noted link and keeps what each gave, a failure included.
  boost::asio::awaitable<void> FetchNoted();

 private:
  struct Kept {
    std::string feed;
    core::Status failure;  // Ok when the feed was read.
    std::chrono::steady_clock::time_point at;
  };

  void Keep(const std::string& id, Kept kept);

  const credentials::SecretBox& box_;
  const FetchLimits limits_;
  std::mutex mu_;
  std::map<std::string, Kept> kept_;          // By connection id.
  std::map<std::string, std::string> noted_;  // Connection id to its opened link.
};

// Runs `work` (store work that may read an app through `reader`; its result
// is a core::Result) and, while it answers APP_READ_PENDING, fetches what it
// noted off the store and runs it again, at most kMaxAppReadRounds times.
template <typename Work>
auto RunWithAppReads(LinkReader* reader, Work work) -> decltype(work()) {
  for (int round = 0;; ++round) {
    auto out = co_await work();
    if (out.ok() || out.status().code() != core::codes::kAppReadPending) co_return out;
    if (!reader || round + 1 == kMaxAppReadRounds) {
      co_return core::Status(core::codes::kAppUnreachable, "the app could not be read in time.");
    }
    co_await reader->FetchNoted();
  }
}

}  // namespace ensemble::server::connectors

#endif  // ENSEMBLE_SERVER_CONNECTORS_LINK_READER_H_
