#include "core/comments/comment_tool_runs.h"

#include <string>
#include <utility>
#include <vector>

#include "core/boards/board.h"
#include "core/comments/comment.h"
#include "core/pages/page.h"
#include "core/people/person.h"
#include "core/projects/project.h"
#include "core/records/record_mutators.h"
#include "core/tasks/task.h"
#include "core/text/trim.h"
#include "core/text/utf8.h"
#include "core/tools/record_rows.h"
#include "core/tools/tool_runs.h"

namespace ensemble::core::comments {
namespace {

using namespace tools::record_rows;  // NOLINT: the shared pieces of the record tools.

const Noun kNouns[] = {
    {tasks::kTaskKind.kind, "task", "tasks", "title"},
    {projects::kProjectKind.kind, "project", "projects", "title"},
    {pages::kPageKind.kind, "page", "pages", "title"},
    {people::kPersonKind.kind, "person", "people", "name"},
    {boards::kBoardKind.kind, "board", "boards", "title"},
};
const Noun kComment = {comments::kCommentKind.kind, "comment", "comments", "body"};

// The noun of a commentable kind; INVALID_ARGUMENT for any other.
Result<const Noun*> NounOf(const std::string& kind) {
  for (const Noun& n : kNouns) {
    if (n.singular == kind) return &n;
  }
  return InvalidArgument(
      "comments are kept on tasks, projects, pages, people and boards, not on a " +
      (kind.empty() ? std::string("record of no kind") : kind));
}

std::string CommentQuote(const std::string& body) {
  return "“" + text::TruncateChars(std::string(text::Trim(body)), kCommentQuoteChars) + "”";
}

std::string RecordText(const Noun& noun, const json& row) {
  return "the " + std::string(noun.singular) + " " + Quoted(TitleOf(noun, row));
}

json CommentJson(const json& c) {
  return {{"id", c["id"]},
          {"body", c["body"]},
          {"resolved", c.value("resolved", int64_t{0}) != 0},
          {"version", c["version"]}};
}

// --- hub_read_record_details -------------------------------------------------

// --- hub_manage_record -------------------------------------------------------

// What a hub_manage_record call means, resolved in the turn's space.
struct Managed {
  ToolContext* ctx = nullptr;
  const Noun* noun = nullptr;
  std::string action;
  json record;                  // The live record the call names.
  std::optional<json> comment;  // The live comment commentId names, on it.
  std::string text;             // Trimmed.
};

Result<Managed> Resolve(const ToolCall& call) {
  Managed m;
  ENSEMBLE_ASSIGN_OR_RETURN(m.ctx, ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(m.noun, NounOf(tools::StringIn(call.input, "kind")));
  m.action = tools::StringIn(call.input, "action");
  m.text = std::string(text::Trim(tools::StringIn(call.input, "text")));
  ENSEMBLE_ASSIGN_OR_RETURN(m.record,
                            LiveInSpace(*m.ctx, *m.noun, tools::StringIn(call.input, "id")));
  const bool needs_text = m.action == "add_comment" || m.action == "edit_comment";
  if (needs_text && m.text.empty()) return InvalidArgument(m.action + " needs the comment's text");
  if (!needs_text && call.input.contains("text")) {
    return InvalidArgument(m.action + " takes no text; leave it out");
  }
  const bool names_comment =
      m.action == "edit_comment" || m.action == "resolve_comment" || m.action == "delete_comment";
  const std::string comment_id = tools::StringIn(call.input, "commentId");
  if (names_comment) {
    if (comment_id.empty()) return InvalidArgument(m.action + " needs the commentId");
    ENSEMBLE_ASSIGN_OR_RETURN(json c, LiveInSpace(*m.ctx, kComment, comment_id));
    // A comment on another record of the space is not "this record's".
    if (c.value("target", std::string()) != m.record["id"].get<std::string>()) {
      return NotFound(kComment, comment_id);
    }
    m.comment = std::move(c);
  } else if (!comment_id.empty()) {
    return InvalidArgument(m.action + " takes no commentId; leave it out");
  }
  if (m.action == "page_to_task" && m.noun->singular != "page") {
    return InvalidArgument("page_to_task turns a page into a task; this is a " +
                           std::string(m.noun->singular));
  }
  if (m.action == "resolve_comment" && m.comment->value("resolved", int64_t{0}) != 0) {
    return InvalidArgument("that comment is already resolved");
  }
  return m;
}

}  // namespace

Result<json> RunReadDetails(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(const Noun* noun, NounOf(tools::StringIn(call.input, "kind")));
  ENSEMBLE_ASSIGN_OR_RETURN(json row, LiveInSpace(*ctx, *noun, tools::StringIn(call.input, "id")));
  const std::string id = row["id"].get<std::string>();
  ENSEMBLE_ASSIGN_OR_RETURN(std::vector<json> found,
                            comments::ListComments(*ctx->db, ctx->space_id, id));
  ENSEMBLE_ASSIGN_OR_RETURN(const records::RecordKind* kind, KindOf(*ctx, *noun));
  json record = records::FieldsOf(*kind, row);
  record["id"] = id;
  record["version"] = row["version"];
  json list = json::array();
  std::size_t open = 0;
  for (const json& c : found) {
    list.push_back(CommentJson(c));
    if (c.value("resolved", int64_t{0}) == 0) ++open;
  }
  std::string summary = "Read " + RecordText(*noun, row) + ": ";
  if (found.empty()) {
    summary += "no comments.";
  } else {
    summary += text::FormatCount(found.size()) + (found.size() == 1 ? " comment" : " comments") +
               ", " + text::FormatCount(open) + " open.";
  }
  return json{
      {"summary", std::move(summary)},
      {"data",
       {{"kind", noun->singular}, {"record", std::move(record)}, {"comments", std::move(list)}}}};
}

Status PrepareManage(ToolCall& call) { return Resolve(call).status(); }

Result<std::string> PreviewManage(const ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(Managed m, Resolve(call));
  const std::string on = RecordText(*m.noun, m.record);
  if (m.action == "add_comment") return "Comment on " + on + ": " + CommentQuote(m.text);
  if (m.action == "edit_comment") {
    return "Change a comment on " + on + " to " + CommentQuote(m.text);
  }
  const std::string quote = m.comment ? CommentQuote(m.comment->value("body", "")) : "";
  if (m.action == "resolve_comment") return "Resolve the comment " + quote + " on " + on;
  if (m.action == "delete_comment") return "Delete the comment " + quote + " on " + on;
  return "Make a task of " + on;
}

Result<json> RunManage(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, WritableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(Managed m, Resolve(call));
  const std::string record_id = m.record["id"].get<std::string>();
  const std::string on = RecordText(*m.noun, m.record);
  std::vector<Mutation> writes;
  std::vector<Mutation> undo;
  std::string summary;
  json data = {{"kind", m.noun->singular}, {"id", record_id}};
  if (m.action == "add_comment") {
    ENSEMBLE_ASSIGN_OR_RETURN(std::string id, NewRecordId(*ctx));
    writes.push_back({"comment.create",
                      {{"id", id},
                       {"spaceId", ctx->space_id},
                       {"target_kind", m.noun->singular},
                       {"target", record_id},
                       {"body", m.text}}});
    undo.push_back({"comment.delete", {{"id", id}}});
    summary = "Commented on " + on + ": " + CommentQuote(m.text);
    data["commentId"] = id;
  } else if (m.action == "page_to_task") {
    ENSEMBLE_ASSIGN_OR_RETURN(std::string id, NewRecordId(*ctx));
    const std::string title = TitleOf(*m.noun, m.record);
    writes.push_back(
        {"task.create",
         {{"id", id}, {"spaceId", ctx->space_id}, {"title", title}, {"page", record_id}}});
    undo.push_back({"task.delete", {{"id", id}}});
    summary = "Made the task " + Quoted(title) + " of " + on;
    data["taskId"] = id;
  } else {
    const json& c = *m.comment;
    const std::string cid = c["id"].get<std::string>();
    data["commentId"] = cid;
    if (m.action == "delete_comment") {
      writes.push_back({"comment.delete", {{"id", cid}}});
      undo.push_back({"comment.restore", {{"id", cid}}});
      summary = "Deleted the comment " + CommentQuote(c.value("body", "")) + " on " + on;
    } else {
      const bool edit = m.action == "edit_comment";
      const char* field = edit ? "body" : "resolved";
      const json before = {{field, c[field]}};
      const json after = {{field, edit ? json(m.text) : json(1)}};
      writes.push_back({"comment.update", {{"id", cid}, {"fields", after}, {"base", before}}});
      undo.push_back(UpdateBack(kComment, cid, before, after));
      summary = edit ? "Changed a comment on " + on + " to " + CommentQuote(m.text)
                     : "Resolved the comment " + CommentQuote(c.value("body", "")) + " on " + on;
    }
  }
  ENSEMBLE_RETURN_IF_ERROR(ctx->write(writes));
  return json{{"summary", std::move(summary)},
              {"data", std::move(data)},
              {"undo", UndoJson(std::move(undo))}};
}

}  // namespace ensemble::core::comments
