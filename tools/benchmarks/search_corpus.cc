#include "tools/benchmarks/search_corpus.h"

#include <algorithm>
#include <string_view>
#include <vector>

#include "core/base/sha256.h"
#include "core/context/neighbors.h"
#include "core/context/packet.h"
#include "core/context/record_links.h"
#include "core/context/search_index.h"
#include "core/context/search_tool_runs.h"
#include "core/hub/hub_tools.h"

namespace ensemble::bench {
namespace {

using core::store::Value;

constexpr int kVocabulary = 4096;
constexpr int64_t kDayMs = 24 * 60 * 60 * 1000;
constexpr std::string_view kSyllables[16] = {"ka", "lo", "mi", "ne", "ru", "sa", "to", "vi",
                                             "be", "da", "fo", "gu", "ha", "ji", "pe", "zu"};
constexpr char kCrockford[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

// A linear congruential generator: the same numbers in every build.
class Numbers {
 public:
  explicit Numbers(uint32_t seed) : state_(seed) {}
  uint32_t Next() {
    state_ = state_ * 1664525u + 1013904223u;
    return state_ >> 8;
  }
  int Below(int n) { return static_cast<int>(Next() % static_cast<uint32_t>(n)); }

  // A word of the vocabulary: a long tail, rank 0 the most common. `rarest`
  // shifts the draw toward rarer words (queries ask for what tells apart).
  std::string Word(int rarest = 3) {
    const int bucket = rarest + Below(13 - rarest);
    const int rank = Below(1 << bucket) % kVocabulary;
    std::string word;
    for (int k = 0, i = rank; k < 3; ++k, i /= 16) word += kSyllables[i % 16];
    return word;
  }

  std::string Words(int count) {
    std::string out;
    for (int i = 0; i < count; ++i) out += (i ? " " : "") + Word();
    return out;
  }

 private:
  uint32_t state_;
};

// A valid record id (26 Crockford characters) naming the kind and number.
std::string IdOf(char kind, int n) {
  std::string digits(21, '0');
  for (int i = 20; i >= 0 && n > 0; --i, n /= 32) digits[i] = kCrockford[n % 32];
  return std::string("01JB") + kind + digits;
}

// A JSON list of `count` distinct people of the `people` the corpus has.
std::string PeopleOf(Numbers& links, int count, int people) {
  std::vector<int> picked;
  for (int k = 0; k < count && people > 0; ++k) {
    const int p = links.Below(people);
    if (std::find(picked.begin(), picked.end(), p) == picked.end()) picked.push_back(p);
  }
  std::string out = "[";
  for (std::size_t k = 0; k < picked.size(); ++k)
    out += (k ? ",\"" : "\"") + IdOf('M', picked[k]) + "\"";
  return out + "]";
}

}  // namespace

core::Status SeedSearchCorpus(core::store::Database& db, int records, int64_t now_ms) {
  Numbers n(20261207);
  // The links between records draw from their own numbers, so the words
  // (and so the search's figures) are the same with them as without.
  Numbers links(1207);
  core::store::Transaction txn(db);
  ENSEMBLE_RETURN_IF_ERROR(txn.status());
  const int projects = std::max(1, records * 4 / 100);
  const int people = records * 6 / 100;
  const int pages = records * 30 / 100;
  const int tasks = records - projects - people - pages;
  const std::string space = kCorpusSpace;
  // Each draw in a statement of its own (here and below): the order of two
  // calls in one expression is the compiler's, and GCC's and Clang's differ.
  auto when = [&] {
    const int64_t days = n.Below(400);
    return now_ms - days * kDayMs - n.Below(1000);
  };
  for (int i = 0; i < projects; ++i) {
    const int64_t t = when();
    ENSEMBLE_RETURN_IF_ERROR(db.Exec(
        "INSERT INTO projects (id, space_id, title, description, status, version, created_at,"
        " updated_at, people) VALUES ($1, $2, $3, $4, $5, 1, $6, $6, $7)",
        {Value(IdOf('P', i)), Value(space), Value(n.Words(2 + n.Below(3))),
         Value(n.Words(10 + n.Below(40))), Value(std::string(n.Below(4) ? "active" : "done")),
         Value(t), Value(PeopleOf(links, 2 + links.Below(4), people))}));
  }
  for (int i = 0; i < people; ++i) {
    const int64_t t = when();
    std::string name = n.Word();
    name += " " + n.Word();
    ENSEMBLE_RETURN_IF_ERROR(
        db.Exec("INSERT INTO people (id, space_id, name, email, role, team, version, created_at,"
                " updated_at) VALUES ($1, $2, $3, $4, $5, $6, 1, $7, $7)",
                {Value(IdOf('M', i)), Value(space), Value(name),
                 Value("p" + std::to_string(i) + "@example.com"), Value(n.Words(2)),
                 Value(n.Words(1)), Value(t)}));
  }
  for (int i = 0; i < pages; ++i) {
    const int64_t t = when();
    ENSEMBLE_RETURN_IF_ERROR(
        db.Exec("INSERT INTO pages (id, space_id, title, body, version, created_at, updated_at)"
                " VALUES ($1, $2, $3, $4, 1, $5, $5)",
                {Value(IdOf('G', i)), Value(space), Value(n.Words(2 + n.Below(5))),
                 Value(n.Words(10 + n.Below(110))), Value(t)}));
  }
  for (int i = 0; i < tasks; ++i) {
    const int64_t t = when();
    // A third of the tasks have a page of notes: the pages above, in order.
    const bool has_page = i % 3 == 0 && i / 3 < pages;
    const std::string title = n.Words(2 + n.Below(5));
    const std::string status = n.Below(3) ? "todo" : "done";
    std::string description = n.Words(n.Below(40));
    const std::string project = IdOf('P', n.Below(projects));
    // 0 to 3 people; a quarter depend on an earlier task; a fifth wait on
    // someone; a tenth mention a person in their description.
    const std::string task_people = PeopleOf(links, links.Below(4), people);
    const std::string depends_on =
        i > 0 && links.Below(4) == 0 ? "[\"" + IdOf('T', links.Below(i)) + "\"]" : "[]";
    const int label = links.Below(15);
    const std::string labels = label < 3 ? "[\"waiting-on\"]" : label < 6 ? "[\"copy\"]" : "[]";
    if (people > 0 && links.Below(10) == 0)
      description += " ensemble://person/" + IdOf('M', links.Below(people));
    ENSEMBLE_RETURN_IF_ERROR(db.Exec(
        "INSERT INTO tasks (id, space_id, title, status, description, project, page, version,"
        " created_at, updated_at, people, depends_on, labels)"
        " VALUES ($1, $2, $3, $4, $5, $6, $7, 1, $8, $8, $9, $10, $11)",
        {Value(IdOf('T', i)), Value(space), Value(title), Value(status), Value(description),
         Value(project), has_page ? Value(IdOf('G', i / 3)) : Value(core::store::Null{}), Value(t),
         Value(task_people), Value(depends_on), Value(labels)}));
  }
  // Written past the mutators, so indexed here as a migration would.
  ENSEMBLE_RETURN_IF_ERROR(core::context::RebuildSearchIndex(db));
  ENSEMBLE_RETURN_IF_ERROR(core::context::RebuildRecordLinks(db));
  return txn.Commit();
}

std::vector<std::string> SearchCorpusQueries(int count) {
  Numbers n(7);
  std::vector<std::string> out;
  for (int i = 0; i < count; ++i) {
    const int words = 1 + n.Below(6);
    std::string q;
    for (int w = 0; w < words; ++w) q += (w ? " " : "") + n.Word(5);
    if (i % 10 == 9) {
      std::string phrase = n.Word(4);
      phrase += " " + n.Word(4);
      q = "\"" + phrase + "\" " + q;
    }
    out.push_back(std::move(q));
  }
  return out;
}

core::Result<std::vector<std::string>> CorpusTasks(core::store::Database& db, int count) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      core::store::Rows rows,
      db.Query("SELECT id FROM tasks WHERE space_id = $1 AND page IS NOT NULL AND project IS NOT"
               " NULL AND people <> '[]' AND depends_on <> '[]' ORDER BY id LIMIT $2",
               {Value(std::string(kCorpusSpace)), Value(static_cast<int64_t>(count))}));
  std::vector<std::string> out;
  for (std::size_t i = 0; i < rows.size(); ++i) out.push_back(core::store::AsText(rows.rows[i][0]));
  return out;
}

core::Result<nlohmann::json> CorpusAnswers(core::store::Database& db, int queries, int tasks,
                                           int64_t now_ms) {
  using nlohmann::json;
  core::tools::ToolContext ctx = core::hub::NewToolContext();
  ctx.db = &db;
  ctx.space_id = kCorpusSpace;
  ctx.now_ms = now_ms;
  json out = {{"search", json::array()}, {"items", json::array()}};
  ENSEMBLE_ASSIGN_OR_RETURN(std::vector<std::string> ids, CorpusTasks(db, tasks));
  const std::vector<std::string> asked = SearchCorpusQueries(queries);
  for (std::size_t i = 0; i < asked.size(); ++i) {
    // Every fifth query is asked near one of the tasks.
    const std::string near =
        i % 5 == 4 && !ids.empty() ? "ensemble://task/" + ids[(i / 5) % ids.size()] : std::string();
    ENSEMBLE_ASSIGN_OR_RETURN(core::context::SearchRequest request,
                              core::context::ParseSearchRequest(asked[i], "", "20", near));
    ENSEMBLE_ASSIGN_OR_RETURN(json found, core::context::SearchWork(ctx, request));
    json answer = {{"q", asked[i]}, {"results", json::array()}, {"total", found["data"]["total"]}};
    if (!near.empty()) answer["near"] = near;
    for (const json& r : found["data"]["results"])
      answer["results"].push_back(r["kind"].get<std::string>() + ":" + r["id"].get<std::string>());
    if (found["data"].contains("more")) answer["more"] = true;
    out["search"].push_back(std::move(answer));
  }
  // Each task's context, and the project and first person of the first three.
  std::vector<std::pair<std::string, std::string>> records;
  for (const std::string& id : ids) records.emplace_back("task", id);
  for (std::size_t i = 0; i < ids.size() && i < 3; ++i) {
    ENSEMBLE_ASSIGN_OR_RETURN(
        core::store::Rows row,
        db.Query("SELECT project, people FROM tasks WHERE id = $1", {Value(ids[i])}));
    records.emplace_back("project", core::store::AsText(row.rows[0][0]));
    const json people = json::parse(core::store::AsText(row.rows[0][1]));
    records.emplace_back("person", people.at(0).get<std::string>());
  }
  for (const auto& [kind, id] : records) {
    ENSEMBLE_ASSIGN_OR_RETURN(json neighbors, core::context::ItemNeighbors(ctx, {kind, id}));
    json relations = json::object();
    for (const auto& [rel, page] : neighbors["relations"].items()) {
      json listed = json::array();
      for (const json& item : page["items"]) listed.push_back(item["id"]);
      relations[rel] = {{"total", page["total"]}, {"ids", std::move(listed)}};
    }
    ENSEMBLE_ASSIGN_OR_RETURN(std::string packet, core::context::WorkPacket(ctx, kind, id));
    out["items"].push_back({{"kind", kind},
                            {"id", id},
                            {"relations", std::move(relations)},
                            {"packet", core::Sha256Hex(packet)}});
  }
  return out;
}

}  // namespace ensemble::bench
