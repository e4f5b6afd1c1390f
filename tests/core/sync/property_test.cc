// Property test of sync: per seed, a few clients make random offline edits
// against their own replicas and sync in a random order over an unreliable
// channel (responses dropped, requests duplicated or replayed late); at the
// end everyone syncs fully and every replica must equal the server, every
// mutation must have been consumed exactly once, and every verdict must be
// accounted for.
//
// ENSEMBLE_PROPERTY_SEEDS=N runs seeds 1..N; ENSEMBLE_PROPERTY_SEED=N runs
// only seed N (the replay hint printed on failure), and with
// ENSEMBLE_PROPERTY_TRACE=1 prints every verdict. A seed replays exactly on
// the same standard library (std::uniform_int_distribution is not portable).

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/base/id.h"
#include "core/hub/hub.h"
#include "core/store/sqlite_database.h"
#include "core/sync/client_replica.h"
#include "core/sync/row_codec.h"
#include "core/sync/server_sync.h"
#include "core/tasks/task.h"
#include "tests/fakes/fake_env.h"

namespace ensemble::core::sync {
namespace {

using nlohmann::json;

#if defined(__SANITIZE_ADDRESS__)
// ASan (the native-debug preset) runs the same code about 10x slower; fewer
// seeds keep that suite within its time budget (about 25 s).
constexpr int kDefaultSeeds = 250;
#else
constexpr int kDefaultSeeds = 500;
#endif
constexpr int64_t kMinSeedsForCoverage = 100;
constexpr int kMinClients = 2;
constexpr int kMaxClients = 4;
// Steps per seed: enough for conflicts, deletes and lost responses to meet,
// few enough that 500 seeds take seconds.
constexpr int kStepsPerSeed = 60;
// Safety net for the final convergence loop (each round syncs every client).
constexpr int kMaxFinalRounds = 10;
constexpr int kMaxPullPages = 100;

constexpr const char* kTitles[] = {"Write report", "Call Ana", "Ship it",
                                   "Plan sprint",  "Fix bug",  "Review PR"};
constexpr const char* kStatuses[] = {"todo", "doing", "done"};
constexpr const char* kDues[] = {"2026-12-01", "2026-12-24", "2027-02-28"};

// A fresh migrated database. Migrating once and copying keeps a seed's cost
// in the steps: each seed opens up to five databases.
std::unique_ptr<store::SqliteDatabase> NewDb() {
  static const store::SqliteDatabase* migrated = [] {
    auto db = std::move(store::SqliteDatabase::Open(":memory:")).value();
    Status st = hub::Migrate(*db);
    EXPECT_TRUE(st.ok()) << st.ToString();
    return db.release();  // Kept for the whole run.
  }();
  auto db = std::move(store::SqliteDatabase::Open(":memory:")).value();
  Status st = migrated->CopyInto(*db);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return db;
}

json Rows(store::Database& db) {
  auto rows = db.Query("SELECT * FROM tasks ORDER BY id");
  EXPECT_TRUE(rows.ok()) << rows.status().ToString();
  json out = json::array();
  for (size_t i = 0; i < rows->size(); ++i) out.push_back(RowToJson(*rows, i));
  return out;
}

std::optional<int64_t> EnvInt(const char* name) {
  const char* v = std::getenv(name);
  if (!v || !*v) return std::nullopt;
  return std::strtoll(v, nullptr, 10);
}

struct Client {
  explicit Client(uint64_t seed) : env{testing::FakeClock(), testing::FakeRandom(seed), {}} {
    db = NewDb();
    replica = std::move(ClientReplica::Open(*db, env.env(), hub::Config())).value();
  }
  testing::FakeEnv env;
  std::unique_ptr<store::SqliteDatabase> db;
  std::unique_ptr<ClientReplica> replica;
  // Every mutation the replica accepted: id -> (name, args).
  std::map<int64_t, std::pair<std::string, json>> made;
  std::optional<json> last_request;  // For a late replay.
};

// One seed's world: the server, its clients, and what the server said.
class World {
 public:
  explicit World(uint64_t seed) : rng_(seed), server_db_(NewDb()), server_(hub::Config()) {
    // Deletes and restores join in once core/records provides them.
    has_delete_ = hub::Config().mutators->Find("task.delete") != nullptr;
    has_restore_ = hub::Config().mutators->Find("task.restore") != nullptr;
    int n = Pick(kMinClients, kMaxClients);
    for (int i = 0; i < n; ++i) {
      clients_.push_back(std::make_unique<Client>(seed * 16 + static_cast<uint64_t>(i) + 1));
    }
  }

  void Run() {
    for (int step = 0; step < kStepsPerSeed && !::testing::Test::HasFailure(); ++step) Step();
    if (::testing::Test::HasFailure()) return;
    Converge();
    if (::testing::Test::HasFailure()) return;
    Check();
  }

  // Verdicts by mutation name (applied) or code (rejected): proof the seeds
  // reach conflicts, deletes and lost responses, not only happy paths.
  const std::map<std::string, int>& stats() const { return stats_; }

 private:
  int Pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool Chance(int percent) { return Pick(1, 100) <= percent; }
  template <size_t N>
  const char* Of(const char* const (&options)[N]) {
    return options[Pick(0, N - 1)];
  }

  void Step() {
    Client& c = *clients_[Pick(0, static_cast<int>(clients_.size()) - 1)];
    c.env.clock.Advance(Pick(1, 1000));
    int roll = Pick(1, 100);
    if (roll <= 15) {
      Create(c);
    } else if (roll <= 40) {
      Update(c);
    } else if (roll <= 43) {
      if (has_delete_) Delete(c);
    } else if (roll <= 45) {
      if (has_restore_) Restore(c);
    } else if (roll <= 60) {
      Push(c, /*deliver=*/true);
    } else if (roll <= 66) {
      Push(c, /*deliver=*/false);  // The server applied it; the client never hears.
    } else if (roll <= 71) {
      DuplicatePush(c);
    } else if (roll <= 75) {
      ReplayLate(c);
    } else if (roll <= 90) {
      PullOnePage(c);
    } else {
      Sync(c);
    }
  }

  void Mutate(Client& c, const std::string& name, const json& args) {
    int64_t before = *c.replica->PendingCount();
    auto r = c.replica->Mutate(name, args);
    if (r.ok()) {
      c.made[*r] = {name, args};
      return;
    }
    // Refused locally (e.g. a stale base that conflicts with the replica):
    // nothing may have been queued.
    EXPECT_EQ(*c.replica->PendingCount(), before) << name << " " << args.dump();
    EXPECT_NE(r.status().code(), codes::kStorage) << r.status().ToString();
    EXPECT_NE(r.status().code(), codes::kInvalidArgument)
        << "the test built invalid arguments: " << name << " " << args.dump() << ": "
        << r.status().ToString();
  }

  // A live task on the client's replica, or nullopt.
  std::optional<tasks::Task> AnyLocalTask(Client& c) {
    auto list = tasks::ListTasks(*c.db);
    EXPECT_TRUE(list.ok());
    if (!list.ok() || list->empty()) return std::nullopt;
    return (*list)[Pick(0, static_cast<int>(list->size()) - 1)];
  }

  void Create(Client& c) {
    std::string id = NewId(c.env.clock, c.env.random);
    json args = {{"id", id}, {"spaceId", "personal"}, {"title", Of(kTitles)}};
    if (Chance(30)) args["status"] = Of(kStatuses);
    if (Chance(30)) args["due"] = Of(kDues);
    Mutate(c, "task.create", args);
  }

  void Update(Client& c) {
    auto task = AnyLocalTask(c);
    if (!task) return Create(c);
    json fields = json::object();
    json base = json::object();
    json current = {{"title", task->title},
                    {"status", task->status},
                    {"due", task->due ? json(*task->due) : json(nullptr)}};
    while (fields.empty()) {
      if (Chance(50)) fields["title"] = std::string(Of(kTitles)) + " " + std::to_string(Pick(1, 9));
      if (Chance(50)) fields["status"] = Of(kStatuses);
      if (Chance(30)) fields["due"] = Chance(30) ? json(nullptr) : json(Of(kDues));
    }
    int base_roll = Pick(1, 100);
    for (const auto& [name, _] : fields.items()) {
      if (base_roll <= 35) continue;  // No base: last writer wins.
      if (base_roll <= 85) {
        // The value the replica shows: stale on the server when another
        // client changed it since, which the server must catch.
        base[name] = current[name];
      } else {
        // A value the replica may never have had: refused locally, or
        // accepted when it happens to match.
        base[name] = name == "title"    ? json(Of(kTitles))
                     : name == "status" ? json(Of(kStatuses))
                                        : json(Of(kDues));
      }
    }
    json args = {{"id", task->id}, {"fields", fields}};
    if (!base.empty()) args["base"] = base;
    Mutate(c, "task.update", args);
  }

  void Delete(Client& c) {
    auto task = AnyLocalTask(c);
    if (!task) return;
    Mutate(c, "task.delete", {{"id", task->id}});
  }

  void Restore(Client& c) {
    auto rows = c.db->Query("SELECT id FROM tasks WHERE deleted = 1 ORDER BY id");
    EXPECT_TRUE(rows.ok());
    if (!rows.ok() || rows->empty()) return;
    int pick = Pick(0, static_cast<int>(rows->size()) - 1);
    Mutate(c, "task.restore", {{"id", store::AsText(rows->rows[pick][0])}});
  }

  // Sends `request` to the server and records its verdicts; returns the
  // response (what the client would receive).
  json Send(Client& c, const json& request) {
    auto response = server_.Push(*server_db_, request);
    EXPECT_TRUE(response.ok()) << response.status().ToString();
    if (!response.ok()) return json();
    for (const json& r : (*response)["results"]) {
      auto key = std::make_pair(request["clientId"].get<std::string>(), r["id"].get<int64_t>());
      const std::string status = r["status"];
      EXPECT_NE(status, "refused") << "a client sent mutation " << key.second << " out of order";
      if (status != "applied" && status != "rejected") continue;
      auto [it, inserted] = verdicts_.emplace(key, status);
      // A rejection is repeated to a client that re-sends it (its response
      // may have been lost); anything else answered twice was consumed twice.
      const bool repeated_rejection = !inserted && it->second == "rejected" && status == "rejected";
      EXPECT_TRUE(inserted || repeated_rejection)
          << "mutation " << key.second << " of " << key.first << " was consumed twice ("
          << it->second << ", then " << status << ")";
      if (repeated_rejection) continue;
      if (status == "applied") CountApplied(c, key.second);
      if (inserted && status == "rejected") ++stats_[r["code"].get<std::string>()];
      if (trace_ && status == "rejected") {
        std::printf("[ trace ] rejected %s %s: %s\n", c.made[key.second].first.c_str(),
                    c.made[key.second].second.dump().c_str(), r.dump().c_str());
      }
    }
    return *response;
  }

  void CountApplied(Client& c, int64_t mutation_id) {
    auto it = c.made.find(mutation_id);
    if (it == c.made.end()) {
      ADD_FAILURE() << "the server applied mutation " << mutation_id << " nobody made";
      return;
    }
    const auto& [name, args] = it->second;
    const std::string id = args["id"];
    if (trace_) {
      auto row = ReadRow(*server_db_, "tasks", id);
      std::printf("[ trace ] applied %s %s -> %s\n", name.c_str(), args.dump().c_str(),
                  row.ok() && *row ? (**row).dump().c_str() : "(none)");
    }
    // The server applies in the order it answers, so this model of each
    // task's Trash state follows the server's: a delete of a deleted task
    // (or a restore of a live one) succeeds without writing.
    ++stats_[name];
    if (name == "task.create") {
      applied_creates_[id]++;
    } else if (name == "task.delete" || name == "task.restore") {
      bool to = name == "task.delete";
      if (model_deleted_[id] != to) applied_changes_[id]++;
      model_deleted_[id] = to;
    } else {
      EXPECT_FALSE(model_deleted_[id]) << "an update of task " << id << " in Trash was applied";
      applied_changes_[id]++;
    }
  }

  void Push(Client& c, bool deliver) {
    json request = *c.replica->PushRequest();
    if (request["mutations"].empty()) return;
    c.last_request = request;
    json response = Send(c, request);
    if (deliver && !response.is_null()) Deliver(c, response);
  }

  void Deliver(Client& c, const json& response) {
    Status st = c.replica->ApplyPushResponse(response);
    EXPECT_TRUE(st.ok()) << st.ToString();
  }

  void DuplicatePush(Client& c) {
    json request = *c.replica->PushRequest();
    if (request["mutations"].empty()) return;
    c.last_request = request;
    json first = Send(c, request);
    json second = Send(c, request);
    for (size_t i = 0; i < second["results"].size(); ++i) {
      // The same verdicts again: applied ones are skipped, rejections repeated.
      const json& r = second["results"][i];
      std::string want = first["results"][i]["status"] == "rejected" ? "rejected" : "skipped";
      EXPECT_EQ(r["status"], want) << second.dump();
    }
    // Both responses arrive, in either order.
    if (Chance(50)) std::swap(first, second);
    Deliver(c, first);
    Deliver(c, second);
  }

  // A request from earlier, delivered again late (a retransmission).
  void ReplayLate(Client& c) {
    if (!c.last_request) return;
    json response = Send(c, *c.last_request);
    if (!response.is_null()) Deliver(c, response);
  }

  // A partial sync: one page only, even when the server has more.
  bool PullOnePage(Client& c) {
    json req = *c.replica->PullRequest();
    auto resp = server_.Pull(*server_db_, req["clientId"], req["cursor"]);
    EXPECT_TRUE(resp.ok()) << resp.status().ToString();
    if (!resp.ok()) return false;
    auto again = c.replica->ApplyPull(*resp);
    EXPECT_TRUE(again.ok()) << again.status().ToString();
    return again.ok() && *again;
  }

  void PullAll(Client& c) {
    for (int page = 0; page < kMaxPullPages; ++page) {
      if (!PullOnePage(c) || ::testing::Test::HasFailure()) return;
    }
    ADD_FAILURE() << "pull did not finish in " << kMaxPullPages << " pages";
  }

  void Sync(Client& c) {
    while (!::testing::Test::HasFailure() && !(*c.replica->PushRequest())["mutations"].empty()) {
      Push(c, /*deliver=*/true);
    }
    PullAll(c);
  }

  void Converge() {
    for (int round = 0; round < kMaxFinalRounds; ++round) {
      for (auto& c : clients_) Sync(*c);
      bool settled = true;
      for (auto& c : clients_) settled = settled && *c->replica->PendingCount() == 0;
      if (settled) break;
    }
    for (auto& c : clients_) PullAll(*c);  // Everyone sees the last pushes.
  }

  void Check() {
    json server_rows = Rows(*server_db_);
    for (size_t i = 0; i < clients_.size(); ++i) {
      Client& c = *clients_[i];
      EXPECT_EQ(*c.replica->PendingCount(), 0) << "client " << i << " has an outbox left";
      EXPECT_EQ(Rows(*c.db), server_rows) << "client " << i << " differs from the server";

      std::set<int64_t> surfaced;
      json rejections = *c.replica->Rejections();
      for (const json& r : rejections) surfaced.insert(r["id"].get<int64_t>());
      int64_t applied = 0;
      int64_t rejected = 0;
      for (const auto& [id, m] : c.made) {
        auto it = verdicts_.find({c.replica->client_id(), id});
        if (it == verdicts_.end()) {
          ADD_FAILURE() << "client " << i << "'s mutation " << id << " (" << m.first
                        << ") was never consumed";
          continue;
        }
        if (it->second == "applied") {
          ++applied;
          EXPECT_FALSE(surfaced.count(id)) << "applied mutation " << id << " listed as rejected";
        } else if (surfaced.count(id)) {
          ++rejected;
        } else {
          // A rejection whose response was dropped must come back when the
          // mutation is re-sent (the server repeats its verdicts).
          ADD_FAILURE() << "client " << i << "'s mutation " << id << " was rejected unseen";
        }
      }
      EXPECT_EQ(applied + rejected, static_cast<int64_t>(c.made.size())) << "client " << i;
      for (int64_t id : surfaced) {
        EXPECT_TRUE(c.made.count(id)) << "rejection " << id << " of a mutation never made";
      }
    }
    // Exactly once: each task's version counts its create and every applied
    // change to it, no more.
    for (const json& row : server_rows) {
      const std::string id = row["id"];
      EXPECT_EQ(applied_creates_[id], 1) << "task " << id;
      EXPECT_EQ(row["version"].get<int64_t>(), 1 + applied_changes_[id])
          << "task " << id << ": version does not match the applied changes: " << row.dump();
      EXPECT_EQ(row["deleted"].get<int64_t>() != 0, model_deleted_[id]) << "task " << id;
    }
    EXPECT_EQ(server_rows.size(), applied_creates_.size());
  }

  std::mt19937_64 rng_;
  std::unique_ptr<store::SqliteDatabase> server_db_;
  ServerSync server_;
  bool has_delete_ = false;
  bool has_restore_ = false;
  // ENSEMBLE_PROPERTY_TRACE=1 prints every applied mutation (with one seed).
  bool trace_ = EnvInt("ENSEMBLE_PROPERTY_TRACE").value_or(0) != 0;
  std::vector<std::unique_ptr<Client>> clients_;
  std::map<std::pair<std::string, int64_t>, std::string> verdicts_;  // applied|rejected
  std::map<std::string, int> applied_creates_;
  std::map<std::string, int> applied_changes_;  // Updates, deletes and restores that wrote.
  std::map<std::string, bool> model_deleted_;
  std::map<std::string, int> stats_;
};

TEST(SyncProperty, RandomOfflineClientsConverge) {
  int64_t first = 1;
  int64_t last = EnvInt("ENSEMBLE_PROPERTY_SEEDS").value_or(kDefaultSeeds);
  if (auto one = EnvInt("ENSEMBLE_PROPERTY_SEED")) first = last = *one;
  std::map<std::string, int> stats;
  for (int64_t seed = first; seed <= last; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed) +
                 "; replay with ENSEMBLE_PROPERTY_SEED=" + std::to_string(seed) +
                 " build/native/tests/core/core_tests --gtest_filter=SyncProperty.*");
    World world(static_cast<uint64_t>(seed));
    world.Run();
    for (const auto& [k, n] : world.stats()) stats[k] += n;
    if (HasFailure()) break;  // The first failing seed is the one to replay.
  }
  std::string summary;
  for (const auto& [k, n] : stats) summary += " " + k + "=" + std::to_string(n);
  std::printf("[ property ] seeds %lld..%lld, verdicts:%s\n", static_cast<long long>(first),
              static_cast<long long>(last), summary.c_str());
  // The generator must keep reaching the interesting cases (checked on full
  // runs only: one replayed seed may well hold no conflict).
  if (last - first + 1 < kMinSeedsForCoverage) return;
  EXPECT_GT(stats[std::string(codes::kSaveConflict)], 0) << "no seed produced a conflict";
  EXPECT_GT(stats["task.update"], 0);
}

}  // namespace
}  // namespace ensemble::core::sync
