#include "core/context/search_index.h"

#include <algorithm>
#include <functional>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <utility>

namespace ensemble::core::context {
namespace {

using store::Value;

// A task's page text counts half a word: it is long, and it is the task's
// notes rather than what the task is.
constexpr int64_t kPageTextWeight = kPoint / 2;
// An address is found, but is weaker evidence than a role or a team.
constexpr int64_t kEmailWeight = kPoint / 2;

// A terms table's columns and key, and its index by record, for `{T}`.
constexpr std::string_view kTermsSql =
    "CREATE TABLE {T}"
    " (space_id TEXT NOT NULL, kind TEXT NOT NULL, token TEXT{C} NOT NULL, id TEXT{C} NOT NULL,"
    " in_title BIGINT NOT NULL, updated_at BIGINT NOT NULL,"
    " PRIMARY KEY (space_id, kind, token, id)){ROWID};"
    "CREATE INDEX {T}_record ON {T} (id);";

// Where a write's terms go, and how many it has put there since they were
// last merged into search_terms (an upper bound of the rows it holds).
constexpr std::string_view kRecentSql =
    "CREATE TABLE search_recent_size (written BIGINT NOT NULL);"
    "INSERT INTO search_recent_size (written) VALUES (0);";

// Migration 39: migration 38's rows merged, search_recent a row per record,
// and the tokens and rows written to it since its last merge (upper bounds:
// a record written twice counts twice). Tombstones (no tokens) have no
// space: a removed record's may be gone, so a row is the record's whatever
// space a search asks for.
constexpr std::string_view kRecentByRecordSql =
    "INSERT INTO search_terms (space_id, kind, token, id, in_title, updated_at)"
    " SELECT space_id, kind, token, id, in_title, updated_at FROM search_recent;"
    "DROP TABLE search_recent;"
    "DROP TABLE search_recent_size;"
    "CREATE TABLE search_recent (kind TEXT NOT NULL, id TEXT{C} NOT NULL,"
    " space_id TEXT NOT NULL, updated_at BIGINT NOT NULL, token_count BIGINT NOT NULL,"
    " title_tokens TEXT{C} NOT NULL, tokens TEXT{C} NOT NULL, PRIMARY KEY (kind, id)){ROWID};"
    "CREATE TABLE search_recent_size (tokens BIGINT NOT NULL, records BIGINT NOT NULL);"
    "INSERT INTO search_recent_size (tokens, records) VALUES (0, 0);";

// `script` for SQLite and PostgreSQL: SQLite keeps the terms in their key's
// order (no rowid); PostgreSQL compares them byte by byte as SQLite does.
std::pair<std::string, std::string> InDialects(const std::string& script) {
  std::pair<std::string, std::string> out;
  for (bool pg : {false, true}) {
    std::string sql = script;
    for (auto [from, to] :
         {std::pair<std::string_view, std::string_view>{"{C}", pg ? " COLLATE \"C\"" : ""},
          {"{ROWID}", pg ? "" : " WITHOUT ROWID"}}) {
      for (std::size_t at; (at = sql.find(from)) != std::string::npos;)
        sql.replace(at, from.size(), to);
    }
    (pg ? out.second : out.first) = std::move(sql);
  }
  return out;
}

std::string TermsTable(std::string_view table) {
  std::string sql(kTermsSql);
  for (std::size_t at; (at = sql.find("{T}")) != std::string::npos;) sql.replace(at, 3, table);
  return sql;
}

// The scripts of migrations 36 and 38.
const std::pair<std::string, std::string>& IndexSql() {
  static const auto* sql = new std::pair<std::string, std::string>(
      InDialects(TermsTable(kMainTerms) + "CREATE INDEX tasks_page ON tasks (page);"));
  return *sql;
}
const std::pair<std::string, std::string>& RecentSql() {
  static const auto* sql = new std::pair<std::string, std::string>(
      InDialects(TermsTable(kRecentTerms) + std::string(kRecentSql)));
  return *sql;
}
const std::pair<std::string, std::string>& RecentByRecordSql() {
  static const auto* sql =
      new std::pair<std::string, std::string>(InDialects(std::string(kRecentByRecordSql)));
  return *sql;
}

// The columns the index reads of `k`, for the records `where` picks.
std::string RowSql(const SearchedKind& k, std::string_view where) {
  std::string sql = "SELECT t.id, t.space_id, t.deleted, t.updated_at, t." + std::string(k.title) +
                    SearchedTextColumns(k);
  if (k.kind == "project") sql += ", t.deliverables";
  return sql + SearchedFrom(k) + " WHERE " + std::string(where);
}

// A record's distinct indexed tokens, each list sorted: those of its title,
// and the others.
struct RecordTokens {
  std::vector<std::string> title;
  std::vector<std::string> others;

  std::size_t size() const { return title.size() + others.size(); }
};

void AddTokens(std::string_view text, std::vector<std::string>& to) {
  for (std::string& token : SearchTokens(text)) {
    token.resize(IndexedToken(token).size());
    to.push_back(std::move(token));
  }
}

void SortUnique(std::vector<std::string>& tokens) {
  std::sort(tokens.begin(), tokens.end());
  tokens.erase(std::unique(tokens.begin(), tokens.end()), tokens.end());
}

// Sorts both lists and drops from the others what the title holds.
void Finish(RecordTokens& tokens) {
  SortUnique(tokens.title);
  SortUnique(tokens.others);
  std::vector<std::string> others;
  others.reserve(tokens.others.size());
  std::set_difference(std::make_move_iterator(tokens.others.begin()),
                      std::make_move_iterator(tokens.others.end()), tokens.title.begin(),
                      tokens.title.end(), std::back_inserter(others));
  tokens.others = std::move(others);
}

// What one row of RowSql's columns for `k` gives the index: its tokens under
// its kind, and for a project its deliverables' under kDeliverableTerms.
struct RowTokens {
  std::string id;
  std::string space_id;
  int64_t updated_at = 0;
  bool live = false;
  RecordTokens record;
  RecordTokens deliverables;
};

RowTokens TokensOfRow(const SearchedKind& k, const std::vector<Value>& row) {
  RowTokens out;
  out.id = store::AsText(row[0]);
  out.space_id = store::AsText(row[1]);
  out.live = store::AsInt(row[2]) == 0;  // In Trash: not searched.
  out.updated_at = store::AsInt(row[3]);
  if (!out.live) return out;
  AddTokens(store::AsText(row[4]), out.record.title);
  for (std::size_t t = 0; t < k.texts.size(); ++t)
    AddTokens(store::AsText(row[5 + t]), out.record.others);
  Finish(out.record);
  if (k.kind == "project") {
    const nlohmann::json deliverables =
        nlohmann::json::parse(store::AsText(row[5 + k.texts.size()]), nullptr, false);
    if (deliverables.is_array()) {
      for (const nlohmann::json& d : deliverables) {
        if (d.is_object()) AddTokens(d.value("title", std::string()), out.deliverables.title);
      }
    }
    Finish(out.deliverables);
  }
  return out;
}

// A statement for each of store::kBulkChunks' row counts, made once.
class PerChunk {
 public:
  explicit PerChunk(const std::function<std::string(std::size_t)>& make) {
    for (std::size_t n : store::kBulkChunks) sql_[n] = make(n);
  }
  const std::string& operator()(std::size_t rows) const { return sql_.at(rows); }

 private:
  std::map<std::size_t, std::string> sql_;
};

// "INSERT INTO search_terms ... VALUES ($1,$2,$3,$4,$5,$6),($1,$2,$3,$4,$7,$8)..."
// for `count` rows: the record's four values once, then each token and its
// title flag.
const std::string& InsertSql(std::size_t count) {
  static const auto* sqls = new PerChunk([](std::size_t n) {
    std::string sql =
        "INSERT INTO search_terms (space_id, kind, id, updated_at, token, in_title) VALUES ";
    for (std::size_t i = 0; i < n; ++i)
      sql += (i ? ",($1,$2,$3,$4," : "($1,$2,$3,$4,") + store::Placeholders(5 + 2 * i, 2) + ")";
    return sql;
  });
  return (*sqls)(count);
}

// Adds `tokens` of record (kind, id) to search_terms.
Status InsertTerms(store::Database& db, const std::string& space_id, std::string_view kind,
                   const std::string& id, int64_t updated_at, const RecordTokens& tokens) {
  std::vector<std::pair<const std::string*, bool>> all;
  all.reserve(tokens.size());
  for (const std::string& t : tokens.title) all.emplace_back(&t, true);
  for (const std::string& t : tokens.others) all.emplace_back(&t, false);
  std::vector<Value> params;
  for (std::size_t done = 0; done < all.size();) {
    const std::size_t chunk = store::BulkChunk(all.size() - done);
    params = {Value(space_id), Value(std::string(kind)), Value(id), Value(updated_at)};
    for (std::size_t i = 0; i < chunk; ++i, ++done) {
      params.push_back(Value(*all[done].first));
      params.push_back(Value(int64_t{all[done].second}));
    }
    ENSEMBLE_RETURN_IF_ERROR(db.Exec(InsertSql(chunk), params));
  }
  return Status::Ok();
}

// A record's row of search_recent: its tokens, or none for one removed
// (then no space and no time).
struct RecentRow {
  std::string_view kind;
  std::string id;
  std::string space_id;
  int64_t updated_at = 0;
  RecordTokens tokens;
};

// "INSERT INTO search_recent ... VALUES ($1..$7),($8..$14)... ON CONFLICT"
// for `count` rows.
const std::string& WriteRecentSql(std::size_t count) {
  static const auto* sqls = new PerChunk([](std::size_t n) {
    return "INSERT INTO search_recent"
           " (kind, id, space_id, updated_at, token_count, title_tokens, tokens) VALUES " +
           store::ValueRows(n, 7) +
           " ON CONFLICT (kind, id) DO UPDATE SET space_id = excluded.space_id,"
           " updated_at = excluded.updated_at, token_count = excluded.token_count,"
           " title_tokens = excluded.title_tokens, tokens = excluded.tokens";
  });
  return (*sqls)(count);
}

// Writes `rows` (no two of one record) over what search_recent holds.
Status WriteRecent(store::Database& db, const std::vector<RecentRow>& rows) {
  std::vector<Value> params;
  for (std::size_t done = 0; done < rows.size();) {
    const std::size_t chunk = store::BulkChunk(rows.size() - done);
    params.clear();
    for (std::size_t i = 0; i < chunk; ++i, ++done) {
      const RecentRow& r = rows[done];
      params.insert(params.end(),
                    {Value(std::string(r.kind)), Value(r.id), Value(r.space_id),
                     Value(r.updated_at), Value(static_cast<int64_t>(r.tokens.size())),
                     Value(JoinTokens(r.tokens.title)), Value(JoinTokens(r.tokens.others))});
    }
    ENSEMBLE_RETURN_IF_ERROR(db.Exec(WriteRecentSql(chunk), params));
  }
  return Status::Ok();
}

// The tokens of a space-separated list, in its order.
std::vector<std::string_view> Split(std::string_view list) {
  std::vector<std::string_view> out;
  while (!list.empty()) {
    const std::size_t end = std::min(list.find(' '), list.size());
    out.push_back(list.substr(0, end));
    list.remove_prefix(std::min(end + 1, list.size()));
  }
  return out;
}

const SearchedKind* FindSearchedKind(std::string_view kind) {
  for (const SearchedKind& k : SearchedKinds()) {
    if (k.kind == kind) return &k;
  }
  return nullptr;
}

}  // namespace

std::string_view IndexedToken(std::string_view token) {
  if (token.size() <= kMaxIndexedTokenBytes) return token;
  std::size_t end = kMaxIndexedTokenBytes;
  while (end > 0 && (static_cast<unsigned char>(token[end]) & 0xC0) == 0x80) --end;
  return token.substr(0, end);
}

const std::vector<SearchedKind>& SearchedKinds() {
  static const std::vector<SearchedKind> kKinds = {
      {"task",
       "tasks",
       "title",
       {{"description", kPoint}, {"labels", kPoint}, {"page_text", kPageTextWeight}},
       true,
       true},
      {"project", "projects", "title", {{"description", kPoint}}, true, true},
      {"page", "pages", "title", {{"body", kPoint}}, false, false},
      {"person",
       "people",
       "name",
       {{"role", kPoint}, {"team", kPoint}, {"email", kEmailWeight}},
       false,
       false},
      {"board", "boards", "title", {{"description", kPoint}}, false, false},
  };
  return kKinds;
}

std::string SearchedTextColumns(const SearchedKind& k) {
  std::string out;
  for (const SearchedText& text : k.texts) {
    out +=
        text.column == "page_text" ? ", COALESCE(p.body, '')" : ", t." + std::string(text.column);
  }
  return out;
}

std::string SearchedFrom(const SearchedKind& k) {
  std::string out = " FROM " + std::string(k.table) + " t";
  for (const SearchedText& text : k.texts) {
    if (text.column == "page_text")
      out += " LEFT JOIN pages p ON p.id = t.page AND p.space_id = t.space_id AND p.deleted = 0";
  }
  return out;
}

namespace {

// Indexes every live searched record into search_terms.
Status IndexEveryRecord(store::Database& db) {
  for (const SearchedKind& k : SearchedKinds()) {
    ENSEMBLE_ASSIGN_OR_RETURN(store::Rows rows, db.Query(RowSql(k, "t.deleted = 0")));
    for (const std::vector<Value>& row : rows.rows) {
      const RowTokens r = TokensOfRow(k, row);
      ENSEMBLE_RETURN_IF_ERROR(InsertTerms(db, r.space_id, k.kind, r.id, r.updated_at, r.record));
      if (k.kind != "project") continue;
      ENSEMBLE_RETURN_IF_ERROR(
          InsertTerms(db, r.space_id, kDeliverableTerms, r.id, r.updated_at, r.deliverables));
    }
  }
  return Status::Ok();
}

// "INSERT INTO search_terms ... VALUES ($1,...,$6),($7,...,$12)..." for
// `count` whole rows.
const std::string& MergeSql(std::size_t count) {
  static const auto* sqls = new PerChunk([](std::size_t n) {
    return "INSERT INTO search_terms (space_id, kind, token, id, in_title, updated_at) VALUES " +
           store::ValueRows(n, 6);
  });
  return (*sqls)(count);
}

}  // namespace

// search_terms is new, so empty: every record goes straight into it.
const store::Migration kCreateSearchIndex = {36, "search index", IndexSql().first,
                                             IndexSql().second, IndexEveryRecord};

const store::Migration kCreateRecentSearchTerms = {38, "recent search terms", RecentSql().first,
                                                   RecentSql().second};

const store::Migration kRecentTermsByRecord = {
    39, "recent search terms by record", RecentByRecordSql().first, RecentByRecordSql().second};

namespace {

// Adds to `recent` the rows of the records `ids` (sorted, distinct) of kind
// `k`, as the store holds them.
Status ReadKind(store::Database& db, const SearchedKind& k, const std::vector<std::string>& ids,
                std::vector<RecentRow>& recent) {
  static const auto* by_ids = [] {
    auto* out = new std::map<std::pair<std::string_view, std::size_t>, std::string>();
    for (const SearchedKind& searched : SearchedKinds()) {
      for (std::size_t n : store::kBulkChunks)
        (*out)[{searched.kind, n}] =
            RowSql(searched, "t.id IN (" + store::Placeholders(1, n) + ")");
    }
    return out;
  }();
  std::vector<Value> params;
  for (std::size_t done = 0; done < ids.size();) {
    const std::size_t chunk = store::BulkChunk(ids.size() - done);
    params.assign(ids.begin() + done, ids.begin() + done + chunk);
    ENSEMBLE_ASSIGN_OR_RETURN(store::Rows rows, db.Query(by_ids->at({k.kind, chunk}), params));
    // Each id's row, by its place in the chunk; none: the record is gone.
    std::vector<std::optional<RowTokens>> found(chunk);
    for (const std::vector<Value>& row : rows.rows) {
      RowTokens r = TokensOfRow(k, row);
      const auto at = std::lower_bound(ids.begin() + done, ids.begin() + done + chunk, r.id);
      if (r.live) found[at - ids.begin() - done] = std::move(r);
    }
    for (std::size_t i = 0; i < chunk; ++i, ++done) {
      // Gone or in Trash: a row with no tokens hides what search_terms holds.
      RowTokens r = found[i] ? std::move(*found[i]) : RowTokens{};
      recent.push_back({k.kind, ids[done], r.space_id, r.updated_at, std::move(r.record)});
      if (k.kind == "project") {
        recent.push_back(
            {kDeliverableTerms, ids[done], r.space_id, r.updated_at, std::move(r.deliverables)});
      }
    }
  }
  return Status::Ok();
}

}  // namespace

Status IndexRecords(store::Database& db,
                    std::span<const std::pair<std::string, std::string>> records) {
  const std::vector<SearchedKind>& kinds = SearchedKinds();
  std::vector<std::vector<std::string>> ids(kinds.size());
  for (const auto& [kind, id] : records) {
    if (const SearchedKind* k = FindSearchedKind(kind)) ids[k - kinds.data()].push_back(id);
    if (kind != "page") continue;
    // A page's body is its tasks' page text: they are indexed again.
    const std::size_t tasks = FindSearchedKind("task") - kinds.data();
    ENSEMBLE_RETURN_IF_ERROR(db.ForEachRow("SELECT id FROM tasks WHERE page = $1", {Value(id)},
                                           [&](const store::RowView& row) {
                                             ids[tasks].emplace_back(row.Text(0));
                                             return Status::Ok();
                                           }));
  }
  std::vector<RecentRow> recent;
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    std::vector<std::string>& of = ids[i];
    if (of.empty()) continue;
    std::sort(of.begin(), of.end());
    of.erase(std::unique(of.begin(), of.end()), of.end());
    ENSEMBLE_RETURN_IF_ERROR(ReadKind(db, kinds[i], of, recent));
  }
  if (recent.empty()) return Status::Ok();
  int64_t tokens = 0;
  for (const RecentRow& r : recent) tokens += static_cast<int64_t>(r.tokens.size());
  // Counted before the rows are written: on PostgreSQL the count's row is
  // then every writer's first lock, so a merge never waits on a writer that
  // waits on it.
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows size,
      db.Query("UPDATE search_recent_size SET tokens = tokens + $1, records = records + $2"
               " RETURNING tokens, records",
               {Value(tokens), Value(static_cast<int64_t>(recent.size()))}));
  ENSEMBLE_RETURN_IF_ERROR(WriteRecent(db, recent));
  if (size.empty() || (store::AsInt(size.rows[0][0]) <= kMaxRecentTerms &&
                       store::AsInt(size.rows[0][1]) <= kMaxRecentRecords))
    return Status::Ok();
  return MergeRecentTerms(db);
}

Status MergeRecentTerms(store::Database& db) {
  // Taken first (a write took it already): a second merge waits here for
  // this one to commit, and then finds the rows it moved gone.
  ENSEMBLE_RETURN_IF_ERROR(db.Exec("UPDATE search_recent_size SET tokens = 0, records = 0"));
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows recent,
      db.Query("SELECT space_id, kind, id, updated_at, title_tokens, tokens FROM search_recent"));
  struct Term {
    const std::string* space_id;
    const std::string* kind;
    std::string_view token;
    const std::string* id;
    bool in_title;
    int64_t updated_at;
  };
  std::vector<Term> terms;
  for (const std::vector<Value>& row : recent.rows) {
    const auto& text = [&](int c) -> const std::string& { return std::get<std::string>(row[c]); };
    ENSEMBLE_RETURN_IF_ERROR(
        db.Exec("DELETE FROM search_terms WHERE id = $1 AND kind = $2", {row[2], row[1]}));
    for (int c : {4, 5}) {
      for (std::string_view token : Split(text(c)))
        terms.push_back({&text(0), &text(1), token, &text(2), c == 4, store::AsInt(row[3])});
    }
  }
  // In the key's order, so each page of search_terms is changed once.
  std::sort(terms.begin(), terms.end(), [](const Term& a, const Term& b) {
    if (*a.space_id != *b.space_id) return *a.space_id < *b.space_id;
    if (*a.kind != *b.kind) return *a.kind < *b.kind;
    if (a.token != b.token) return a.token < b.token;
    return *a.id < *b.id;
  });
  std::vector<Value> params;
  for (std::size_t done = 0; done < terms.size();) {
    const std::size_t chunk = store::BulkChunk(terms.size() - done);
    params.clear();
    for (std::size_t i = 0; i < chunk; ++i, ++done) {
      const Term& t = terms[done];
      params.insert(params.end(), {Value(*t.space_id), Value(*t.kind), Value(std::string(t.token)),
                                   Value(*t.id), Value(int64_t{t.in_title}), Value(t.updated_at)});
    }
    ENSEMBLE_RETURN_IF_ERROR(db.Exec(MergeSql(chunk), params));
  }
  // Only the rows as read: one rewritten meanwhile (PostgreSQL) stays, and
  // still supersedes what this merge wrote of it.
  for (const std::vector<Value>& row : recent.rows) {
    ENSEMBLE_RETURN_IF_ERROR(
        db.Exec("DELETE FROM search_recent WHERE kind = $2 AND id = $3 AND space_id = $1"
                " AND updated_at = $4 AND title_tokens = $5 AND tokens = $6",
                row));
  }
  return Status::Ok();
}

Status ClearSearchIndex(store::Database& db) {
  ENSEMBLE_RETURN_IF_ERROR(db.Exec("UPDATE search_recent_size SET tokens = 0, records = 0"));
  ENSEMBLE_RETURN_IF_ERROR(db.Exec("DELETE FROM search_terms"));
  return db.Exec("DELETE FROM search_recent");
}

Status RebuildSearchIndex(store::Database& db) {
  ENSEMBLE_RETURN_IF_ERROR(ClearSearchIndex(db));
  return IndexEveryRecord(db);
}

}  // namespace ensemble::core::context
