#include "core/context/neighbors.h"

#include <algorithm>
#include <charconv>
#include <set>
#include <utility>

#include "core/base/id.h"
#include "core/context/record_links.h"
#include "core/context/search_rank.h"
#include "core/refs/record_handle.h"
#include "core/text/trim.h"
#include "core/text/utf8.h"
#include "core/tools/record_rows.h"

namespace ensemble::core::context {
namespace {

using nlohmann::json;
using store::Value;
using tools::ToolContext;
using tools::record_rows::Noun;

const Noun kBoard = {"board", "board", "boards", "title"};

// The record whose neighbours are read: its stored fields as ReadRecord
// gives them (a deliverable: {id, title, due, done, project}).
struct Subject {
  std::string kind;
  std::string id;
  json row;
};

struct Window {
  std::size_t limit;
  std::size_t offset;
};

// One relation's page before its offset is added: {items, total, open?}.
using Reader = Result<json> (*)(ToolContext& ctx, const Subject& s, const Window& w);

std::string Text(const json& row, const char* field) {
  const auto it = row.find(field);
  return it != row.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// --- Shapes of a row into an item -----------------------------------------

using Shape = json (*)(const std::vector<Value>& row);

json TaskItem(const std::vector<Value>& r) {
  json t = {{"kind", "task"},
            {"id", store::AsText(r[0])},
            {"title", store::AsText(r[1])},
            {"status", store::AsText(r[2])}};
  if (!store::IsNull(r[3])) t["due"] = store::AsText(r[3]);
  return t;
}

json PersonItem(const std::vector<Value>& r) {
  json p = {{"kind", "person"}, {"id", store::AsText(r[0])}, {"title", store::AsText(r[1])}};
  if (!store::IsNull(r[2]) && !store::AsText(r[2]).empty()) p["role"] = store::AsText(r[2]);
  if (!store::IsNull(r[3]) && !store::AsText(r[3]).empty()) p["relationship"] = store::AsText(r[3]);
  return p;
}

json ProjectItem(const std::vector<Value>& r) {
  return {{"kind", "project"},
          {"id", store::AsText(r[0])},
          {"title", store::AsText(r[1])},
          {"status", store::AsText(r[2])}};
}

json PageItem(const std::vector<Value>& r) {
  return {{"kind", "page"}, {"id", store::AsText(r[0])}, {"title", store::AsText(r[1])}};
}

json CommentItem(const std::vector<Value>& r) {
  return {{"kind", "comment"},
          {"id", store::AsText(r[0])},
          {"body", text::TruncateChars(store::AsText(r[1]), kCommentItemChars)},
          {"resolved", store::AsInt(r[2]) != 0}};
}

// A deliverable of a project's stored list, as an item.
json DeliverableItem(const json& d, const std::string& project) {
  json item = {{"kind", "deliverable"},
               {"id", d.value("id", std::string())},
               {"title", d.value("title", std::string())},
               {"done", d.value("done", false)},
               {"project", project}};
  if (d.contains("due") && d["due"].is_string()) item["due"] = d["due"];
  return item;
}

// A row of MixedSql: (id, kind, title, a deliverable's project's list,
// that project's id), as an item.
json MixedItem(const std::vector<Value>& r) {
  const std::string id = store::AsText(r[0]);
  const std::string kind = store::AsText(r[1]);
  if (kind != "deliverable") return {{"kind", kind}, {"id", id}, {"title", store::AsText(r[2])}};
  const json list = json::parse(store::AsText(r[3]), nullptr, false);
  for (const json& d : list.is_array() ? list : json::array()) {
    if (d.is_object() && d.value("id", std::string()) == id)
      return DeliverableItem(d, store::AsText(r[4]));
  }
  return {{"kind", kind}, {"id", id}, {"title", ""}};
}

// --- Reading a page ---------------------------------------------------------

// The page `w` of `sql`'s rows (its last column COUNT(*) OVER (), the
// number before the page), each shaped.
Result<json> Paged(ToolContext& ctx, const std::string& sql, std::vector<Value> params,
                   const Window& w, Shape shape) {
  ENSEMBLE_ASSIGN_OR_RETURN(store::Rows rows,
                            ctx.db->Query(sql + " LIMIT " + std::to_string(w.limit) + " OFFSET " +
                                              std::to_string(w.offset),
                                          params));
  std::size_t total = 0;
  if (!rows.rows.empty()) {
    total = static_cast<std::size_t>(store::AsInt(rows.rows[0].back()));
  } else if (w.offset > 0) {
    ENSEMBLE_ASSIGN_OR_RETURN(
        store::Rows count, ctx.db->Query("SELECT COUNT(*) FROM (" + sql + ") AS counted", params));
    total = static_cast<std::size_t>(store::AsInt(count.rows[0][0]));
  }
  json items = json::array();
  for (const std::vector<Value>& row : rows.rows) items.push_back(shape(row));
  return json{{"items", std::move(items)}, {"total", total}};
}

// The page `w` of `all`.
json PageOf(std::vector<json> all, const Window& w) {
  json items = json::array();
  for (std::size_t i = w.offset; i < all.size() && i < w.offset + w.limit; ++i)
    items.push_back(std::move(all[i]));
  return {{"items", std::move(items)}, {"total", all.size()}};
}

// $1 is the space, $2 the subject's id; $3 what `more` gives.
std::vector<Value> Params(const ToolContext& ctx, const Subject& s,
                          std::optional<std::string> more = std::nullopt) {
  std::vector<Value> params = {Value(ctx.space_id), Value(s.id)};
  if (more) params.push_back(Value(*more));
  return params;
}

constexpr std::string_view kTaskColumns =
    "SELECT t.id, t.title, t.status, t.due, COUNT(*) OVER () FROM tasks t";
constexpr std::string_view kLive = " t.space_id = $1 AND t.deleted = 0";
constexpr std::string_view kOpenFirst =
    " ORDER BY CASE WHEN t.status = 'done' THEN 1 ELSE 0 END, t.updated_at DESC, t.id";
constexpr std::string_view kDueFirst =
    " ORDER BY CASE WHEN t.due IS NULL THEN 1 ELSE 0 END, t.due, t.updated_at DESC, t.id";
constexpr std::string_view kLatestFirst = " ORDER BY t.updated_at DESC, t.id";

std::string S(std::initializer_list<std::string_view> parts) {
  std::string out;
  for (std::string_view p : parts) out += p;
  return out;
}

// One record of `table` by the id a field of the subject holds ($2).
Result<json> ById(ToolContext& ctx, const Subject& s, const Window& w, const char* field,
                  std::string_view columns, std::string_view table, Shape shape) {
  const std::string id = Text(s.row, field);
  if (id.empty()) return json{{"items", json::array()}, {"total", 0}};
  return Paged(ctx,
               S({"SELECT ", columns, ", COUNT(*) OVER () FROM ", table,
                  " WHERE id = $2 AND space_id = $1 AND deleted = 0"}),
               {Value(ctx.space_id), Value(id)}, w, shape);
}

// --- Relations --------------------------------------------------------------

Result<json> ProjectOf(ToolContext& ctx, const Subject& s, const Window& w) {
  return ById(ctx, s, w, "project", "id, title, status", "projects", ProjectItem);
}

Result<json> PageOfTask(ToolContext& ctx, const Subject& s, const Window& w) {
  return ById(ctx, s, w, "page", "id, title", "pages", PageItem);
}

Result<json> ParentPage(ToolContext& ctx, const Subject& s, const Window& w) {
  return ById(ctx, s, w, "parent", "id, title", "pages", PageItem);
}

// The people a task or a project lists.
Result<json> PeopleListed(ToolContext& ctx, const Subject& s, const Window& w) {
  static const std::string sql =
      "SELECT p.id, p.name, p.role, p.relationship, COUNT(*) OVER () FROM record_links l"
      " JOIN people p ON p.id = l.to_id AND p.space_id = l.space_id AND p.deleted = 0"
      " WHERE l.from_id = $2 AND l.rel = 'people' AND l.space_id = $1 ORDER BY p.id";
  return Paged(ctx, sql, Params(ctx, s), w, PersonItem);
}

// Tasks linked by `rel` from the subject, or naming it by `reverse`.
Result<json> TaskLinks(ToolContext& ctx, const Subject& s, const Window& w, std::string_view rel,
                       std::string_view reverse) {
  return Paged(
      ctx,
      S({kTaskColumns, " WHERE", kLive,
         " AND t.id IN (SELECT to_id FROM record_links WHERE from_id = $2 AND rel = '", rel,
         "' UNION SELECT from_id FROM record_links WHERE space_id = $1"
         " AND to_id = $2 AND rel = '",
         reverse, "')", kOpenFirst}),
      Params(ctx, s), w, TaskItem);
}

Result<json> DependsOn(ToolContext& ctx, const Subject& s, const Window& w) {
  return TaskLinks(ctx, s, w, kDependsOnLink, kBlocksLink);
}

Result<json> Blocks(ToolContext& ctx, const Subject& s, const Window& w) {
  return TaskLinks(ctx, s, w, kBlocksLink, kDependsOnLink);
}

std::set<std::string> StringsOf(const json& list) {
  std::set<std::string> out;
  for (const json& v : list.is_array() ? list : json::array()) {
    if (v.is_string()) out.insert(v.get<std::string>());
  }
  return out;
}

template <typename T>
int64_t Shared(const std::set<T>& a, const std::set<T>& b) {
  int64_t n = 0;
  for (const T& v : a) n += b.count(v);
  return n;
}

struct Scored {
  int64_t score;
  int64_t updated_at;
  json item;
};

json PageOfScored(std::vector<Scored> scored, const Window& w) {
  std::sort(scored.begin(), scored.end(), [](const Scored& a, const Scored& b) {
    if (a.score != b.score) return a.score > b.score;
    if (a.updated_at != b.updated_at) return a.updated_at > b.updated_at;
    return a.item["id"] < b.item["id"];
  });
  std::vector<json> items;
  for (Scored& s : scored) {
    s.item["score"] = s.score;
    items.push_back(std::move(s.item));
  }
  return PageOf(std::move(items), w);
}

// Open tasks of the task's project or people, scored by what they share.
Result<json> Related(ToolContext& ctx, const Subject& s, const Window& w) {
  static const std::string sql =
      S({"SELECT t.id, t.title, t.status, t.due, t.labels, t.people, t.project, t.updated_at"
         " FROM tasks t WHERE",
         kLive,
         " AND t.status <> 'done' AND t.id <> $2 AND t.id IN ("
         "SELECT id FROM (SELECT id FROM tasks WHERE project = $3 AND space_id = $1"
         " AND deleted = 0 AND status <> 'done' AND id <> $2 ORDER BY updated_at DESC, id LIMIT ",
         std::to_string(kRelatedCandidates),
         // A task sharing several people is one candidate, not one per person.
         ") AS same_project UNION SELECT id FROM (SELECT l.from_id AS id FROM record_links l"
         " JOIN tasks x ON x.id = l.from_id AND x.deleted = 0 AND x.status <> 'done'"
         " WHERE l.space_id = $1 AND l.rel = 'people' AND l.from_kind = 'task'"
         " AND l.from_id <> $2 AND l.to_id IN"
         " (SELECT to_id FROM record_links WHERE from_id = $2 AND rel = 'people')"
         " GROUP BY l.from_id ORDER BY MAX(x.updated_at) DESC, l.from_id LIMIT ",
         std::to_string(kRelatedCandidates), ") AS same_people)"});
  const std::string project = Text(s.row, "project");
  ENSEMBLE_ASSIGN_OR_RETURN(store::Rows rows, ctx.db->Query(sql, Params(ctx, s, project)));
  const std::set<std::string> people = StringsOf(s.row["people"]);
  const std::set<std::string> labels = StringsOf(s.row["labels"]);
  const std::set<std::string> words = ContentTokens(Text(s.row, "title"));
  std::vector<Scored> scored;
  for (const std::vector<Value>& r : rows.rows) {
    const json their_labels = json::parse(store::AsText(r[4]), nullptr, false);
    const json their_people = json::parse(store::AsText(r[5]), nullptr, false);
    const int64_t score =
        kRelatedPersonPoints * Shared(people, StringsOf(their_people)) +
        kRelatedLabelPoints * Shared(labels, StringsOf(their_labels)) +
        kRelatedWordPoints * Shared(words, ContentTokens(store::AsText(r[1]))) +
        (!project.empty() && !store::IsNull(r[6]) && store::AsText(r[6]) == project
             ? kRelatedProjectPoints
             : 0);
    scored.push_back({score, store::AsInt(r[7]), TaskItem(r)});
  }
  return PageOfScored(std::move(scored), w);
}

// Finished tasks of the task's project whose titles share a word with its.
Result<json> DoneBefore(ToolContext& ctx, const Subject& s, const Window& w) {
  static const std::string sql =
      S({"SELECT t.id, t.title, t.status, t.due, t.updated_at FROM tasks t"
         " WHERE t.project = $3 AND",
         kLive, " AND t.status = 'done' AND t.id <> $2", kLatestFirst, " LIMIT ",
         std::to_string(kDoneBeforeCandidates)});
  const std::string project = Text(s.row, "project");
  std::vector<Scored> scored;
  if (!project.empty()) {
    ENSEMBLE_ASSIGN_OR_RETURN(store::Rows rows, ctx.db->Query(sql, Params(ctx, s, project)));
    const std::set<std::string> words = ContentTokens(Text(s.row, "title"));
    for (const std::vector<Value>& r : rows.rows) {
      const int64_t shared = Shared(words, ContentTokens(store::AsText(r[1])));
      if (shared > 0)
        scored.push_back({shared * kRelatedWordPoints, store::AsInt(r[4]), TaskItem(r)});
    }
  }
  return PageOfScored(std::move(scored), w);
}

// The boards showing a task, with the title of its column there.
Result<json> BoardsShowing(ToolContext& ctx, const Subject& s, const Window& w) {
  static const std::string sql =
      "SELECT b.id, b.title, b.columns, c.\"column\", COUNT(*) OVER () FROM board_cards c"
      " JOIN boards b ON b.id = c.board AND b.space_id = c.space_id AND b.deleted = 0"
      " WHERE c.task = $2 AND c.space_id = $1 AND c.deleted = 0 ORDER BY c.created_at, c.id";
  return Paged(ctx, sql, Params(ctx, s), w, [](const std::vector<Value>& r) {
    const std::string column = store::AsText(r[3]);
    std::string title = column;
    const json columns = json::parse(store::AsText(r[2]), nullptr, false);
    for (const json& c : columns.is_array() ? columns : json::array()) {
      if (c.is_object() && c.value("id", std::string()) == column) title = c.value("title", column);
    }
    return json{{"kind", "board"},
                {"id", store::AsText(r[0])},
                {"title", store::AsText(r[1])},
                {"column", title}};
  });
}

// Records of any kind, live in the space, whose id is `x`: the query's
// select list and joins, for MixedItem.
std::string MixedSql(std::string_view x, bool deliverables) {
  std::string sql =
      "SELECT " + std::string(x) +
      ", CASE WHEN t.id IS NOT NULL THEN 'task' WHEN p.id IS NOT NULL THEN 'project'"
      " WHEN g.id IS NOT NULL THEN 'page' WHEN n.id IS NOT NULL THEN 'person'"
      " WHEN b.id IS NOT NULL THEN 'board' ELSE 'deliverable' END,"
      " COALESCE(t.title, p.title, g.title, n.name, b.title, ''), " +
      (deliverables ? std::string("dp.deliverables, dp.id") : std::string("NULL, NULL")) +
      ", COUNT(*) OVER () FROM record_links l";
  for (auto [alias, table] : {std::pair{"t", "tasks"},
                              {"p", "projects"},
                              {"g", "pages"},
                              {"n", "people"},
                              {"b", "boards"}}) {
    sql += S({" LEFT JOIN ", table, " ", alias, " ON ", alias, ".id = ", x, " AND ", alias,
              ".space_id = $1 AND ", alias, ".deleted = 0"});
  }
  if (deliverables) {
    // The live project listing the deliverable; of two listing one id, the
    // first by id, so a mention is one row on either store.
    sql +=
        S({" LEFT JOIN projects dp ON dp.id = (SELECT MIN(dl.from_id) FROM record_links dl"
           " JOIN projects q ON q.id = dl.from_id AND q.space_id = dl.space_id"
           " AND q.deleted = 0 WHERE dl.space_id = $1 AND dl.to_id = ",
           x, " AND dl.rel = 'deliverable')"});
  }
  return sql;
}

constexpr std::string_view kAnyLive =
    " AND (t.id IS NOT NULL OR p.id IS NOT NULL OR g.id IS NOT NULL OR n.id IS NOT NULL"
    " OR b.id IS NOT NULL";

// The records the subject's text links to.
Result<json> Mentions(ToolContext& ctx, const Subject& s, const Window& w) {
  static const std::string sql =
      S({MixedSql("l.to_id", true),
         " WHERE l.from_id = $2 AND l.rel = 'mentions' AND l.space_id = $1", kAnyLive,
         " OR dp.id IS NOT NULL) ORDER BY l.to_id"});
  return Paged(ctx, sql, Params(ctx, s), w, MixedItem);
}

// The records whose text links to the subject.
Result<json> MentionedIn(ToolContext& ctx, const Subject& s, const Window& w) {
  static const std::string sql =
      S({MixedSql("l.from_id", false),
         " WHERE l.space_id = $1 AND l.to_id = $2 AND l.rel = 'mentions'", kAnyLive,
         ") ORDER BY l.from_id DESC"});
  return Paged(ctx, sql, Params(ctx, s), w, MixedItem);
}

// Comments on the subject, open ones first, newest first; `open` counts them.
Result<json> Comments(ToolContext& ctx, const Subject& s, const Window& w) {
  static const std::string sql =
      "SELECT id, body, resolved, COUNT(CASE WHEN resolved = 0 THEN 1 END) OVER (),"
      " COUNT(*) OVER () FROM comments WHERE space_id = $1 AND target = $2 AND deleted = 0"
      " ORDER BY resolved, created_at DESC, id DESC";
  ENSEMBLE_ASSIGN_OR_RETURN(store::Rows rows,
                            ctx.db->Query(sql + " LIMIT " + std::to_string(w.limit) + " OFFSET " +
                                              std::to_string(w.offset),
                                          Params(ctx, s)));
  if (rows.rows.empty()) {
    // Past the end (or none): count what there is.
    ENSEMBLE_ASSIGN_OR_RETURN(
        rows, ctx.db->Query("SELECT '', '', 0, COUNT(CASE WHEN resolved = 0 THEN 1 END),"
                            " COUNT(*) FROM comments WHERE space_id = $1 AND target = $2"
                            " AND deleted = 0",
                            Params(ctx, s)));
    return json{{"items", json::array()},
                {"total", store::AsInt(rows.rows[0][4])},
                {"open", store::AsInt(rows.rows[0][3])}};
  }
  json items = json::array();
  for (const std::vector<Value>& row : rows.rows) items.push_back(CommentItem(row));
  return json{{"items", std::move(items)},
              {"total", store::AsInt(rows.rows[0][4])},
              {"open", store::AsInt(rows.rows[0][3])}};
}

Result<json> ProjectTasks(ToolContext& ctx, const Subject& s, const Window& w, bool open) {
  static const std::string open_sql =
      S({kTaskColumns, " WHERE t.project = $2 AND", kLive, " AND t.status <> 'done'", kDueFirst});
  static const std::string done_sql =
      S({kTaskColumns, " WHERE t.project = $2 AND", kLive, " AND t.status = 'done'", kLatestFirst});
  return Paged(ctx, open ? open_sql : done_sql, Params(ctx, s), w, TaskItem);
}

Result<json> OpenProjectTasks(ToolContext& ctx, const Subject& s, const Window& w) {
  return ProjectTasks(ctx, s, w, true);
}

Result<json> DoneProjectTasks(ToolContext& ctx, const Subject& s, const Window& w) {
  return ProjectTasks(ctx, s, w, false);
}

Result<json> Deliverables(ToolContext&, const Subject& s, const Window& w) {
  std::vector<json> all;
  for (const json& d : s.row.value("deliverables", json::array())) {
    if (d.is_object()) all.push_back(DeliverableItem(d, s.id));
  }
  return PageOf(std::move(all), w);
}

Result<json> ProjectPages(ToolContext& ctx, const Subject& s, const Window& w) {
  static const std::string sql =
      "SELECT id, title, COUNT(*) OVER () FROM pages WHERE project = $2 AND space_id = $1"
      " AND deleted = 0 ORDER BY created_at, id";
  return Paged(ctx, sql, Params(ctx, s), w, PageItem);
}

Result<json> Subpages(ToolContext& ctx, const Subject& s, const Window& w) {
  static const std::string sql =
      "SELECT id, title, COUNT(*) OVER () FROM pages WHERE parent = $2 AND space_id = $1"
      " AND deleted = 0 ORDER BY created_at, id";
  return Paged(ctx, sql, Params(ctx, s), w, PageItem);
}

Result<json> PageTasks(ToolContext& ctx, const Subject& s, const Window& w) {
  static const std::string sql = S({kTaskColumns, " WHERE t.page = $2 AND", kLive, kOpenFirst});
  return Paged(ctx, sql, Params(ctx, s), w, TaskItem);
}

Result<json> PersonProjects(ToolContext& ctx, const Subject& s, const Window& w) {
  static const std::string sql =
      "SELECT p.id, p.title, p.status, COUNT(*) OVER () FROM record_links l"
      " JOIN projects p ON p.id = l.from_id AND p.space_id = l.space_id AND p.deleted = 0"
      " WHERE l.space_id = $1 AND l.to_id = $2 AND l.rel = 'people' AND l.from_kind = 'project'"
      " ORDER BY CASE WHEN p.status = 'active' THEN 0 ELSE 1 END, p.updated_at DESC, p.id";
  return Paged(ctx, sql, Params(ctx, s), w, ProjectItem);
}

// The tasks listing the person, of one state.
Result<json> PersonTasks(ToolContext& ctx, const Subject& s, const Window& w,
                         std::string_view state) {
  constexpr std::string_view kTasksOfPerson =
      "SELECT t.id, t.title, t.status, t.due, COUNT(*) OVER () FROM record_links l"
      " JOIN tasks t ON t.id = l.from_id AND t.space_id = l.space_id AND t.deleted = 0"
      " WHERE l.space_id = $1 AND l.to_id = $2 AND l.rel = 'people' AND l.from_kind = 'task'";
  static const std::string open_sql = S({kTasksOfPerson, " AND t.status <> 'done'", kDueFirst});
  static const std::string waiting_sql = S({kTasksOfPerson,
                                            " AND t.status <> 'done' AND LOWER(t.labels) LIKE "
                                            "'%\"waiting-on\"%'",
                                            kDueFirst});
  static const std::string done_sql = S({kTasksOfPerson, " AND t.status = 'done'", kLatestFirst});
  const std::string& sql = state == "open" ? open_sql : state == "waiting" ? waiting_sql : done_sql;
  return Paged(ctx, sql, Params(ctx, s), w, TaskItem);
}

Result<json> PersonOpenTasks(ToolContext& ctx, const Subject& s, const Window& w) {
  return PersonTasks(ctx, s, w, "open");
}
Result<json> WaitingOn(ToolContext& ctx, const Subject& s, const Window& w) {
  return PersonTasks(ctx, s, w, "waiting");
}
Result<json> PersonDoneTasks(ToolContext& ctx, const Subject& s, const Window& w) {
  return PersonTasks(ctx, s, w, "done");
}

Result<json> BoardTasks(ToolContext& ctx, const Subject& s, const Window& w) {
  static const std::string sql =
      "SELECT t.id, t.title, t.status, t.due, COUNT(*) OVER () FROM board_cards c"
      " JOIN tasks t ON t.id = c.task AND t.space_id = c.space_id AND t.deleted = 0"
      " WHERE c.board = $2 AND c.space_id = $1 AND c.deleted = 0 ORDER BY c.position, c.id";
  return Paged(ctx, sql, Params(ctx, s), w, TaskItem);
}

// How a relation reads and reads out in a summary.
struct Relation {
  std::string_view kind;
  std::string_view rel;
  Reader read;
  std::string_view one;   // "task it depends on"; for a single link, "in project".
  std::string_view many;  // "tasks it depends on"; empty for a single link.
};

constexpr Relation kRelations[] = {
    {"task", "project", ProjectOf, "in project", ""},
    {"task", "page", PageOfTask, "with page", ""},
    {"task", "people", PeopleListed, "person", "people"},
    {"task", "depends_on", DependsOn, "task it depends on", "tasks it depends on"},
    {"task", "blocks", Blocks, "task it blocks", "tasks it blocks"},
    {"task", "related", Related, "related open task", "related open tasks"},
    {"task", "done_before", DoneBefore, "similar finished task", "similar finished tasks"},
    {"task", "boards", BoardsShowing, "board showing it", "boards showing it"},
    {"task", "mentions", Mentions, "record it mentions", "records it mentions"},
    {"task", "mentioned_in", MentionedIn, "record mentioning it", "records mentioning it"},
    {"task", "comments", Comments, "comment", "comments"},
    {"project", "open_tasks", OpenProjectTasks, "open task", "open tasks"},
    {"project", "deliverables", Deliverables, "deliverable", "deliverables"},
    {"project", "people", PeopleListed, "person", "people"},
    {"project", "done_tasks", DoneProjectTasks, "finished task", "finished tasks"},
    {"project", "pages", ProjectPages, "page", "pages"},
    {"project", "mentioned_in", MentionedIn, "record mentioning it", "records mentioning it"},
    {"project", "comments", Comments, "comment", "comments"},
    {"person", "projects", PersonProjects, "project", "projects"},
    {"person", "open_tasks", PersonOpenTasks, "open task", "open tasks"},
    {"person", "waiting_on", WaitingOn, "task waiting on them", "tasks waiting on them"},
    {"person", "done_tasks", PersonDoneTasks, "finished task", "finished tasks"},
    {"person", "mentioned_in", MentionedIn, "record mentioning them", "records mentioning them"},
    {"person", "comments", Comments, "comment", "comments"},
    {"page", "project", ProjectOf, "in project", ""},
    {"page", "parent", ParentPage, "under", ""},
    {"page", "subpages", Subpages, "page under it", "pages under it"},
    {"page", "tasks", PageTasks, "task", "tasks"},
    {"page", "mentions", Mentions, "record it mentions", "records it mentions"},
    {"page", "mentioned_in", MentionedIn, "record mentioning it", "records mentioning it"},
    {"page", "comments", Comments, "comment", "comments"},
    {"deliverable", "project", ProjectOf, "in project", ""},
    {"deliverable", "mentioned_in", MentionedIn, "record mentioning it", "records mentioning it"},
    {"board", "tasks", BoardTasks, "task", "tasks"},
    {"board", "mentions", Mentions, "record it mentions", "records it mentions"},
    {"board", "mentioned_in", MentionedIn, "record mentioning it", "records mentioning it"},
    {"board", "comments", Comments, "comment", "comments"},
};

const Noun* NounOf(std::string_view kind) {
  static const Noun* const kNouns[] = {&tools::record_rows::kTask, &tools::record_rows::kProject,
                                       &tools::record_rows::kPage, &tools::record_rows::kPerson,
                                       &kBoard};
  for (const Noun* n : kNouns) {
    if (n->singular == kind) return n;
  }
  return nullptr;
}

Status NotFound(std::string_view kind, const std::string& id) {
  return Status(codes::kNotFound, "no " + std::string(kind) + " with id " + id);
}

// The deliverable `id` of a live project of the space.
Result<Subject> FindDeliverable(ToolContext& ctx, const std::string& id) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      ctx.db->Query("SELECT p.id, p.deliverables FROM record_links l"
                    " JOIN projects p ON p.id = l.from_id AND p.space_id = l.space_id"
                    " AND p.deleted = 0 WHERE l.space_id = $1 AND l.to_id = $2"
                    " AND l.rel = 'deliverable' ORDER BY p.id",
                    {Value(ctx.space_id), Value(id)}));
  for (const std::vector<Value>& r : rows.rows) {
    const json list = json::parse(store::AsText(r[1]), nullptr, false);
    for (const json& d : list.is_array() ? list : json::array()) {
      if (!d.is_object() || d.value("id", std::string()) != id) continue;
      json row = d;
      row["project"] = store::AsText(r[0]);
      return Subject{"deliverable", id, std::move(row)};
    }
  }
  return NotFound("deliverable", id);
}

// The subject's {kind, id, title, summary?, facts}.
Result<json> RecordOf(ToolContext& ctx, const Subject& s) {
  const Noun* noun = NounOf(s.kind);
  json record = {
      {"kind", s.kind},
      {"id", s.id},
      {"title", noun ? tools::record_rows::TitleOf(*noun, s.row) : Text(s.row, "title")}};
  for (const char* field : {"description", "body"}) {
    const std::string text = Text(s.row, field);
    if (!text.empty()) record["summary"] = text::TruncateChars(text, kRecordSummaryChars);
  }
  json facts = json::object();
  for (const char* field :
       {"status", "due", "start", "priority", "email", "role", "team", "relationship"}) {
    const std::string value = Text(s.row, field);
    if (!value.empty() && !(std::string_view(field) == "priority" && value == "none"))
      facts[field] = value;
  }
  if (s.kind == "task" && s.row.contains("labels") && !s.row["labels"].empty())
    facts["labels"] = s.row["labels"];
  if (s.kind == "deliverable") facts["done"] = s.row.value("done", false);
  if (s.kind == "board") {
    ENSEMBLE_ASSIGN_OR_RETURN(
        store::Rows cards,
        ctx.db->Query("SELECT \"column\", COUNT(*) FROM board_cards WHERE board = $2"
                      " AND space_id = $1 AND deleted = 0 GROUP BY \"column\"",
                      {Value(ctx.space_id), Value(s.id)}));
    json columns = json::array();
    for (const json& c : s.row.value("columns", json::array())) {
      int64_t n = 0;
      for (const std::vector<Value>& r : cards.rows) {
        if (store::AsText(r[0]) == c.value("id", std::string())) n = store::AsInt(r[1]);
      }
      columns.push_back({{"id", c.value("id", std::string())},
                         {"title", c.value("title", std::string())},
                         {"cards", n}});
    }
    facts["columns"] = std::move(columns);
  }
  record["facts"] = std::move(facts);
  return record;
}

Result<std::size_t> ParseCount(std::string_view name, std::string_view value, std::size_t low,
                               std::size_t high) {
  std::size_t n = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (error != std::errc() || end != value.data() + value.size() || n < low || n > high) {
    return InvalidArgument(std::string(name) + ": a number from " + std::to_string(low) + " to " +
                           std::to_string(high));
  }
  return n;
}

}  // namespace

std::vector<std::string_view> RelationsOf(std::string_view kind) {
  std::vector<std::string_view> out;
  for (const Relation& r : kRelations) {
    if (r.kind == kind) out.push_back(r.rel);
  }
  return out;
}

std::vector<std::string_view> AllRelations() {
  std::vector<std::string_view> out;
  for (const Relation& r : kRelations) {
    if (std::find(out.begin(), out.end(), r.rel) == out.end()) out.push_back(r.rel);
  }
  return out;
}

Result<NeighborsRequest> ParseNeighborsRequest(std::string_view ref, std::string_view kind,
                                               std::string_view id, std::string_view rel,
                                               std::string_view limit, std::string_view offset) {
  NeighborsRequest request;
  if (!ref.empty()) {
    ENSEMBLE_ASSIGN_OR_RETURN(refs::RecordHandle handle, refs::ParseItemRef(ref));
    if ((!kind.empty() && kind != handle.kind) || (!id.empty() && id != handle.id))
      return InvalidArgument("ref and kind or id name different records: give one of them");
    request.kind = std::move(handle.kind);
    request.id = std::move(handle.id);
  } else {
    if (kind.empty() || id.empty())
      return InvalidArgument(
          "ref: give the record's handle (ensemble://<kind>/<id>), or kind and id");
    if (!IsValidId(id)) return InvalidArgument("id: not a record id");
    request.kind = std::string(kind);
    request.id = std::string(id);
  }
  request.rel = std::string(rel);
  if (!limit.empty()) {
    ENSEMBLE_ASSIGN_OR_RETURN(request.limit, ParseCount("limit", limit, 1, kMaxRelationItems));
  }
  if (!offset.empty()) {
    ENSEMBLE_ASSIGN_OR_RETURN(request.offset, ParseCount("offset", offset, 0, kMaxRelationOffset));
  }
  return request;
}

Result<json> ItemNeighbors(ToolContext& context, const NeighborsRequest& request) {
  // The route and the app come here without a tool call: the same checks.
  const tools::ToolCall as_call{"hub_item_context", json::object(), &context};
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, tools::ReadableContext(as_call));
  const std::vector<std::string_view> rels = RelationsOf(request.kind);
  if (rels.empty()) return InvalidArgument("no context is kept for a " + request.kind);
  if (!request.rel.empty() && std::find(rels.begin(), rels.end(), request.rel) == rels.end()) {
    std::string known;
    for (std::string_view r : rels) known += (known.empty() ? "" : ", ") + std::string(r);
    return InvalidArgument("a " + request.kind + " has no relation '" + request.rel +
                           "'; its relations: " + known);
  }
  if (request.rel.empty() && request.offset > 0)
    return InvalidArgument("offset pages one relation: give rel too");
  const Window window{std::clamp<std::size_t>(request.limit, 1, kMaxRelationItems),
                      std::min(request.offset, kMaxRelationOffset)};
  Subject subject;
  if (request.kind == "deliverable") {
    if (!IsValidId(request.id)) return NotFound("deliverable", request.id);
    ENSEMBLE_ASSIGN_OR_RETURN(subject, FindDeliverable(*ctx, request.id));
  } else {
    const Noun* noun = NounOf(request.kind);
    ENSEMBLE_ASSIGN_OR_RETURN(std::optional<json> row,
                              tools::record_rows::FindInSpace(*ctx, *noun, request.id));
    if (!row || row->value("deleted", int64_t{0}) != 0) return NotFound(request.kind, request.id);
    subject = {request.kind, request.id, std::move(*row)};
  }
  json out;
  ENSEMBLE_ASSIGN_OR_RETURN(out["record"], RecordOf(*ctx, subject));
  json relations = json::object();
  for (const Relation& r : kRelations) {
    if (r.kind != subject.kind || (!request.rel.empty() && r.rel != request.rel)) continue;
    ENSEMBLE_ASSIGN_OR_RETURN(json page, r.read(*ctx, subject, window));
    const std::size_t total = page["total"].get<std::size_t>();
    page["offset"] = window.offset;
    if (window.offset + page["items"].size() < total)
      page["nextOffset"] = window.offset + page["items"].size();
    relations[std::string(r.rel)] = std::move(page);
  }
  out["relations"] = std::move(relations);
  return out;
}

Result<NearRecord> NearOf(ToolContext& ctx, const std::string& kind, const std::string& id) {
  ENSEMBLE_ASSIGN_OR_RETURN(json neighbors, ItemNeighbors(ctx, {kind, id, "", kMaxRelationItems}));
  NearRecord near;
  for (const auto& [rel, page] : neighbors["relations"].items()) {
    const bool scored = rel == "related" || rel == "done_before";
    for (const json& item : page["items"]) {
      const std::string key = RefKey(Text(item, "kind"), Text(item, "id"));
      (scored ? near.relations : near.links).insert(key);
    }
  }
  if (kind == "project") {
    near.project = id;
  } else if (const json& project = neighbors["relations"].value("project", json());
             !project.is_null()) {
    if (!project["items"].empty()) near.project = Text(project["items"][0], "id");
  }
  return near;
}

std::string NeighborsSummary(const json& neighbors) {
  const json& record = neighbors["record"];
  const std::string kind = record["kind"].get<std::string>();
  std::string out = tools::Quoted(record["title"].get<std::string>()) + " (" + kind;
  const json& facts = record["facts"];
  if (facts.contains("status")) out += ", " + facts["status"].get<std::string>();
  out += ")";
  std::vector<std::string> parts;
  for (const Relation& r : kRelations) {
    if (r.kind != kind || !neighbors["relations"].contains(r.rel)) continue;
    const json& page = neighbors["relations"][std::string(r.rel)];
    const std::size_t total = page["total"].get<std::size_t>();
    if (total == 0) continue;
    if (r.many.empty()) {
      if (!page["items"].empty())
        parts.push_back(std::string(r.one) + " " +
                        tools::Quoted(page["items"][0]["title"].get<std::string>()));
    } else if (r.rel == "comments") {
      const std::size_t open = page.value("open", std::size_t{0});
      if (open) parts.push_back(text::CountText(open, "open comment", "open comments"));
    } else {
      parts.push_back(text::CountText(total, r.one, r.many));
    }
  }
  if (parts.empty()) return out + ": nothing links to it yet.";
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? "; " : ": ") + parts[i];
  return out + ".";
}

}  // namespace ensemble::core::context
