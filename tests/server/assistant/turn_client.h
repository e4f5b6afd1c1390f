// TurnClient: posts one assistant message over HTTP/1.0 (so the server ends
// the event stream by closing, without chunk framing) and reads the frames
// as they arrive. Every wait is bounded.
//
// Thread-safety: none; use from the test thread.

#ifndef ENSEMBLE_TESTS_SERVER_ASSISTANT_TURN_CLIENT_H_
#define ENSEMBLE_TESTS_SERVER_ASSISTANT_TURN_CLIENT_H_

#include <chrono>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace ensemble::testing {

struct TurnFrame {
  std::string event;
  nlohmann::json data;
};

// The first frame of `event`, or null.
inline const TurnFrame* FindFrame(const std::vector<TurnFrame>& frames, const std::string& event) {
  for (const TurnFrame& f : frames) {
    if (f.event == event) return &f;
  }
  return nullptr;
}

class TurnClient {
 public:
  // Connects to 127.0.0.1:`port` and sends POST `target` with `body`
  // (and the Cookie header when `cookie` is not empty).
  TurnClient(uint16_t port, const std::string& target, const nlohmann::json& body,
             const std::string& cookie = "");
  ~TurnClient();
  TurnClient(const TurnClient&) = delete;
  TurnClient& operator=(const TurnClient&) = delete;

  // The response status (0 if none came within `timeout`).
  int Status(std::chrono::milliseconds timeout = std::chrono::seconds(10));
  // The next frame, or nullopt when the stream ended or `timeout` passed.
  std::optional<TurnFrame> Next(std::chrono::milliseconds timeout = std::chrono::seconds(20));
  // Every remaining frame until the server closes.
  std::vector<TurnFrame> Rest(std::chrono::milliseconds timeout = std::chrono::seconds(30));
  // Everything received (head and body), for secret checks.
  const std::string& raw() const { return raw_; }
  // The body after the head (an error's JSON when Status() is not 200).
  std::string body() const;

 private:
  bool ReadSome(std::chrono::steady_clock::time_point deadline);

  int fd_ = -1;
  bool closed_ = false;
  std::string raw_;
  size_t body_start_ = std::string::npos;
  size_t consumed_ = 0;
};

}  // namespace ensemble::testing

#endif  // ENSEMBLE_TESTS_SERVER_ASSISTANT_TURN_CLIENT_H_
