// A loopback HTTP server for the connector tests: answers GET requests from a
// table of paths (status, body, extra header lines, a delay before answering)
// on 127.0.0.1, one connection at a time, on its own thread, until
// destroyed. Unknown paths answer 404. Hold() keeps every answer back until
// Release(), so a test can hold a read open as long as it needs.

#ifndef ENSEMBLE_TESTS_SERVER_CONNECTORS_FEED_SERVER_H_
#define ENSEMBLE_TESTS_SERVER_CONNECTORS_FEED_SERVER_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

namespace ensemble::testing {

class FeedServer {
 public:
  struct Page {
    Page(int status = 200, std::string body = "", std::string headers = "",
         std::chrono::milliseconds delay = std::chrono::milliseconds(0))
        : status(status), body(std::move(body)), headers(std::move(headers)), delay(delay) {}
    int status;
    std::string body;
    std::string headers;  // Extra "Name: value\r\n" lines.
    std::chrono::milliseconds delay;
  };

  FeedServer();
  ~FeedServer();

  void Set(const std::string& path, Page page);
  // "http://127.0.0.1:<port>" + path.
  std::string Url(const std::string& path) const;
  int requests() const { return requests_.load(); }

  void Hold();
  void Release();
  // True once a request waits on Hold(); false after `timeout` without one.
  bool WaitUntilHolding(std::chrono::milliseconds timeout);
  bool holding();

 private:
  struct Impl;
  void Serve();

  std::unique_ptr<Impl> impl_;
  std::mutex mu_;
  std::condition_variable changed_;
  bool hold_ = false;
  bool holding_ = false;  // A request waits on hold_.
  std::map<std::string, Page> pages_;
  std::atomic<int> requests_{0};
  std::atomic<bool> stop_{false};
  uint16_t port_ = 0;
  std::thread thread_;
};

}  // namespace ensemble::testing

#endif  // ENSEMBLE_TESTS_SERVER_CONNECTORS_FEED_SERVER_H_
