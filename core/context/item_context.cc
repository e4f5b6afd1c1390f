// hub_item_context: one record of the turn's space and the records around
// it, both ways (a task's project and the tasks that depend on it), so the
// model can answer "what is going on with X" in one step. Links to records in
// Trash or in another space are left out: a stored id is no evidence of
// access either.

#include "core/context/item_context.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <utility>
#include <vector>

#include "core/base/id.h"
#include "core/boards/board.h"
#include "core/boards/card.h"
#include "core/comments/comment.h"
#include "core/context/search_tool_runs.h"
#include "core/text/trim.h"
#include "core/tools/record_rows.h"

namespace ensemble::core::context {
namespace {

using nlohmann::json;
using store::Value;
using tools::Quoted;
using tools::ToolCall;
using tools::ToolContext;
using tools::record_rows::Noun;

// A comment's text shown in a context, in characters.
constexpr std::size_t kContextCommentChars = 200;
// Open comments quoted in a context (the rest are counted).
constexpr std::size_t kContextComments = 3;

constexpr std::string_view kUnkept[][2] = {
    {"meeting", "meetings"}, {"file", "files"}, {"skill", "personal skills"}, {"event", "events"}};

using tools::record_rows::kPage;
using tools::record_rows::kPerson;
using tools::record_rows::kProject;
using tools::record_rows::kTask;
const Noun kBoard = {boards::kBoardKind.kind, "board", "boards", "title"};

// {items (at most kMaxContextItems), total} of a list.
json Capped(std::vector<json> items) {
  const std::size_t total = items.size();
  if (items.size() > kMaxContextItems) items.resize(kMaxContextItems);
  return {{"items", std::move(items)}, {"total", total}};
}

// The pattern that finds `id` in a column holding a JSON array of ids. Ids
// are checked (IsValidId) before they get here, so they hold no LIKE
// wildcards.
std::string InIdList(const std::string& id) { return "%\"" + id + "\"%"; }

// {id, title} of the live record `id` of `noun` in the space, or null.
Result<json> OneLink(ToolContext& ctx, const Noun& noun, const json& id) {
  if (!id.is_string()) return json(nullptr);
  ENSEMBLE_ASSIGN_OR_RETURN(std::optional<json> row,
                            tools::record_rows::FindInSpace(ctx, noun, id.get<std::string>()));
  if (!row || row->value("deleted", int64_t{0}) != 0) return json(nullptr);
  return json{{"id", id}, {"title", tools::record_rows::TitleOf(noun, *row)}};
}

// OneLink of each of `ids`, in order, the missing ones left out.
Result<json> Links(ToolContext& ctx, const Noun& noun, const json& ids) {
  std::vector<json> items;
  if (ids.is_array()) {
    for (const json& id : ids) {
      ENSEMBLE_ASSIGN_OR_RETURN(json link, OneLink(ctx, noun, id));
      if (!link.is_null()) items.push_back(std::move(link));
    }
  }
  return Capped(std::move(items));
}

// The live tasks of the space where `condition` holds ($2 is `param`): open
// ones first, then the latest changed.
Result<json> TasksWhere(ToolContext& ctx, const std::string& condition, const std::string& param) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      ctx.db->Query("SELECT id, title, status, due FROM tasks WHERE space_id = $1 AND deleted = 0"
                    " AND " +
                        condition +
                        " ORDER BY CASE WHEN status = 'done' THEN 1 ELSE 0 END,"
                        " updated_at DESC, id",
                    {Value(ctx.space_id), Value(param)}));
  std::vector<json> items;
  std::size_t open = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    json t = {{"id", store::AsText(rows.rows[i][0])},
              {"title", store::AsText(rows.rows[i][1])},
              {"status", store::AsText(rows.rows[i][2])}};
    if (!store::IsNull(rows.rows[i][3])) t["due"] = store::AsText(rows.rows[i][3]);
    if (t["status"] != "done") ++open;
    items.push_back(std::move(t));
  }
  json out = Capped(std::move(items));
  out["open"] = open;
  return out;
}

// {id, title} of the live records of `table` where `condition` holds.
Result<json> TitledWhere(ToolContext& ctx, std::string_view table, std::string_view title,
                         const std::string& condition, const std::string& param) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      ctx.db->Query("SELECT id, " + std::string(title) + " FROM " + std::string(table) +
                        " WHERE space_id = $1 AND deleted = 0 AND " + condition +
                        " ORDER BY created_at, id",
                    {Value(ctx.space_id), Value(param)}));
  std::vector<json> items;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    items.push_back(
        {{"id", store::AsText(rows.rows[i][0])}, {"title", store::AsText(rows.rows[i][1])}});
  }
  return Capped(std::move(items));
}

// {open, resolved, latest: the newest open ones}.
Result<json> CommentsOn(ToolContext& ctx, const std::string& id) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      ctx.db->Query("SELECT id, body, resolved FROM comments WHERE space_id = $1 AND target = $2"
                    " AND deleted = 0 ORDER BY created_at DESC, id DESC",
                    {Value(ctx.space_id), Value(id)}));
  std::size_t open = 0;
  json latest = json::array();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (store::AsInt(rows.rows[i][2]) != 0) continue;
    if (open++ < kContextComments) {
      latest.push_back(
          {{"id", store::AsText(rows.rows[i][0])},
           {"body", text::TruncateChars(store::AsText(rows.rows[i][1]), kContextCommentChars)}});
    }
  }
  return json{{"open", open}, {"resolved", rows.size() - open}, {"latest", latest}};
}

// The boards a task is on: {id, title, column (its title)}.
Result<json> BoardsOf(ToolContext& ctx, const std::string& task_id) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows,
      ctx.db->Query("SELECT board, \"column\" FROM board_cards WHERE space_id = $1 AND task = $2"
                    " AND deleted = 0 ORDER BY created_at, id",
                    {Value(ctx.space_id), Value(task_id)}));
  std::vector<json> items;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    ENSEMBLE_ASSIGN_OR_RETURN(
        std::optional<json> board,
        tools::record_rows::FindInSpace(ctx, kBoard, store::AsText(rows.rows[i][0])));
    if (!board || board->value("deleted", int64_t{0}) != 0) continue;
    const std::string column = store::AsText(rows.rows[i][1]);
    std::string column_title = column;
    for (const json& c : board->value("columns", json::array())) {
      if (c.value("id", std::string()) == column) column_title = c.value("title", column);
    }
    items.push_back(
        {{"id", (*board)["id"]}, {"title", (*board)["title"]}, {"column", column_title}});
  }
  return Capped(std::move(items));
}

// The part of the summary for one list: "2 tasks it depends on".
void Count(std::vector<std::string>& parts, const json& list, std::string_view one,
           std::string_view many, std::string_view tail = "") {
  const std::size_t total = list.value("total", std::size_t{0});
  if (total) parts.push_back(text::CountText(total, one, many) + std::string(tail));
}

void Named(std::vector<std::string>& parts, const json& link, std::string_view what) {
  if (link.is_object()) {
    parts.push_back(std::string(what) + " " + Quoted(link["title"].get<std::string>()));
  }
}

Result<json> TaskContext(ToolContext& ctx, const json& row, std::vector<std::string>& parts) {
  const std::string id = row["id"].get<std::string>();
  json c;
  ENSEMBLE_ASSIGN_OR_RETURN(c["project"], OneLink(ctx, kProject, row["project"]));
  ENSEMBLE_ASSIGN_OR_RETURN(c["page"], OneLink(ctx, kPage, row["page"]));
  ENSEMBLE_ASSIGN_OR_RETURN(c["people"], Links(ctx, kPerson, row["people"]));
  ENSEMBLE_ASSIGN_OR_RETURN(c["dependsOn"], Links(ctx, kTask, row["depends_on"]));
  ENSEMBLE_ASSIGN_OR_RETURN(c["blocks"], Links(ctx, kTask, row["blocks"]));
  ENSEMBLE_ASSIGN_OR_RETURN(c["neededBy"], TasksWhere(ctx, "depends_on LIKE $2", InIdList(id)));
  ENSEMBLE_ASSIGN_OR_RETURN(c["blockedBy"], TasksWhere(ctx, "blocks LIKE $2", InIdList(id)));
  ENSEMBLE_ASSIGN_OR_RETURN(c["boards"], BoardsOf(ctx, id));
  Named(parts, c["project"], "in project");
  Named(parts, c["page"], "with page");
  Count(parts, c["people"], "person", "people");
  Count(parts, c["dependsOn"], "task", "tasks", " it depends on");
  Count(parts, c["blocks"], "task", "tasks", " it blocks");
  Count(parts, c["neededBy"], "task", "tasks", " waiting on it");
  Count(parts, c["blockedBy"], "task", "tasks", " blocking it");
  Count(parts, c["boards"], "board", "boards", " showing it");
  return c;
}

Result<json> ProjectContext(ToolContext& ctx, const json& row, std::vector<std::string>& parts) {
  const std::string id = row["id"].get<std::string>();
  json c;
  ENSEMBLE_ASSIGN_OR_RETURN(c["people"], Links(ctx, kPerson, row["people"]));
  ENSEMBLE_ASSIGN_OR_RETURN(c["tasks"], TasksWhere(ctx, "project = $2", id));
  ENSEMBLE_ASSIGN_OR_RETURN(c["pages"], TitledWhere(ctx, "pages", "title", "project = $2", id));
  json deliverables = json::array();
  for (const json& d : row.value("deliverables", json::array())) {
    deliverables.push_back({{"id", d.value("id", std::string())},
                            {"title", d.value("title", std::string())},
                            {"done", d.value("done", false)}});
  }
  c["deliverables"] = Capped(std::vector<json>(deliverables.begin(), deliverables.end()));
  Count(parts, c["tasks"], "task", "tasks",
        " (" + std::to_string(c["tasks"]["open"].get<std::size_t>()) + " open)");
  Count(parts, c["deliverables"], "deliverable", "deliverables");
  Count(parts, c["pages"], "page", "pages");
  Count(parts, c["people"], "person", "people");
  return c;
}

Result<json> PageContext(ToolContext& ctx, const json& row, std::vector<std::string>& parts) {
  const std::string id = row["id"].get<std::string>();
  json c;
  ENSEMBLE_ASSIGN_OR_RETURN(c["project"], OneLink(ctx, kProject, row["project"]));
  ENSEMBLE_ASSIGN_OR_RETURN(c["parent"], OneLink(ctx, kPage, row["parent"]));
  ENSEMBLE_ASSIGN_OR_RETURN(c["subpages"], TitledWhere(ctx, "pages", "title", "parent = $2", id));
  ENSEMBLE_ASSIGN_OR_RETURN(c["tasks"], TasksWhere(ctx, "page = $2", id));
  Named(parts, c["project"], "in project");
  Named(parts, c["parent"], "under");
  Count(parts, c["subpages"], "page", "pages", " under it");
  Count(parts, c["tasks"], "task", "tasks", " linking it");
  return c;
}

Result<json> PersonContext(ToolContext& ctx, const json& row, std::vector<std::string>& parts) {
  const std::string pattern = InIdList(row["id"].get<std::string>());
  json c;
  ENSEMBLE_ASSIGN_OR_RETURN(c["tasks"], TasksWhere(ctx, "people LIKE $2", pattern));
  ENSEMBLE_ASSIGN_OR_RETURN(c["projects"],
                            TitledWhere(ctx, "projects", "title", "people LIKE $2", pattern));
  Count(parts, c["tasks"], "task", "tasks",
        " (" + std::to_string(c["tasks"]["open"].get<std::size_t>()) + " open)");
  Count(parts, c["projects"], "project", "projects");
  return c;
}

Result<json> BoardContext(ToolContext& ctx, const json& row, std::vector<std::string>& parts) {
  const std::string id = row["id"].get<std::string>();
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows cards,
      ctx.db->Query("SELECT \"column\", task FROM board_cards WHERE space_id = $1 AND board = $2"
                    " AND deleted = 0 ORDER BY position, created_at, id",
                    {Value(ctx.space_id), Value(id)}));
  json columns = json::array();
  for (const json& col : row.value("columns", json::array())) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < cards.size(); ++i) {
      if (store::AsText(cards.rows[i][0]) == col.value("id", std::string())) ++n;
    }
    columns.push_back({{"id", col.value("id", std::string())},
                       {"title", col.value("title", std::string())},
                       {"cards", n}});
  }
  json task_ids = json::array();
  for (std::size_t i = 0; i < cards.size(); ++i) {
    if (!store::IsNull(cards.rows[i][1])) task_ids.push_back(store::AsText(cards.rows[i][1]));
  }
  json c = {{"columns", columns}};
  ENSEMBLE_ASSIGN_OR_RETURN(c["tasks"], Links(ctx, kTask, task_ids));
  parts.push_back(text::CountText(cards.size(), "card", "cards") + " in " +
                  text::CountText(columns.size(), "column", "columns"));
  Count(parts, c["tasks"], "task", "tasks");
  return c;
}

// The project holding deliverable `id`, and the deliverable, or NOT_FOUND.
Result<json> DeliverableContext(ToolContext& ctx, const std::string& id, json& record) {
  ENSEMBLE_ASSIGN_OR_RETURN(
      store::Rows rows, ctx.db->Query("SELECT id FROM projects WHERE space_id = $1 AND deleted = 0"
                                      " AND deliverables LIKE $2",
                                      {Value(ctx.space_id), Value("%\"" + id + "\"%")}));
  for (std::size_t i = 0; i < rows.size(); ++i) {
    ENSEMBLE_ASSIGN_OR_RETURN(
        std::optional<json> project,
        tools::record_rows::FindInSpace(ctx, kProject, store::AsText(rows.rows[i][0])));
    if (!project) continue;
    for (const json& d : project->value("deliverables", json::array())) {
      if (d.value("id", std::string()) != id) continue;
      record = {{"kind", "deliverable"},
                {"id", id},
                {"title", d.value("title", std::string())},
                {"done", d.value("done", false)}};
      return json{{"project", {{"id", (*project)["id"]}, {"title", (*project)["title"]}}}};
    }
  }
  return Status(codes::kNotFound, "no deliverable with id " + id);
}

const Noun* NounOf(std::string_view kind) {
  for (const Noun* n : {&kTask, &kProject, &kPage, &kPerson, &kBoard}) {
    if (n->singular == kind) return n;
  }
  return nullptr;
}

}  // namespace

bool IsUnkeptKind(std::string_view kind) {
  return std::any_of(std::begin(kUnkept), std::end(kUnkept),
                     [&](const auto& k) { return k[0] == kind; });
}

std::vector<std::string> UnkeptKinds(const json& kinds) {
  std::vector<std::string> out;
  if (!kinds.is_array()) return out;
  for (const json& k : kinds) {
    if (k.is_string() && IsUnkeptKind(k.get<std::string>())) out.push_back(k);
  }
  return out;
}

std::string UnkeptText(const std::vector<std::string>& kinds) {
  std::string out;
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    std::string_view plural = kinds[i];
    for (const auto& k : kUnkept) {
      if (k[0] == kinds[i]) plural = k[1];
    }
    if (i) out += i + 1 == kinds.size() ? " and " : ", ";
    out += plural;
  }
  if (!out.empty()) out[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(out[0])));
  return out + " are not kept in this hub yet";
}

Result<json> RunItemContext(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, tools::ReadableContext(call));
  const std::string kind = call.input.value("kind", std::string());
  const std::string id = call.input.value("id", std::string());
  if (IsUnkeptKind(kind)) {
    return InvalidArgument(UnkeptText({kind}) + ", so there is no context to read for it");
  }
  json record;
  json context;
  std::vector<std::string> parts;
  if (kind == "deliverable") {
    if (!IsValidId(id)) return Status(codes::kNotFound, "no deliverable with id " + id);
    ENSEMBLE_ASSIGN_OR_RETURN(context, DeliverableContext(*ctx, id, record));
    Named(parts, context["project"], "in project");
  } else {
    const Noun* noun = NounOf(kind);
    if (!noun) return InvalidArgument("no context is kept for a " + kind);
    ENSEMBLE_ASSIGN_OR_RETURN(std::optional<json> row,
                              tools::record_rows::FindInSpace(*ctx, *noun, id));
    if (!row) return tools::record_rows::NotFound(*noun, id);
    record = {{"kind", kind}, {"id", id}, {"title", tools::record_rows::TitleOf(*noun, *row)}};
    for (const char* field : {"status", "due", "email", "role", "team"}) {
      if (row->contains(field) && (*row)[field].is_string() && !(*row)[field].empty())
        record[field] = (*row)[field];
    }
    if (row->value("deleted", int64_t{0}) != 0) record["inTrash"] = true;
    if (kind == "task") {
      ENSEMBLE_ASSIGN_OR_RETURN(context, TaskContext(*ctx, *row, parts));
    } else if (kind == "project") {
      ENSEMBLE_ASSIGN_OR_RETURN(context, ProjectContext(*ctx, *row, parts));
    } else if (kind == "page") {
      ENSEMBLE_ASSIGN_OR_RETURN(context, PageContext(*ctx, *row, parts));
    } else if (kind == "person") {
      ENSEMBLE_ASSIGN_OR_RETURN(context, PersonContext(*ctx, *row, parts));
    } else {
      ENSEMBLE_ASSIGN_OR_RETURN(context, BoardContext(*ctx, *row, parts));
    }
    ENSEMBLE_ASSIGN_OR_RETURN(context["comments"], CommentsOn(*ctx, id));
    const std::size_t open = context["comments"]["open"].get<std::size_t>();
    if (open) parts.push_back(text::CountText(open, "open comment", "open comments"));
  }
  std::string summary = Quoted(record["title"].get<std::string>()) + " (" + kind;
  if (record.contains("status")) summary += ", " + record["status"].get<std::string>();
  if (record.contains("inTrash")) summary += ", in Trash";
  summary += ")";
  if (parts.empty()) {
    summary += ": nothing links to it yet.";
  } else {
    for (std::size_t i = 0; i < parts.size(); ++i) summary += (i ? "; " : ": ") + parts[i];
    summary += ".";
  }
  context["record"] = std::move(record);
  return json{{"summary", summary}, {"data", std::move(context)}};
}

}  // namespace ensemble::core::context
