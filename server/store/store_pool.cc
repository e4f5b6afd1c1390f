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

StorePool::ShortWork::ShortWork(StorePool& pool, core::store::Database& db)
    : pool_(pool),
      sqlite_(dynamic_cast<core::store::SqliteDatabase*>(&db)),
      started_(std::chrono::steady_clock::now()) {
  if (sqlite_) sqlite_->set_defer_checkpoints(true);
}

StorePool::ShortWork::~ShortWork() {
  if (sqlite_) {
    sqlite_->set_defer_checkpoints(false);
    if (sqlite_->checkpoint_due()) pool_.CheckpointOnWorker();
  }
  const auto spent = std::chrono::steady_clock::now() - started_;
  std::lock_guard<std::mutex> lock(pool_.mu_);
  pool_.short_work_spent_ += spent;
}

void StorePool::CheckpointOnWorker() {
  boost::asio::post(workers_, [this] {
    Lease lease(*this);
    if (auto* sqlite = dynamic_cast<core::store::SqliteDatabase*>(&lease.db())) {
      // A failed checkpoint loses nothing: the log keeps every commit, and
      // the next checkpoint copies it.
      (void)sqlite->Checkpoint();
    }
  });
}

std::unique_ptr<core::store::Database> StorePool::Take() {
  std::unique_lock<std::mutex> lock(mu_);
  given_.wait(lock, [this] { return !idle_.empty(); });
  std::unique_ptr<core::store::Database> db = std::move(idle_.back());
  idle_.pop_back();
  return db;
}

std::unique_ptr<core::store::Database> StorePool::TryTakeForShortWork() {
  const auto now = std::chrono::steady_clock::now();
  std::lock_guard<std::mutex> lock(mu_);
  if (now - window_start_ >= kShortWorkWindow) {
    window_start_ = now;
    short_work_spent_ = {};
  }
  if (idle_.empty() || short_work_spent_ >= kShortWorkBudget) return nullptr;
  std::unique_ptr<core::store::Database> db = std::move(idle_.back());
  idle_.pop_back();
  return db;
}

void StorePool::Give(std::unique_ptr<core::store::Database> db) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    idle_.push_back(std::move(db));
  }
  given_.notify_one();
}

void StorePool::SetMetrics(metrics::Registry& registry) {
  wait_ = &registry.GetHistogram("ensemble_store_wait_seconds",
                                 "Time store work waited for a worker and a connection");
  jobs_ = &registry.GetGauge("ensemble_store_jobs", "Store work queued or running");
}

}  // namespace ensemble::server::store
