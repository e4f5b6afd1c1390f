#include "tests/server/connectors/feed_server.h"

#include "server/boost_prelude.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>

namespace ensemble::testing {

namespace net = boost::asio;
using net::ip::tcp;

struct FeedServer::Impl {
  net::io_context ioc;
  tcp::acceptor acceptor{ioc, tcp::endpoint(net::ip::make_address("127.0.0.1"), 0)};
};

FeedServer::FeedServer() : impl_(std::make_unique<Impl>()) {
  port_ = impl_->acceptor.local_endpoint().port();
  thread_ = std::thread([this] { Serve(); });
}

FeedServer::~FeedServer() {
  Release();
  stop_ = true;
  // Wake the blocking accept with one last connection.
  try {
    net::io_context ioc;
    tcp::socket s(ioc);
    s.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port_));
  } catch (...) {
  }
  thread_.join();
}

void FeedServer::Set(const std::string& path, Page page) {
  std::lock_guard<std::mutex> lock(mu_);
  pages_[path] = std::move(page);
}

void FeedServer::Hold() {
  std::lock_guard<std::mutex> lock(mu_);
  hold_ = true;
}

void FeedServer::Release() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    hold_ = false;
  }
  changed_.notify_all();
}

bool FeedServer::WaitUntilHolding(std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mu_);
  return changed_.wait_for(lock, timeout, [this] { return holding_; });
}

bool FeedServer::holding() {
  std::lock_guard<std::mutex> lock(mu_);
  return holding_;
}

std::string FeedServer::Url(const std::string& path) const {
  return "http://127.0.0.1:" + std::to_string(port_) + path;
}

namespace {

std::string Reason(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 302:
      return "Found";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    default:
      return "Status";
  }
}

}  // namespace

void FeedServer::Serve() {
  while (!stop_) {
    boost::system::error_code ec;
    tcp::socket socket(impl_->ioc);
    impl_->acceptor.accept(socket, ec);
    if (ec || stop_) break;
    net::streambuf request;
    net::read_until(socket, request, "\r\n\r\n", ec);
    if (ec) continue;
    std::string head(net::buffers_begin(request.data()), net::buffers_end(request.data()));
    const size_t sp1 = head.find(' ');
    const size_t sp2 = head.find(' ', sp1 + 1);
    const std::string path = head.substr(sp1 + 1, sp2 - sp1 - 1);
    ++requests_;
    Page page{404, "not here", "", std::chrono::milliseconds(0)};
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (auto it = pages_.find(path); it != pages_.end()) page = it->second;
    }
    {
      std::unique_lock<std::mutex> lock(mu_);
      holding_ = hold_;
      changed_.notify_all();
      changed_.wait(lock, [this] { return !hold_; });
      holding_ = false;
    }
    if (page.delay.count() > 0) {
      // Sleep in slices so a stopping server does not wait out a long delay.
      const auto until = std::chrono::steady_clock::now() + page.delay;
      while (!stop_ && std::chrono::steady_clock::now() < until) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
    }
    const std::string reply = "HTTP/1.1 " + std::to_string(page.status) + " " +
                              Reason(page.status) + "\r\n" + page.headers +
                              "Content-Length: " + std::to_string(page.body.size()) +
                              "\r\nConnection: close\r\n\r\n" + page.body;
    net::write(socket, net::buffer(reply), ec);
  }
}

}  // namespace ensemble::testing
