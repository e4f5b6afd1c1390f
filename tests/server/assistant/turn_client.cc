#include "tests/server/assistant/turn_client.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>

namespace ensemble::testing {

TurnClient::TurnClient(uint16_t port, const std::string& target, const nlohmann::json& body,
                       const std::string& cookie) {
  fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    closed_ = true;
    return;
  }
  std::string text = body.dump();
  std::string request =
      "POST " + target + " HTTP/1.0\r\nHost: 127.0.0.1\r\n" +
      "Content-Type: application/json\r\nContent-Length: " + std::to_string(text.size()) + "\r\n";
  if (!cookie.empty()) request += "Cookie: " + cookie + "\r\n";
  request += "\r\n" + text;
  size_t sent = 0;
  while (sent < request.size()) {
    ssize_t n = ::send(fd_, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) {
      closed_ = true;
      return;
    }
    sent += static_cast<size_t>(n);
  }
}

TurnClient::~TurnClient() {
  if (fd_ >= 0) ::close(fd_);
}

bool TurnClient::ReadSome(std::chrono::steady_clock::time_point deadline) {
  if (closed_) return false;
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline - std::chrono::steady_clock::now());
  if (left.count() <= 0) return false;
  pollfd p{fd_, POLLIN, 0};
  if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) return false;
  char buf[4096];
  ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
  if (n <= 0) {
    closed_ = true;
    return false;
  }
  raw_.append(buf, static_cast<size_t>(n));
  if (body_start_ == std::string::npos) {
    size_t end = raw_.find("\r\n\r\n");
    if (end != std::string::npos) {
      body_start_ = end + 4;
      consumed_ = body_start_;
    }
  }
  return true;
}

int TurnClient::Status(std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (body_start_ == std::string::npos && ReadSome(deadline)) {
  }
  if (body_start_ == std::string::npos ||
      (raw_.compare(0, 9, "HTTP/1.0 ") != 0 && raw_.compare(0, 9, "HTTP/1.1 ") != 0)) {
    return 0;
  }
  return std::atoi(raw_.c_str() + 9);
}

std::string TurnClient::body() const {
  return body_start_ == std::string::npos ? "" : raw_.substr(body_start_);
}

std::optional<TurnFrame> TurnClient::Next(std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    if (body_start_ != std::string::npos) {
      size_t end = raw_.find("\n\n", consumed_);
      if (end != std::string::npos) {
        std::string block = raw_.substr(consumed_, end - consumed_);
        consumed_ = end + 2;
        TurnFrame frame;
        size_t pos = 0;
        while (pos < block.size()) {
          size_t eol = block.find('\n', pos);
          std::string line = block.substr(pos, eol == std::string::npos ? eol : eol - pos);
          pos = eol == std::string::npos ? block.size() : eol + 1;
          if (line.rfind("event: ", 0) == 0) frame.event = line.substr(7);
          if (line.rfind("data: ", 0) == 0) {
            frame.data = nlohmann::json::parse(line.substr(6), nullptr, false);
          }
        }
        if (frame.event.empty()) continue;  // A comment.
        return frame;
      }
    }
    if (!ReadSome(deadline)) return std::nullopt;
  }
}

std::vector<TurnFrame> TurnClient::Rest(std::chrono::milliseconds timeout) {
  std::vector<TurnFrame> out;
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (auto frame = Next(std::chrono::duration_cast<std::chrono::milliseconds>(
             deadline - std::chrono::steady_clock::now()))) {
    out.push_back(std::move(*frame));
  }
  return out;
}

}  // namespace ensemble::testing
