#include "tests/server/event_client.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>

namespace ensemble::testing {
namespace {

using Clock = std::chrono::steady_clock;

std::chrono::milliseconds Left(Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  return left.count() > 0 ? left : std::chrono::milliseconds(0);
}

}  // namespace

EventClient::EventClient(uint16_t port, const std::string& target, const std::string& cookie) {
  fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd_ < 0 || ::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    Close();
    return;
  }
  std::string request = "GET " + target +
                        " HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n" +
                        (cookie.empty() ? "" : "Cookie: " + cookie + "\r\n") + "\r\n";
  if (::send(fd_, request.data(), request.size(), MSG_NOSIGNAL) !=
      static_cast<ssize_t>(request.size())) {
    Close();
  }
}

EventClient::~EventClient() { Close(); }

void EventClient::Close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  closed_ = true;
}

bool EventClient::ReadSome(std::chrono::milliseconds timeout) {
  if (fd_ < 0 || closed_) return false;
  pollfd p{fd_, POLLIN, 0};
  int ready = ::poll(&p, 1, static_cast<int>(timeout.count()));
  if (ready <= 0) return true;  // Nothing yet (or interrupted): still open.
  char buf[4096];
  ssize_t n = ::recv(fd_, buf, sizeof(buf), 0);
  if (n <= 0) {
    closed_ = true;
    return false;
  }
  received_.append(buf, static_cast<size_t>(n));
  return true;
}

int EventClient::WaitForStatus(std::chrono::milliseconds timeout) {
  auto deadline = Clock::now() + timeout;
  while (received_.find("\r\n\r\n") == std::string::npos && Clock::now() < deadline) {
    if (!ReadSome(Left(deadline))) break;
  }
  // "HTTP/1.1 200 OK"
  if (received_.size() < 12 || received_.compare(0, 5, "HTTP/") != 0) return 0;
  return std::atoi(received_.c_str() + 9);
}

bool EventClient::WaitFor(const std::string& text, std::chrono::milliseconds timeout) {
  auto deadline = Clock::now() + timeout;
  for (;;) {
    size_t at = received_.find(text, consumed_);
    if (at != std::string::npos) {
      consumed_ = at + text.size();
      return true;
    }
    if (Clock::now() >= deadline || !ReadSome(Left(deadline))) return false;
  }
}

std::string EventClient::ReadFor(std::chrono::milliseconds duration) {
  auto deadline = Clock::now() + duration;
  while (Clock::now() < deadline && ReadSome(Left(deadline))) {
  }
  return received_.substr(consumed_);
}

bool EventClient::WaitForClose(std::chrono::milliseconds timeout) {
  auto deadline = Clock::now() + timeout;
  while (Clock::now() < deadline) {
    if (!ReadSome(Left(deadline))) return closed_;
  }
  return false;
}

}  // namespace ensemble::testing
