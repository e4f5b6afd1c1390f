#include "core/context/search_index.h"

#include <algorithm>
#include <bit>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <utility>

#include "core/text/utf8.h"

namespace ensemble::core::context {
namespace {

using store::Value;

// A task's page text counts half a word: it is long, and it is the task's
// notes rather than what the task is.
constexpr int64_t kPageTextWeight = kPoint / 2;
// An address is found, but is weaker evidence than a role or a team.
constexpr int64_t kEmailWeight = kPoint / 2;

// Rows one INSERT writes at most; a record's rows go in chunks of these
// sizes (powers of two, so a record's dozen tokens take two statements, not
// three), and the statement cache holds seven per table, not one per count.
constexpr std::size_t kInsertChunks[] = {64, 32, 16, 8, 4, 2, 1};

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

// `token` cut to kMaxIndexedTokenBytes on a code point's first byte.
std::string_view IndexedToken(std::string_view token) {
  if (token.size() <= kMaxIndexedTokenBytes) return token;
  std::size_t end = kMaxIndexedTokenBytes;
  while (end > 0 && (static_cast<unsigned char>(token[end]) & 0xC0) == 0x80) --end;
  return token.substr(0, end);
}

// The least string above every string starting with `prefix` (non-empty,
// valid UTF-8): its last code point plus one. UTF-8's byte order is code
// point order, so [prefix, this) is exactly the strings starting with it.
std::string PrefixEnd(std::string_view prefix) {
  std::size_t last = prefix.size() - 1;
  while (last > 0 && (static_cast<unsigned char>(prefix[last]) & 0xC0) == 0x80) --last;
  char32_t c = text::DecodeUtf8Step(prefix, last).code_point + 1;
  if (c == 0xD800) c = 0xE000;  // Past the surrogates, which UTF-8 cannot hold.
  std::string out(prefix.substr(0, last));
  text::AppendUtf8(c, &out);
  return out;
}

// The columns IndexRows reads of `k`, for the records `where` picks.
std::string RowSql(const SearchedKind& k, std::string_view where) {
  std::string sql = "SELECT t.id, t.space_id, t.deleted, t.updated_at, t." + std::string(k.title) +
                    SearchedTextColumns(k);
  if (k.kind == "project") sql += ", t.deliverables";
  return sql + SearchedFrom(k) + " WHERE " + std::string(where);
}

// The words (bits by their place in the query) a record holds, those of them
// in its title, and when it changed.
struct HeldWords {
  uint32_t words = 0;
  uint32_t in_title = 0;
  int64_t updated_at = 0;
};

// HeldWords by record id, for the thousands of rows a common word has: open
// addressing over one buffer of ids, so a row costs no allocation of its own.
class HeldById {
 public:
  HeldById() : slots_(kFirstSlots) {}

  // The entry of `id`, added empty the first time.
  HeldWords& Of(std::string_view id) {
    if (2 * (size_ + 1) > slots_.size()) Grow();
    Slot& slot = Find(slots_, ids_, id, std::hash<std::string_view>()(id));
    if (slot.size == kEmpty) {
      slot.begin = ids_.size();
      slot.size = id.size();
      ids_.append(id);
      ++size_;
    }
    return slot.held;
  }

  std::size_t size() const { return size_; }

  // Calls fn(id, held) for each entry, in no order.
  template <typename Fn>
  void ForEach(Fn&& fn) const {
    for (const Slot& slot : slots_) {
      if (slot.size != kEmpty) fn(std::string_view(ids_).substr(slot.begin, slot.size), slot.held);
    }
  }

 private:
  static constexpr std::size_t kFirstSlots = 1024;  // A power of two.
  static constexpr std::size_t kEmpty = static_cast<std::size_t>(-1);
  struct Slot {
    std::size_t begin = 0;
    std::size_t size = kEmpty;
    std::size_t hash = 0;
    HeldWords held;
  };

  static Slot& Find(std::vector<Slot>& slots, const std::string& ids, std::string_view id,
                    std::size_t hash) {
    for (std::size_t at = hash & (slots.size() - 1);; at = (at + 1) & (slots.size() - 1)) {
      Slot& slot = slots[at];
      if (slot.size == kEmpty) {
        slot.hash = hash;
        return slot;
      }
      if (slot.hash == hash && std::string_view(ids).substr(slot.begin, slot.size) == id)
        return slot;
    }
  }

  void Grow() {
    std::vector<Slot> bigger(2 * slots_.size());
    for (const Slot& slot : slots_) {
      if (slot.size == kEmpty) continue;
      std::size_t at = slot.hash & (bigger.size() - 1);
      while (bigger[at].size != kEmpty) at = (at + 1) & (bigger.size() - 1);
      bigger[at] = slot;
    }
    slots_ = std::move(bigger);
  }

  std::vector<Slot> slots_;
  std::string ids_;  // Every id added, one after another.
  std::size_t size_ = 0;
};

// Token -> whether it is in the title.
using Terms = std::map<std::string, bool, std::less<>>;

void AddTerms(std::string_view text, bool title, Terms& terms) {
  for (const std::string& token : SearchTokens(text)) {
    auto [it, added] = terms.emplace(IndexedToken(token), title);
    if (!added && title) it->second = true;
  }
}

// "INSERT INTO <table> ... VALUES ($1,$2,$3,$4,$5,$6),($1,$2,$3,$4,$7,$8)..."
// for `count` rows: the record's four values once, then each token and its
// title flag.
const std::string& InsertSql(std::string_view table, std::size_t count) {
  static const auto* sqls = [] {
    auto* out = new std::map<std::pair<std::string_view, std::size_t>, std::string>();
    for (std::string_view into : {kMainTerms, kRecentTerms}) {
      for (std::size_t n : kInsertChunks) {
        std::string sql = "INSERT INTO " + std::string(into) +
                          " (space_id, kind, id, updated_at, token, in_title) VALUES ";
        for (std::size_t i = 0; i < n; ++i) {
          sql += (i ? ",($1,$2,$3,$4,$" : "($1,$2,$3,$4,$") + std::to_string(5 + 2 * i) + ",$" +
                 std::to_string(6 + 2 * i) + ")";
        }
        (*out)[{into, n}] = std::move(sql);
      }
    }
    return out;
  }();
  return sqls->at({table, count});
}

// Adds `terms` of record (kind, id) to `table`; counts them into `*rows`.
Status InsertTerms(store::Database& db, std::string_view table, const std::string& space_id,
                   std::string_view kind, const std::string& id, int64_t updated_at,
                   const Terms& terms, int64_t* rows) {
  auto next = terms.begin();
  std::size_t left = terms.size();
  std::vector<Value> params;
  while (left > 0) {
    const std::size_t chunk = *std::find_if(std::begin(kInsertChunks), std::end(kInsertChunks),
                                            [&](std::size_t n) { return n <= left; });
    params = {Value(space_id), Value(std::string(kind)), Value(id), Value(updated_at)};
    for (std::size_t i = 0; i < chunk; ++i, ++next) {
      params.push_back(Value(next->first));
      params.push_back(Value(int64_t{next->second}));
    }
    ENSEMBLE_RETURN_IF_ERROR(db.Exec(InsertSql(table, chunk), params));
    left -= chunk;
  }
  *rows += static_cast<int64_t>(terms.size());
  return Status::Ok();
}

// Indexes into `table` every row of `rows` (RowSql's columns for `k`) that
// is live; counts the terms into `*written`.
Status IndexRows(store::Database& db, std::string_view table, const SearchedKind& k,
                 const store::Rows& rows, int64_t* written) {
  for (const std::vector<Value>& row : rows.rows) {
    if (store::AsInt(row[2]) != 0) continue;  // In Trash: not searched.
    const std::string id = store::AsText(row[0]);
    const std::string space_id = store::AsText(row[1]);
    const int64_t updated_at = store::AsInt(row[3]);
    Terms terms;
    AddTerms(store::AsText(row[4]), true, terms);
    for (std::size_t t = 0; t < k.texts.size(); ++t)
      AddTerms(store::AsText(row[5 + t]), false, terms);
    ENSEMBLE_RETURN_IF_ERROR(
        InsertTerms(db, table, space_id, k.kind, id, updated_at, terms, written));
    if (k.kind != "project") continue;
    const nlohmann::json deliverables =
        nlohmann::json::parse(store::AsText(row[5 + k.texts.size()]), nullptr, false);
    if (!deliverables.is_array()) continue;
    Terms titles;
    for (const nlohmann::json& d : deliverables) {
      if (d.is_object()) AddTerms(d.value("title", std::string()), true, titles);
    }
    ENSEMBLE_RETURN_IF_ERROR(
        InsertTerms(db, table, space_id, kDeliverableTerms, id, updated_at, titles, written));
  }
  return Status::Ok();
}

const SearchedKind* FindSearchedKind(std::string_view kind) {
  for (const SearchedKind& k : SearchedKinds()) {
    if (k.kind == kind) return &k;
  }
  return nullptr;
}

}  // namespace

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
  int64_t written = 0;
  for (const SearchedKind& k : SearchedKinds()) {
    ENSEMBLE_ASSIGN_OR_RETURN(store::Rows rows, db.Query(RowSql(k, "t.deleted = 0")));
    ENSEMBLE_RETURN_IF_ERROR(IndexRows(db, kMainTerms, k, rows, &written));
  }
  return Status::Ok();
}

}  // namespace

// search_terms is new, so empty: every record goes straight into it.
const store::Migration kCreateSearchIndex = {36, "search index", IndexSql().first,
                                             IndexSql().second, IndexEveryRecord};

const store::Migration kCreateRecentSearchTerms = {38, "recent search terms", RecentSql().first,
                                                   RecentSql().second};

Status IndexRecord(store::Database& db, std::string_view kind, const std::string& id) {
  if (kind == "page") {
    ENSEMBLE_ASSIGN_OR_RETURN(store::Rows tasks,
                              db.Query("SELECT id FROM tasks WHERE page = $1", {Value(id)}));
    for (const std::vector<Value>& task : tasks.rows) {
      ENSEMBLE_RETURN_IF_ERROR(IndexRecord(db, "task", store::AsText(task[0])));
    }
  }
  const SearchedKind* k = FindSearchedKind(kind);
  if (k == nullptr) return Status::Ok();
  // A record's rows are all in one table or the other: both lose them here.
  for (std::string_view table : {kMainTerms, kRecentTerms}) {
    ENSEMBLE_RETURN_IF_ERROR(
        db.Exec("DELETE FROM " + std::string(table) + " WHERE id = $1 AND (kind = $2 OR kind = $3)",
                {Value(id), Value(std::string(kind)),
                 Value(std::string(kind == "project" ? kDeliverableTerms : kind))}));
  }
  static const auto* by_id = [] {
    auto* out = new std::map<std::string_view, std::string>();
    for (const SearchedKind& searched : SearchedKinds())
      (*out)[searched.kind] = RowSql(searched, "t.id = $1");
    return out;
  }();
  ENSEMBLE_ASSIGN_OR_RETURN(store::Rows rows, db.Query(by_id->at(k->kind), {Value(id)}));
  int64_t written = 0;
  ENSEMBLE_RETURN_IF_ERROR(IndexRows(db, kRecentTerms, *k, rows, &written));
  if (written == 0) return Status::Ok();
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows size,
      db.Query("UPDATE search_recent_size SET written = written + $1 RETURNING written",
               {Value(written)}));
  if (size.empty() || store::AsInt(size.rows[0][0]) <= kMaxRecentTerms) return Status::Ok();
  return MergeRecentTerms(db);
}

Status MergeRecentTerms(store::Database& db) {
  // In the key's order, so each page of search_terms is changed once.
  ENSEMBLE_RETURN_IF_ERROR(
      db.Exec("INSERT INTO search_terms (space_id, kind, token, id, in_title, updated_at)"
              " SELECT space_id, kind, token, id, in_title, updated_at FROM search_recent"
              " ORDER BY space_id, kind, token, id"));
  ENSEMBLE_RETURN_IF_ERROR(db.Exec("DELETE FROM search_recent"));
  return db.Exec("UPDATE search_recent_size SET written = 0");
}

Status ClearSearchIndex(store::Database& db) {
  ENSEMBLE_RETURN_IF_ERROR(db.Exec("DELETE FROM search_terms"));
  ENSEMBLE_RETURN_IF_ERROR(db.Exec("DELETE FROM search_recent"));
  return db.Exec("UPDATE search_recent_size SET written = 0");
}

Status RebuildSearchIndex(store::Database& db) {
  ENSEMBLE_RETURN_IF_ERROR(ClearSearchIndex(db));
  return IndexEveryRecord(db);
}

Result<IndexCandidates> FindCandidates(store::Database& db, const std::string& space_id,
                                       std::string_view kind, const SearchQuery& query) {
  IndexCandidates out;
  if (query.words.empty()) return out;
  std::vector<Value> params = {Value(space_id), Value(std::string(kind))};
  // The condition a token of a word puts on a row: a prefix range for the
  // word's last token (or one the index holds cut), the token itself before.
  auto holds = [&](const std::string& whole, bool last) {
    const std::string_view token = IndexedToken(whole);
    params.push_back(Value(std::string(token)));
    const std::string lower = "$" + std::to_string(params.size());
    if (!last && token.size() == whole.size()) return "token = " + lower;
    params.push_back(Value(PrefixEnd(token)));
    return "token >= " + lower + " AND token < $" + std::to_string(params.size());
  };
  auto rows_of = [](std::string_view table, std::string_view columns, const std::string& holding) {
    return "SELECT " + std::string(columns) + " FROM " + std::string(table) +
           " WHERE space_id = $1 AND kind = $2 AND " + holding;
  };
  // Per word and table, an arm: the rows of the word's first token, of
  // records that hold its other tokens too (their order is the ranking's to
  // check). Arms of a UNION ALL, so each reads its own ranges of the key and
  // a token holding two words counts for both.
  std::string arms;
  for (std::size_t w = 0; w < query.words.size(); ++w) {
    const std::vector<std::string>& word = query.words[w];
    const std::string first = holds(word[0], word.size() == 1);
    std::string others;
    for (std::size_t t = 1; t < word.size(); ++t) {
      const std::string holding = holds(word[t], t + 1 == word.size());
      others += " AND id IN (" + rows_of(kMainTerms, "id", holding) + " UNION ALL " +
                rows_of(kRecentTerms, "id", holding) + ")";
    }
    const std::string columns = std::to_string(w) + " AS word, id, in_title, updated_at";
    for (std::string_view table : {kMainTerms, kRecentTerms}) {
      arms += (arms.empty() ? "" : " UNION ALL ") + rows_of(table, columns, first) + others;
    }
  }
  // What each record holds, summed here as the rows stream by: a GROUP BY in
  // SQL sorts every row first, which cost three times as much.
  static_assert(kMaxQueryWords <= 32, "a word is a bit of HeldWords::words");
  HeldById held;
  ENSEMBLE_RETURN_IF_ERROR(db.ForEachRow(arms, params, [&](const store::RowView& row) {
    HeldWords& h = held.Of(row.Text(1));
    const uint32_t bit = uint32_t{1} << row.Int(0);
    h.words |= bit;
    if (row.Int(2) == 1) h.in_title |= bit;
    h.updated_at = std::max(h.updated_at, row.Int(3));
    return Status::Ok();
  }));
  // Most words held, then most in the title (each is worth 3 points, more
  // than recency's 1), then the later changed, then by id (byte order).
  struct Held {
    int words;
    int in_title;
    int64_t updated_at;
    std::string_view id;
  };
  std::vector<Held> ranked;
  ranked.reserve(held.size());
  held.ForEach([&](std::string_view id, const HeldWords& h) {
    ranked.push_back({std::popcount(h.words), std::popcount(h.in_title), h.updated_at, id});
  });
  // One past the bound says whether there are more.
  const std::size_t kept = std::min(ranked.size(), kCandidatesPerKind + 1);
  std::partial_sort(ranked.begin(), ranked.begin() + kept, ranked.end(),
                    [](const Held& a, const Held& b) {
                      if (a.words != b.words) return a.words > b.words;
                      if (a.in_title != b.in_title) return a.in_title > b.in_title;
                      if (a.updated_at != b.updated_at) return a.updated_at > b.updated_at;
                      return a.id < b.id;
                    });
  out.more = ranked.size() > kCandidatesPerKind;
  for (std::size_t i = 0; i < kept && i < kCandidatesPerKind; ++i)
    out.ids.emplace_back(ranked[i].id);
  return out;
}

}  // namespace ensemble::core::context
