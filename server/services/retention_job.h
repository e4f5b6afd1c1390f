// RetentionJob: the server's Trash retention (core/sync/retention.h), run on
// a store connection once at start and then every interval, for as long as
// the io_context runs. A failed run is logged and tried again at the next
// interval; nothing waits on it.
//
// Thread-safety: Start on the io thread, once.

#ifndef ENSEMBLE_SERVER_SERVICES_RETENTION_JOB_H_
#define ENSEMBLE_SERVER_SERVICES_RETENTION_JOB_H_

#include "server/boost_prelude.h"

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <chrono>

#include "core/platform/env.h"
#include "core/sync/retention.h"
#include "server/store/store_pool.h"

namespace ensemble::server::services {

class RetentionJob {
 public:
  RetentionJob(boost::asio::io_context& ioc, store::StorePool& pool, core::platform::Env env,
               std::chrono::milliseconds interval = core::sync::kRetentionInterval);

  void Start();

 private:
  boost::asio::awaitable<void> Loop();

  boost::asio::io_context& ioc_;
  store::StorePool& pool_;
  core::platform::Env env_;
  std::chrono::milliseconds interval_;
};

}  // namespace ensemble::server::services

#endif  // ENSEMBLE_SERVER_SERVICES_RETENTION_JOB_H_
