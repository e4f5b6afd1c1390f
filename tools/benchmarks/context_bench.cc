// The native half of `tools/bench context` (tools/benchmarks/context_bench.mjs
// runs it and the wasm half): a generated space (search_corpus.h) in an
// in-memory store, and
//
//   search.query_ms_p50.native   the median time of one ranked search
//                                (context::SearchWork, 20 results) over the
//                                corpus's queries
//   search.query_ms_p50.native_after_writes
//                                the same once the write benchmarks below
//                                pushed their tasks into the corpus, the
//                                index's recent rows (search_index.h) holding
//                                search.recent_tokens_after_writes tokens
//   search.fts5_bm25_ms_p50      the median time of a plain FTS5 query on the
//                                same rows and words (any word, prefix,
//                                ORDER BY bm25, 20 rows)
//   search.vs_fts5_bm25          the first over the second (issue 31's goal:
//                                at most 1.5)
//   context.item_ms_p50          the median time of a task's context graph
//                                (context::ItemNeighbors, every relation, 6
//                                each; GET /api/context/item) for tasks with
//                                a project, a page, people and dependencies
//   context.packet_ms_p50        the median time of those tasks' work
//                                packets of 5,000 characters
//                                (context::WorkPacket; goal <= 5 ms)
//   search.index_write_overhead  the median time of a push of 100 new tasks
//                                (ServerSync, their words from the corpus)
//                                with the search and link indexes kept, over
//                                the same without them (goal: at most 1.3);
//                                .mean the same of the mean times, which hold
//                                the pushes that merged the recent rows
//   search.fts5_write_overhead   the same for an FTS5 table of the tasks
//   search.floor_write_overhead  the same for one row appended per record
//                                written (64 to a statement, as the indexes
//                                write theirs): the least any index kept in
//                                the write's transaction costs
//
// Prints one JSON object per metric line. Wall time (steady_clock) of single
// calls, their median: the work is single-threaded and short.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/context/neighbors.h"
#include "core/context/packet.h"
#include "core/context/search_rank.h"
#include "core/context/search_tool_runs.h"
#include "core/hub/hub.h"
#include "core/hub/hub_tools.h"
#include "core/store/sqlite_database.h"
#include "core/sync/server_sync.h"
#include "tools/benchmarks/search_corpus.h"

namespace {

namespace core = ensemble::core;
namespace bench = ensemble::bench;
using core::store::Value;

// 2026-12-07, so the corpus's times fall within recency's window or not.
constexpr int64_t kNowMs = 1'796'630'400'000;

void Emit(std::string_view metric, double value, std::string_view unit, std::string_view better) {
  std::printf("{\"metric\": \"%.*s\", \"value\": %.3f, \"unit\": \"%.*s\", \"better\": \"%.*s\"}\n",
              static_cast<int>(metric.size()), metric.data(), value, static_cast<int>(unit.size()),
              unit.data(), static_cast<int>(better.size()), better.data());
}

int Fail(const core::Status& status) {
  std::fprintf(stderr, "context_bench: %s\n", status.ToString().c_str());
  return 1;
}

// The FTS5 index of the same rows and texts the ranked search reads.
core::Status BuildFts(core::store::Database& db) {
  ENSEMBLE_RETURN_IF_ERROR(db.ExecScript(
      "CREATE VIRTUAL TABLE bench_fts USING fts5(kind UNINDEXED, id UNINDEXED, title, body);"
      "INSERT INTO bench_fts SELECT 'task', t.id, t.title, t.description || ' ' ||"
      " COALESCE(p.body, '') FROM tasks t LEFT JOIN pages p ON p.id = t.page;"
      "INSERT INTO bench_fts SELECT 'page', id, title, body FROM pages;"
      "INSERT INTO bench_fts SELECT 'project', id, title, description FROM projects;"
      "INSERT INTO bench_fts SELECT 'person', id, name, role || ' ' || team || ' ' ||"
      " COALESCE(email, '') FROM people;"));
  return core::Status::Ok();
}

// `"w1"* OR "w2 w3"*`: any word, each a prefix, as the ranked search matches.
std::string MatchOf(const std::string& query) {
  std::string out;
  for (const std::vector<std::string>& word : core::context::SplitQuery(query).words) {
    std::string phrase;
    for (const std::string& token : word) phrase += (phrase.empty() ? "" : " ") + token;
    out += (out.empty() ? "\"" : " OR \"") + phrase + "\"*";
  }
  return out;
}

// Mutations one timed push carries.
constexpr int kPushBatch = 100;

// A task id (26 Crockford characters) no corpus record has.
std::string PushedId(int n) {
  static constexpr char kDigits[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
  std::string id = "01JCW" + std::string(21, '0');
  for (int i = 25; i >= 5 && n > 0; --i, n /= 32) id[i] = kDigits[n % 32];
  return id;
}

// The peers of the index's write cost: an FTS5 table over the tasks' titles
// and descriptions (external content, as the spec's "SQLite FTS5" option
// would keep it), filled for each task a push creates, in its transaction;
// and the floor of any index kept in the write's transaction, one row per
// record written (its kind and id) appended to a table of its own.
core::Status BuildPushPeers(core::store::Database& db) {
  return db.ExecScript(
      "CREATE VIRTUAL TABLE bench_push_fts USING fts5(title, description, content='tasks',"
      " content_rowid='rowid');"
      "INSERT INTO bench_push_fts (rowid, title, description)"
      " SELECT rowid, title, description FROM tasks;"
      "CREATE TABLE bench_push_floor (kind TEXT NOT NULL, id TEXT NOT NULL);");
}

using Written = std::span<const std::pair<std::string, std::string>>;

// Runs `sql(n)` over `records`' ids, kind `kind` (empty: every kind), a
// chunk of store::kBulkChunks at a time, as the indexes batch their writes.
core::Status ForIdChunks(core::store::Database& db, Written records, std::string_view kind,
                         const std::function<std::string(std::size_t)>& sql, bool with_kind) {
  std::vector<Value> params;
  for (const auto& [k, id] : records) {
    if (!kind.empty() && k != kind) continue;
    if (with_kind) params.push_back(Value(k));
    params.push_back(Value(id));
  }
  const std::size_t per = with_kind ? 2 : 1;
  for (std::size_t done = 0; done < params.size() / per;) {
    const std::size_t chunk = core::store::BulkChunk(params.size() / per - done);
    std::vector<Value> these(params.begin() + done * per, params.begin() + (done + chunk) * per);
    ENSEMBLE_RETURN_IF_ERROR(db.Exec(sql(chunk), these));
    done += chunk;
  }
  return core::Status::Ok();
}

core::Status FtsRecordsWritten(core::store::Database& db, Written records) {
  return ForIdChunks(
      db, records, "task",
      [](std::size_t n) {
        return "INSERT INTO bench_push_fts (rowid, title, description)"
               " SELECT rowid, title, description FROM tasks WHERE id IN (" +
               core::store::Placeholders(1, n) + ")";
      },
      false);
}

core::Status FloorRecordsWritten(core::store::Database& db, Written records) {
  return ForIdChunks(
      db, records, "",
      [](std::size_t n) {
        std::string sql = "INSERT INTO bench_push_floor (kind, id) VALUES ";
        for (std::size_t i = 0; i < n; ++i)
          sql += (i ? ",(" : "(") + core::store::Placeholders(2 * i + 1, 2) + ")";
        return sql;
      },
      true);
}

// The kinds of push PushMs times.
enum Side {
  kIndexed,  // The search and link indexes kept.
  kPlain,    // Nothing derived.
  kFts5,     // Only the FTS5 peer kept.
  kFloor,    // Only the floor's row per record.
  kSides
};

// Milliseconds of a push of kPushBatch new tasks per Side: the median, and
// the mean, which holds the pushes that merged the index's recent rows.
struct PushTimes {
  double median[kSides];
  double mean[kSides];
};

// PushTimes on `db` (holding BuildPushPeers' tables), the kinds of push
// taking turns batch by batch so all see the same store.
core::Result<PushTimes> PushMs(core::store::Database& db, const std::vector<std::string>& words,
                               int batches) {
  std::vector<core::sync::ServerSync> servers;
  for (int side = 0; side < kSides; ++side) {
    core::sync::SyncConfig config = core::hub::Config();
    if (side == kPlain) config.derived = {};
    if (side == kFts5) config.derived = {FtsRecordsWritten};
    if (side == kFloor) config.derived = {FloorRecordsWritten};
    servers.emplace_back(config);
  }
  std::vector<double> times[kSides];
  int next = 0;
  for (int b = 0; b < kSides * batches; ++b) {
    const int side = b % kSides;
    nlohmann::json mutations = nlohmann::json::array();
    for (int i = 0; i < kPushBatch; ++i, ++next) {
      const std::size_t w = static_cast<std::size_t>(next) % words.size();
      // Each side is a client of its own, its mutation ids counting from 1.
      mutations.push_back({{"id", b / kSides * kPushBatch + i + 1},
                           {"name", "task.create"},
                           {"clientTime", kNowMs},
                           {"args",
                            {{"id", PushedId(next)},
                             {"spaceId", bench::kCorpusSpace},
                             {"title", words[w]},
                             {"description", words[(w + 1) % words.size()] + " " +
                                                 words[(w + 2) % words.size()]}}}});
    }
    const std::string client = "bench-" + std::to_string(side);
    const nlohmann::json request = {{"clientGroupId", client + "-group"},
                                    {"clientId", client},
                                    {"mutations", std::move(mutations)}};
    const auto start = std::chrono::steady_clock::now();
    ENSEMBLE_ASSIGN_OR_RETURN(nlohmann::json response, servers[side].Push(db, request));
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    for (const nlohmann::json& r : response["results"]) {
      if (r.value("status", "") == "rejected")
        return core::Status(core::codes::kInternal, "a pushed task was rejected: " + r.dump());
    }
    times[side].push_back(ms);
  }
  PushTimes out;
  for (int side = 0; side < kSides; ++side) {
    std::vector<double>& v = times[side];
    double sum = 0;
    for (double ms : v) sum += ms;
    out.mean[side] = sum / static_cast<double>(v.size());
    std::sort(v.begin(), v.end());
    out.median[side] = v[v.size() / 2];
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  int records = 50'000;
  int queries = 200;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--records") == 0 && i + 1 < argc) {
      records = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--queries") == 0 && i + 1 < argc) {
      queries = std::atoi(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: context_bench [--records N] [--queries N]\n");
      return 1;
    }
  }
  auto opened = core::store::SqliteDatabase::Open(":memory:");
  if (!opened.ok()) return Fail(opened.status());
  core::store::Database& db = **opened;
  if (core::Status st = core::hub::Migrate(db); !st.ok()) return Fail(st);
  if (core::Status st = bench::SeedSearchCorpus(db, records, kNowMs); !st.ok()) return Fail(st);

  core::tools::ToolContext ctx = core::hub::NewToolContext();
  ctx.db = &db;
  ctx.space_id = bench::kCorpusSpace;
  ctx.now_ms = kNowMs;
  const std::vector<std::string> asked = bench::SearchCorpusQueries(queries);
  const auto search_one = [&](const std::string& q) -> core::Status {
    ENSEMBLE_ASSIGN_OR_RETURN(auto request, core::context::ParseSearchRequest(q, "", "20"));
    return core::context::SearchWork(ctx, request).status();
  };
  auto search = bench::MedianMs(asked, search_one);
  if (!search.ok()) return Fail(search.status());

  if (core::Status st = BuildFts(db); !st.ok()) return Fail(st);
  auto bm25 = bench::MedianMs(asked, [&](const std::string& q) -> core::Status {
    return db
        .Query(
            "SELECT kind, id, title FROM bench_fts WHERE bench_fts MATCH $1"
            " ORDER BY bm25(bench_fts) LIMIT 20",
            {Value(MatchOf(q))})
        .status();
  });
  if (!bm25.ok()) return Fail(bm25.status());

  auto tasks = bench::CorpusTasks(db, queries);
  if (!tasks.ok()) return Fail(tasks.status());
  auto item = bench::MedianMs(*tasks, [&](const std::string& id) -> core::Status {
    return core::context::ItemNeighbors(ctx, {"task", id}).status();
  });
  if (!item.ok()) return Fail(item.status());
  auto packet = bench::MedianMs(*tasks, [&](const std::string& id) -> core::Status {
    return core::context::WorkPacket(ctx, "task", id, core::context::kDefaultPacketChars).status();
  });
  if (!packet.ok()) return Fail(packet.status());

  // Pushes go to a store on disk opened as the embedded server opens its
  // own (WAL), holding a tenth of the corpus: what a push costs there.
  char dir[] = "/tmp/context-bench-XXXXXX";
  if (mkdtemp(dir) == nullptr) return Fail(core::Status(core::codes::kStorage, "no temp dir"));
  const std::string path = std::string(dir) + "/ensemble.sqlite";
  auto disk = core::store::SqliteDatabase::Open(path);
  if (!disk.ok()) return Fail(disk.status());
  if (core::Status st = (*disk)->ExecScript("PRAGMA journal_mode=WAL;"); !st.ok()) return Fail(st);
  if (core::Status st = core::hub::Migrate(**disk); !st.ok()) return Fail(st);
  if (core::Status st = bench::SeedSearchCorpus(**disk, records / 10, kNowMs); !st.ok())
    return Fail(st);
  if (core::Status st = BuildPushPeers(**disk); !st.ok()) return Fail(st);
  if (core::Status st = BuildPushPeers(db); !st.ok()) return Fail(st);
  auto pushes = PushMs(**disk, asked, std::max(5, queries / 5));
  auto in_memory = PushMs(db, asked, std::max(5, queries / 5));
  disk->reset();
  std::filesystem::remove_all(dir);
  if (!pushes.ok()) return Fail(pushes.status());
  if (!in_memory.ok()) return Fail(in_memory.status());
  // The same searches once the pushes' tasks are in the corpus: they also
  // read the recent rows written since the last merge.
  auto after_writes = bench::MedianMs(asked, search_one);
  if (!after_writes.ok()) return Fail(after_writes.status());
  auto recent = db.Query("SELECT CAST(COALESCE(SUM(token_count), 0) AS BIGINT) FROM search_recent");
  if (!recent.ok()) return Fail(recent.status());

  Emit("search.query_ms_p50.native", *search, "ms", "lower");
  Emit("search.query_ms_p50.native_after_writes", *after_writes, "ms", "lower");
  Emit("search.recent_tokens_after_writes",
       static_cast<double>(core::store::AsInt(recent->rows[0][0])), "tokens", "lower");
  Emit("search.fts5_bm25_ms_p50", *bm25, "ms", "lower");
  Emit("search.vs_fts5_bm25", *search / *bm25, "ratio", "lower");
  Emit("context.item_ms_p50", *item, "ms", "lower");
  Emit("context.packet_ms_p50", *packet, "ms", "lower");
  const auto ratio = [](const PushTimes& t, Side side) {
    return t.median[side] / t.median[kPlain];
  };
  Emit("search.push_ms_p50.indexed", pushes->median[kIndexed], "ms", "lower");
  Emit("search.push_ms_p50.unindexed", pushes->median[kPlain], "ms", "lower");
  Emit("search.push_ms_p50.fts5", pushes->median[kFts5], "ms", "lower");
  Emit("search.push_ms_p50.floor", pushes->median[kFloor], "ms", "lower");
  Emit("search.index_write_overhead", ratio(*pushes, kIndexed), "ratio", "lower");
  Emit("search.fts5_write_overhead", ratio(*pushes, kFts5), "ratio", "lower");
  Emit("search.floor_write_overhead", ratio(*pushes, kFloor), "ratio", "lower");
  Emit("search.index_write_overhead.mean", pushes->mean[kIndexed] / pushes->mean[kPlain], "ratio",
       "lower");
  Emit("search.fts5_write_overhead.mean", pushes->mean[kFts5] / pushes->mean[kPlain], "ratio",
       "lower");
  Emit("search.index_write_overhead.memory", ratio(*in_memory, kIndexed), "ratio", "lower");
  Emit("search.fts5_write_overhead.memory", ratio(*in_memory, kFts5), "ratio", "lower");
  Emit("search.floor_write_overhead.memory", ratio(*in_memory, kFloor), "ratio", "lower");
  return 0;
}
