// A fake of core/connections/app_reader.h: answers each connection's reads
// from a feed the test sets, or fails with a set status, and counts reads.

#ifndef ENSEMBLE_TESTS_FAKES_FAKE_APP_READER_H_
#define ENSEMBLE_TESTS_FAKES_FAKE_APP_READER_H_

#include <map>
#include <string>

#include "core/connections/app_reader.h"

namespace ensemble::testing {

class FakeAppReader : public core::connections::AppReader {
 public:
  // What reading `connection_id` gives from now on.
  void SetFeed(const std::string& connection_id, std::string feed) {
    feeds_[connection_id] = std::move(feed);
    failures_.erase(connection_id);
  }
  void SetFailure(const std::string& connection_id, core::Status status) {
    failures_[connection_id] = std::move(status);
  }

  core::Result<std::string> ReadCalendarFeed(core::store::Database& db,
                                             const core::connections::Connection& c) override {
    ++reads_;
    if (auto f = failures_.find(c.id); f != failures_.end()) return f->second;
    if (auto it = feeds_.find(c.id); it != feeds_.end()) return it->second;
    return core::Status(core::codes::kAppUnreachable, "the calendar answered 404 Not Found.");
  }

  int reads() const { return reads_; }

 private:
  std::map<std::string, std::string> feeds_;
  std::map<std::string, core::Status> failures_;
  int reads_ = 0;
};

}  // namespace ensemble::testing

#endif  // ENSEMBLE_TESTS_FAKES_FAKE_APP_READER_H_
