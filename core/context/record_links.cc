#include "core/context/record_links.h"

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include "core/refs/record_handle.h"

namespace ensemble::core::context {
namespace {

using nlohmann::json;
using store::Value;

constexpr std::string_view kLinksSql =
    "CREATE TABLE record_links (space_id TEXT NOT NULL, to_id TEXT NOT NULL, rel TEXT NOT NULL,"
    " from_id TEXT NOT NULL, from_kind TEXT NOT NULL, to_kind TEXT NOT NULL,"
    " PRIMARY KEY (space_id, to_id, rel, from_id)) WITHOUT ROWID;"
    "CREATE INDEX record_links_from ON record_links (from_id, rel);"
    "CREATE INDEX pages_project ON pages (project);"
    "CREATE INDEX pages_parent ON pages (parent);";
constexpr std::string_view kLinksPostgresSql =
    "CREATE TABLE record_links (space_id TEXT NOT NULL, to_id TEXT NOT NULL, rel TEXT NOT NULL,"
    " from_id TEXT NOT NULL, from_kind TEXT NOT NULL, to_kind TEXT NOT NULL,"
    " PRIMARY KEY (space_id, to_id, rel, from_id));"
    "CREATE INDEX record_links_from ON record_links (from_id, rel);"
    "CREATE INDEX pages_project ON pages (project);"
    "CREATE INDEX pages_parent ON pages (parent);";

// A kind that links: its table, its id lists (column, rel, the kind they
// name) and the texts whose handles are its mentions.
struct IdList {
  std::string_view column;
  std::string_view rel;
  std::string_view to_kind;
};
struct LinkingKind {
  std::string_view kind;
  std::string_view table;
  std::vector<IdList> lists;
  std::vector<std::string_view> texts;
  bool deliverables = false;
};

const std::vector<LinkingKind>& LinkingKinds() {
  static const std::vector<LinkingKind> kKinds = {
      {"task",
       "tasks",
       {{"people", kPeopleLink, "person"},
        {"depends_on", kDependsOnLink, "task"},
        {"blocks", kBlocksLink, "task"}},
       {"description"}},
      {"project", "projects", {{"people", kPeopleLink, "person"}}, {"description"}, true},
      {"page", "pages", {}, {"body"}},
      {"board", "boards", {}, {"description"}},
  };
  return kKinds;
}

// "SELECT id, space_id, deleted, <lists...>, <texts...>[, deliverables] FROM <table>".
std::string RowSql(const LinkingKind& k) {
  std::string sql = "SELECT id, space_id, deleted";
  for (const IdList& list : k.lists) sql += ", " + std::string(list.column);
  for (std::string_view text : k.texts) sql += ", " + std::string(text);
  if (k.deliverables) sql += ", deliverables";
  return sql + " FROM " + std::string(k.table);
}

struct Link {
  std::string to_id;
  std::string_view rel;
  std::string to_kind;
  bool operator<(const Link& o) const { return std::tie(to_id, rel) < std::tie(o.to_id, o.rel); }
};

// The ids of a JSON array column's strings.
void AddIds(const std::string& column, const IdList& list, std::set<Link>& links) {
  if (column.empty() || column == "[]") return;  // Most lists: no parse.
  const json ids = json::parse(column, nullptr, false);
  if (!ids.is_array()) return;
  for (const json& id : ids) {
    if (id.is_string()) links.insert({id.get<std::string>(), list.rel, std::string(list.to_kind)});
  }
}

Status InsertLinks(store::Database& db, const LinkingKind& k, const std::vector<Value>& row) {
  if (store::AsInt(row[2]) != 0) return Status::Ok();  // In Trash: links nothing.
  std::set<Link> links;
  std::size_t at = 3;
  for (const IdList& list : k.lists) AddIds(store::AsText(row[at++]), list, links);
  std::size_t mentions = 0;
  for (std::size_t t = 0; t < k.texts.size(); ++t) {
    for (refs::RecordHandle& h :
         refs::FindRecordLinks(store::AsText(row[at++]), kMaxMentionLinks - mentions)) {
      mentions += links.insert({std::move(h.id), kMentionsLink, std::move(h.kind)}).second;
    }
  }
  if (k.deliverables) {
    const json deliverables = json::parse(store::AsText(row[at]), nullptr, false);
    for (const json& d : deliverables.is_array() ? deliverables : json::array()) {
      if (d.is_object() && d.contains("id") && d["id"].is_string())
        links.insert({d["id"].get<std::string>(), kDeliverableLink, "deliverable"});
    }
  }
  const std::string id = store::AsText(row[0]);
  const std::string space_id = store::AsText(row[1]);
  for (const Link& link : links) {
    if (link.to_id == id) continue;  // A record is not its own neighbour.
    ENSEMBLE_RETURN_IF_ERROR(
        db.Exec("INSERT INTO record_links (space_id, to_id, rel, from_id, from_kind, to_kind)"
                " VALUES ($1, $2, $3, $4, $5, $6)",
                {Value(space_id), Value(link.to_id), Value(std::string(link.rel)), Value(id),
                 Value(std::string(k.kind)), Value(link.to_kind)}));
  }
  return Status::Ok();
}

}  // namespace

const store::Migration kCreateRecordLinks = {37, "record links", kLinksSql, kLinksPostgresSql,
                                             RebuildRecordLinks};

Status LinkRecords(store::Database& db,
                   std::span<const std::pair<std::string, std::string>> records) {
  static const auto* sqls = [] {
    // Per kind and chunk size: the statement clearing the records' links,
    // and the one reading them.
    auto* out =
        new std::map<std::pair<std::size_t, std::size_t>, std::pair<std::string, std::string>>();
    for (std::size_t k = 0; k < LinkingKinds().size(); ++k) {
      for (std::size_t n : store::kBulkChunks) {
        const std::string in = " IN (" + store::Placeholders(1, n) + ")";
        (*out)[{k, n}] = {"DELETE FROM record_links WHERE from_id" + in,
                          RowSql(LinkingKinds()[k]) + " WHERE id" + in};
      }
    }
    return out;
  }();
  for (std::size_t k = 0; k < LinkingKinds().size(); ++k) {
    std::vector<Value> ids;
    for (const auto& [kind, id] : records) {
      if (kind == LinkingKinds()[k].kind) ids.emplace_back(id);
    }
    std::vector<Value> params;
    for (std::size_t done = 0; done < ids.size();) {
      const std::size_t chunk = store::BulkChunk(ids.size() - done);
      params.assign(ids.begin() + done, ids.begin() + done + chunk);
      done += chunk;
      const auto& [clear, read] = sqls->at({k, chunk});
      ENSEMBLE_RETURN_IF_ERROR(db.Exec(clear, params));
      ENSEMBLE_ASSIGN_OR_RETURN(store::Rows rows, db.Query(read, params));
      for (const std::vector<Value>& row : rows.rows)
        ENSEMBLE_RETURN_IF_ERROR(InsertLinks(db, LinkingKinds()[k], row));
    }
  }
  return Status::Ok();
}

Status ClearRecordLinks(store::Database& db) { return db.Exec("DELETE FROM record_links"); }

Status RebuildRecordLinks(store::Database& db) {
  ENSEMBLE_RETURN_IF_ERROR(ClearRecordLinks(db));
  for (const LinkingKind& k : LinkingKinds()) {
    ENSEMBLE_ASSIGN_OR_RETURN(store::Rows rows, db.Query(RowSql(k) + " WHERE deleted = 0"));
    for (const std::vector<Value>& row : rows.rows)
      ENSEMBLE_RETURN_IF_ERROR(InsertLinks(db, k, row));
  }
  return Status::Ok();
}

}  // namespace ensemble::core::context
