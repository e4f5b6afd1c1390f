// EventClient: a blocking reader of a Server-Sent Events stream for the
// server tests. It sends GET /api/events on its own connection and collects
// the raw bytes (chunk framing included: every event is sent as one chunk, so
// an event's text appears whole). Every wait is bounded.
//
// Thread-safety: none; use from the test thread.

#ifndef ENSEMBLE_TESTS_SERVER_EVENT_CLIENT_H_
#define ENSEMBLE_TESTS_SERVER_EVENT_CLIENT_H_

#include <chrono>
#include <cstdint>
#include <string>

namespace ensemble::testing {

class EventClient {
 public:
  // Connects to 127.0.0.1:`port` and sends the request (with `cookie` as its
  // Cookie header unless empty).
  explicit EventClient(uint16_t port, const std::string& target = "/api/events",
                       const std::string& cookie = "");
  ~EventClient();
  EventClient(const EventClient&) = delete;
  EventClient& operator=(const EventClient&) = delete;

  // Reads until the response headers are in; the status (0 when none came).
  int WaitForStatus(std::chrono::milliseconds timeout = std::chrono::seconds(5));
  // Reads until `text` appears after what earlier waits consumed; true when it
  // did within `timeout`. Consumes through the match.
  bool WaitFor(const std::string& text,
               std::chrono::milliseconds timeout = std::chrono::seconds(5));
  // Reads for `duration` and returns what arrived (unconsumed), without
  // consuming it.
  std::string ReadFor(std::chrono::milliseconds duration);
  // Reads until the server closes; true when it did within `timeout`.
  bool WaitForClose(std::chrono::milliseconds timeout = std::chrono::seconds(5));
  void Close();

  const std::string& received() const { return received_; }

 private:
  // Reads what is available within `timeout`; false on close or error.
  bool ReadSome(std::chrono::milliseconds timeout);

  int fd_ = -1;
  bool closed_ = false;
  std::string received_;
  size_t consumed_ = 0;
};

}  // namespace ensemble::testing

#endif  // ENSEMBLE_TESTS_SERVER_EVENT_CLIENT_H_
