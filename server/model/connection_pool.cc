#include "server/model/connection_pool.h"

#include <algorithm>

namespace ensemble::server::model {

void ModelConnection::Close() {
  boost::beast::error_code ignored;
  tcp().socket().shutdown(boost::asio::ip::tcp::socket::shutdown_both, ignored);
  tcp().close();
}

ModelConnectionPool::~ModelConnectionPool() {
  for (auto& [key, list] : idle_) {
    for (Idle& idle : list) idle.connection->Close();
  }
}

void ModelConnectionPool::DropExpired(std::chrono::steady_clock::time_point now) {
  for (auto it = idle_.begin(); it != idle_.end();) {
    std::vector<Idle>& list = it->second;
    auto fresh = std::find_if(list.begin(), list.end(),
                              [&](const Idle& idle) { return now - idle.since < idle_limit_; });
    for (auto old = list.begin(); old != fresh; ++old) old->connection->Close();
    list.erase(list.begin(), fresh);
    it = list.empty() ? idle_.erase(it) : std::next(it);
  }
}

std::unique_ptr<ModelConnection> ModelConnectionPool::Take(const std::string& key) {
  std::lock_guard<std::mutex> lock(mu_);
  DropExpired(std::chrono::steady_clock::now());
  auto it = idle_.find(key);
  if (it == idle_.end()) return nullptr;
  std::unique_ptr<ModelConnection> connection = std::move(it->second.back().connection);
  it->second.pop_back();
  if (it->second.empty()) idle_.erase(it);
  return connection;
}

void ModelConnectionPool::Put(const std::string& key, std::unique_ptr<ModelConnection> connection) {
  if (!connection) return;
  std::lock_guard<std::mutex> lock(mu_);
  const auto now = std::chrono::steady_clock::now();
  DropExpired(now);
  std::vector<Idle>& list = idle_[key];
  if (list.size() >= kMaxIdleModelConnectionsPerKey) {
    list.front().connection->Close();
    list.erase(list.begin());
  }
  list.push_back({std::move(connection), now});
}

size_t ModelConnectionPool::idle() const {
  std::lock_guard<std::mutex> lock(mu_);
  size_t n = 0;
  for (const auto& [key, list] : idle_) n += list.size();
  return n;
}

}  // namespace ensemble::server::model
