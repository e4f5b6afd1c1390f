#include "core/pages/page_tool_runs.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "core/pages/page.h"
#include "core/text/trim.h"
#include "core/text/utf8.h"
#include "core/tools/record_rows.h"
#include "core/tools/tool_runs.h"

namespace ensemble::core::pages {
namespace {

using namespace tools::record_rows;  // NOLINT: the shared pieces of the record tools.

using tools::record_rows::kPage;

json PageShape(const json& row) {
  return {{"id", row["id"]},
          {"title", row["title"]},
          {"revision", row["revision"]},
          {"projectId", row["project"]},
          {"parentId", row["parent"]},
          {"excerpt", text::TruncateChars(row.value("body", std::string()), kPageExcerptChars)}};
}

std::string TitleText(const json& row) { return Quoted(row.value("title", std::string())); }

// --- reads -------------------------------------------------------------------

json BlocksJson(const std::vector<pages::Block>& blocks) {
  json out = json::array();
  for (const pages::Block& b : blocks) out.push_back({{"id", b.id}, {"markdown", b.markdown}});
  return out;
}

// --- hub_create_page ---------------------------------------------------------

Result<json> NewPageArgs(ToolContext& ctx, const json& in) {
  json args = json::object();
  for (const char* name : {"title", "body"}) {
    if (!in.contains(name)) continue;
    Status st = records::CheckField(*pages::kPageKind.FindField(name), in[name]);
    if (!st.ok()) return InvalidArgument(st.message());
    args[name] = in[name];
  }
  if (!args.contains("title")) return InvalidArgument("a page needs a title");
  const std::string project = tools::StringIn(in, "projectId");
  if (!project.empty()) {
    ENSEMBLE_RETURN_IF_ERROR(LiveInSpace(ctx, kProject, project).status());
    args["project"] = project;
  }
  const std::string parent = tools::StringIn(in, "parentId");
  if (!parent.empty()) {
    ENSEMBLE_RETURN_IF_ERROR(LiveInSpace(ctx, kPage, parent).status());
    args["parent"] = parent;
  }
  return args;
}

// --- hub_update_page ---------------------------------------------------------

// An original block and what the edits do to it.
struct Slot {
  pages::Block block;
  bool deleted = false;
  std::vector<std::string> after;  // Blocks inserted after it, in order.
};

Result<std::string> EditBlocks(const std::string& page_id, const std::string& body,
                               const json& edits, int64_t revision) {
  if (!edits.is_array() || edits.empty())
    return InvalidArgument("mode blocks needs the block edits");
  std::vector<Slot> slots;
  for (pages::Block& b : pages::SplitBlocks(page_id, body)) {
    slots.push_back(Slot{std::move(b), false, {}});
  }
  for (const json& e : edits) {
    const std::string id = tools::StringIn(e, "blockId");
    const std::string action = tools::StringIn(e, "action");
    auto slot =
        std::find_if(slots.begin(), slots.end(), [&](const Slot& s) { return s.block.id == id; });
    if (slot == slots.end()) {
      return InvalidArgument("no block " + id + " in revision " + std::to_string(revision) +
                             "; read the page again for its block ids");
    }
    if (action == "delete") {
      slot->deleted = true;
      continue;
    }
    if (!e.contains("markdown") || !e["markdown"].is_string()) {
      return InvalidArgument(action + " needs the block's markdown");
    }
    const std::string markdown = e["markdown"].get<std::string>();
    if (action == "replace") {
      slot->block.markdown = markdown;
    } else {
      slot->after.push_back(markdown);
    }
  }
  std::vector<pages::Block> out;
  for (const Slot& s : slots) {
    if (!s.deleted) out.push_back(s.block);
    for (const std::string& m : s.after) out.push_back({"", m});
  }
  return pages::JoinBlocks(out);
}

// How far up a parent chain a move looks for a loop. The spec names no depth;
// an outline deeper than this is no longer one a person reads.
constexpr std::size_t kMaxPageNesting = 50;

struct PageEdit {
  json row;           // The page as read.
  json fields;        // {title?, body?, parent?, project?}: what changes.
  std::string what;   // "Append to", "Rewrite", "Edit 2 blocks of", "Rename", "Move".
  std::string where;  // " under “Plans”; into project “Q3”", for a move.
};

// A move's parent: a live page of the space that is neither the page itself
// nor one of its subpages (which would make a loop no list could show).
Status CheckParent(ToolContext& ctx, const std::string& page_id, const json& parent) {
  std::string at = parent.get<std::string>();
  for (std::size_t depth = 0; depth <= kMaxPageNesting; ++depth) {
    if (at == page_id) return InvalidArgument("a page cannot go under itself or its own subpage");
    ENSEMBLE_ASSIGN_OR_RETURN(json row, LiveInSpace(ctx, kPage, at));
    if (!row["parent"].is_string()) return Status::Ok();
    at = row["parent"].get<std::string>();
  }
  return InvalidArgument("pages nest at most " + std::to_string(kMaxPageNesting) +
                         " deep; put it higher up");
}

// The parentId and projectId of a move, checked, into `edit`.
Status PlanMove(ToolContext& ctx, const json& in, PageEdit& edit) {
  const std::string id = edit.row["id"].get<std::string>();
  if (in.contains("parentId")) {
    const json& parent = in["parentId"];
    if (parent.is_null()) {
      edit.where += "; to the top level";
    } else {
      ENSEMBLE_RETURN_IF_ERROR(CheckParent(ctx, id, parent));
      ENSEMBLE_ASSIGN_OR_RETURN(json row, LiveInSpace(ctx, kPage, parent.get<std::string>()));
      edit.where += "; under " + TitleText(row);
    }
    edit.fields["parent"] = parent;
  }
  if (in.contains("projectId")) {
    const json& project = in["projectId"];
    if (project.is_null()) {
      edit.where += "; out of its project";
    } else {
      ENSEMBLE_ASSIGN_OR_RETURN(json row, LiveInSpace(ctx, kProject, project.get<std::string>()));
      edit.where += "; into project " + TitleText(row);
    }
    edit.fields["project"] = project;
  }
  if (!edit.where.empty()) edit.where = " " + edit.where.substr(2);
  return Status::Ok();
}

// The edit the input asks for, on the revision it names: VERSION_CONFLICT
// when that is not the page's revision now.
Result<PageEdit> PlanEdit(ToolContext& ctx, const json& in) {
  PageEdit edit;
  ENSEMBLE_ASSIGN_OR_RETURN(edit.row, LiveInSpace(ctx, kPage, tools::StringIn(in, "id")));
  const int64_t current = edit.row.value("revision", int64_t{1});
  const int64_t given = tools::IntIn(in, "revision", -1);
  if (given != current) {
    return Status(codes::kVersionConflict, std::string(pages::kStaleRevisionMessage) +
                                               " (you read revision " + std::to_string(given) +
                                               "; it is now " + std::to_string(current) + ")");
  }
  const std::string mode = tools::StringIn(in, "mode");
  const std::string body = edit.row.value("body", std::string());
  const bool has_body = in.contains("body") && in["body"].is_string();
  if (mode == "append" || mode == "rewrite") {
    if (has_body) {
      const std::string given_body = in["body"].get<std::string>();
      std::string joined = given_body;
      if (mode == "append" && !text::Trim(body).empty()) {
        std::string kept = body;
        while (!kept.empty() && (kept.back() == '\n' || kept.back() == ' ')) kept.pop_back();
        joined = kept + "\n\n" + given_body;
      }
      edit.fields["body"] = joined;
      edit.what = mode == "append" ? "Append to" : "Rewrite";
    }
  } else if (mode == "blocks") {
    ENSEMBLE_ASSIGN_OR_RETURN(std::string joined,
                              EditBlocks(edit.row["id"].get<std::string>(), body,
                                         in.value("blocks", json::array()), current));
    edit.fields["body"] = joined;
    const std::size_t n = in["blocks"].size();
    edit.what = "Edit " + text::FormatCount(n) + (n == 1 ? " block of" : " blocks of");
  } else if (mode != "move") {
    return InvalidArgument("mode must be append, rewrite, blocks or move");
  }
  ENSEMBLE_RETURN_IF_ERROR(PlanMove(ctx, in, edit));
  if (!edit.where.empty() && edit.what.empty()) edit.what = "Move";
  if (in.contains("title")) {
    edit.fields["title"] = in["title"];
    if (edit.what.empty()) edit.what = "Rename";
  }
  if (edit.fields.empty()) {
    return InvalidArgument(mode == "move" ? "mode move needs parentId or projectId"
                                          : "mode " + mode + " needs a body (or a new title)");
  }
  for (const auto& [name, value] : edit.fields.items()) {
    Status st = records::CheckField(*pages::kPageKind.FindField(name), value);
    if (!st.ok()) return InvalidArgument(st.message());
  }
  return edit;
}

std::string EditText(const PageEdit& edit) {
  std::string out = edit.what + " " + TitleText(edit.row);
  if (edit.what == "Move") out += edit.where;
  if (edit.fields.contains("title") && edit.what != "Rename") out += " and rename it";
  if (edit.fields.contains("title")) {
    out += " to " + Quoted(std::string(text::Trim(edit.fields["title"].get<std::string>())));
  }
  if (!edit.where.empty() && edit.what != "Move") out += " and move it" + edit.where;
  return out + ".";
}

std::string PastTense(std::string text) {
  for (auto [from, to] : {std::pair{"Append to", "Appended to"},
                          {"Rewrite", "Rewrote"},
                          {"Edit ", "Edited "},
                          {"Rename", "Renamed"},
                          {"Move", "Moved"}}) {
    if (text.rfind(from, 0) == 0) {
      text = to + text.substr(std::string(from).size());
      break;
    }
  }
  for (auto [from, to] :
       {std::pair{" and rename it", " and renamed it"}, {" and move it", " and moved it"}}) {
    if (std::size_t at = text.find(from); at != std::string::npos)
      text.replace(at, std::string(from).size(), to);
  }
  return text;
}

}  // namespace

Result<json> RunListPages(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, ReadableContext(call));
  const std::string query = tools::StringIn(call.input, "query");
  const std::string project = tools::StringIn(call.input, "projectId");
  if (!project.empty()) ENSEMBLE_RETURN_IF_ERROR(LiveInSpace(*ctx, kProject, project).status());
  ENSEMBLE_ASSIGN_OR_RETURN(std::vector<json> rows, AllLive(*ctx, kPage));
  std::erase_if(rows, [&](const json& r) {
    if (!project.empty() && r.value("project", json(nullptr)) != json(project)) return true;
    return !MatchesQuery(query, {r.value("title", std::string()), r.value("body", std::string())});
  });
  return ListResult(kPage, call.input, rows, query, PageShape);
}

Result<json> RunReadPage(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(json row, LiveInSpace(*ctx, kPage, tools::StringIn(call.input, "id")));
  const auto blocks =
      pages::SplitBlocks(row["id"].get<std::string>(), row.value("body", std::string()));
  json page = PageShape(row);
  page.erase("excerpt");
  page["blocks"] = BlocksJson(blocks);
  const int64_t revision = row.value("revision", int64_t{1});
  return json{{"summary", "Read " + TitleText(row) + " (revision " + std::to_string(revision) +
                              ", " + text::FormatCount(blocks.size()) +
                              (blocks.size() == 1 ? " block" : " blocks") + ")."},
              {"data", {{"page", std::move(page)}}}};
}

Result<std::string> PreviewCreatePage(const ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(json args, NewPageArgs(*ctx, call.input));
  return "Add page " + Quoted(std::string(text::Trim(args["title"].get<std::string>()))) + ".";
}

Result<json> RunCreatePage(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, WritableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(json args, NewPageArgs(*ctx, call.input));
  ENSEMBLE_ASSIGN_OR_RETURN(std::string id, NewRecordId(*ctx));
  args["id"] = id;
  args["spaceId"] = ctx->space_id;
  ENSEMBLE_RETURN_IF_ERROR(ctx->write({{"page.create", args}}));
  ENSEMBLE_ASSIGN_OR_RETURN(json row, LiveInSpace(*ctx, kPage, id));
  json page = PageShape(row);
  page.erase("excerpt");
  return json{{"summary", "Added page " + TitleText(row) + "."},
              {"data", {{"page", std::move(page)}}},
              {"undo", UndoJson({{"page.delete", {{"id", id}}}})}};
}

Result<std::string> PreviewUpdatePage(const ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(PageEdit edit, PlanEdit(*ctx, call.input));
  return EditText(edit);
}

Result<json> RunUpdatePage(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, WritableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(PageEdit edit, PlanEdit(*ctx, call.input));
  const std::string id = edit.row["id"].get<std::string>();
  json args = {{"id", id}, {"fields", edit.fields}, {"revision", edit.row["revision"]}};
  Status st = ctx->write({{"page.update", args}});
  ENSEMBLE_RETURN_IF_ERROR(st);
  json previous = json::object();
  json written = json::object();
  for (const auto& [name, value] : edit.fields.items()) {
    previous[name] = edit.row[name];
    written[name] = records::NormalizeField(*pages::kPageKind.FindField(name), value);
  }
  ENSEMBLE_ASSIGN_OR_RETURN(json after, LiveInSpace(*ctx, kPage, id));
  json page = PageShape(after);
  page.erase("excerpt");
  return json{{"summary", PastTense(EditText(edit))},
              {"data", {{"page", std::move(page)}}},
              {"undo", UndoJson({UpdateBack(kPage, id, previous, written)})}};
}

Status PrepareDeletePages(ToolCall& call) { return PrepareDelete(kPage, call); }

Result<std::string> PreviewDeletePages(const ToolCall& call) { return PreviewDelete(kPage, call); }

Result<json> RunDeletePages(ToolCall& call) { return RunDelete(kPage, call); }

}  // namespace ensemble::core::pages
