#include "server/store/store_pool.h"

#include "server/store/open_store.h"

namespace ensemble::server::store {

core::Result<std::unique_ptr<StorePool>> StorePool::Open(const Config& config) {
  std::vector<std::unique_ptr<core::store::Database>> dbs;
  ENSEMBLE_ASSIGN_OR_RETURN(auto first, OpenStore(config));  // Migrates.
  const core::store::Dialect dialect = first->dialect();
  dbs.push_back(std::move(first));
  const size_t want = dialect == core::store::Dialect::kPostgres ? config.store_connections : 1;
  while (dbs.size() < want) {
    ENSEMBLE_ASSIGN_OR_RETURN(auto db, OpenDatabase(config));
    dbs.push_back(std::move(db));
  }
  return std::unique_ptr<StorePool>(new StorePool(dialect, std::move(dbs)));
}

StorePool::StorePool(core::store::Dialect dialect,
                     std::vector<std::unique_ptr<core::store::Database>> dbs)
    : dialect_(dialect), size_(dbs.size()), idle_(std::move(dbs)), workers_(size_) {}

StorePool::~StorePool() { workers_.join(); }

std::unique_ptr<core::store::Database> StorePool::Take() {
  std::lock_guard<std::mutex> lock(mu_);
  std::unique_ptr<core::store::Database> db = std::move(idle_.back());
  idle_.pop_back();
  return db;
}

void StorePool::Give(std::unique_ptr<core::store::Database> db) {
  std::lock_guard<std::mutex> lock(mu_);
  idle_.push_back(std::move(db));
}

}  // namespace ensemble::server::store
