#include "core/desk/desk_tool_runs.h"

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/desk/desk_list.h"
#include "core/refs/summary.h"
#include "core/text/trim.h"
#include "core/text/utf8.h"
#include "core/tools/record_rows.h"
#include "core/tools/tool_runs.h"

namespace ensemble::core::desk {
namespace {

using namespace tools::record_rows;  // NOLINT: the shared pieces of the record tools.
using store::Value;

const Noun kList = {desk::kListRecordKind.kind, "desk list", "desk lists", "title"};
const Noun kLine = {desk::kItemRecordKind.kind, "line", "lines", "text"};

// “a”, “b”, “c”, “d”, “e” and 2 more.
std::string QuotedList(const std::vector<std::string>& texts) {
  std::string out;
  const size_t shown = std::min(texts.size(), refs::kMaxSummaryTitles);
  for (size_t i = 0; i < shown; ++i) {
    if (i > 0) out += i + 1 == shown && shown == texts.size() ? " and " : ", ";
    out += Quoted(texts[i]);
  }
  if (shown < texts.size()) out += " and " + std::to_string(texts.size() - shown) + " more";
  return out;
}

// The trimmed texts of input array `key`; INVALID_ARGUMENT for a blank one.
Result<std::vector<std::string>> TextsIn(const json& in, const char* key) {
  std::vector<std::string> out;
  if (!in.contains(key) || !in[key].is_array()) return out;
  for (const json& t : in[key]) {
    const std::string text(text::Trim(t.is_string() ? t.get_ref<const std::string&>() : ""));
    if (text.empty()) return InvalidArgument("a line needs its text");
    out.push_back(text);
  }
  return out;
}

// --- hub_list_desk_lists ----------------------------------------------------

// Lines as the tools give them: positions are the order, not data.
json Shown(json lines) {
  for (json& line : lines) line.erase("position");
  return lines;
}

// “Shop” (1 of 3 done)
std::string ListLine(const json& list) {
  const json& items = list["items"];
  const size_t done = static_cast<size_t>(std::count_if(
      items.begin(), items.end(), [](const json& i) { return i.value("done", false); }));
  return Quoted(list.value("title", std::string())) +
         (items.empty() ? " (no lines)"
                        : " (" + std::to_string(done) + " of " +
                              text::CountText(items.size(), "line", "lines") + " done)");
}

// The live lines of list `list_id`, as ReadDeskLists shapes them.
Result<json> LinesOf(ToolContext& ctx, const std::string& list_id) {
  return desk::ReadDeskLines(*ctx.db, ctx.space_id, list_id);
}

// --- hub_create_desk_list ---------------------------------------------------

struct NewList {
  std::string title;
  std::vector<std::string> lines;
};

Result<NewList> NewListOf(const json& in) {
  NewList out;
  out.title = std::string(text::Trim(tools::StringIn(in, "title")));
  if (out.title.empty()) return InvalidArgument("a desk list needs its title");
  ENSEMBLE_ASSIGN_OR_RETURN(out.lines, TextsIn(in, "lines"));
  return out;
}

std::string WithLines(const NewList& list) {
  std::string out = "the desk list " + Quoted(list.title);
  if (!list.lines.empty()) {
    out += " with " + text::CountText(list.lines.size(), "line", "lines") + ": " +
           QuotedList(list.lines);
  }
  return out;
}

// --- hub_update_desk_list ---------------------------------------------------

// A hub_update_desk_list call resolved against the list as it is: the
// mutations, their Undo and the words for them.
struct ListEdit {
  json list;  // The list's row.
  std::vector<Mutation> writes;
  std::vector<Mutation> undo;
  std::vector<std::string> parts;  // "renamed to “X”", "ticked “milk”", ...
};

// The line `id` of `lines` (the list's live lines), or NOT_FOUND.
Result<json> LineOn(const json& lines, const json& list, const std::string& id) {
  for (const json& line : lines) {
    if (line["id"] == id) return line;
  }
  return Status(codes::kNotFound, "no line with id " + id + " on the desk list " +
                                      Quoted(list.value("title", std::string())));
}

// Adds the ticks, rewordings and removals the input names (check, uncheck
// and remove: line ids; reword: [{lineId, text}]), each line at most once.
Status EditLines(const json& in, const json& lines, ListEdit& edit) {
  std::set<std::string> named;
  struct Tick {
    const char* key;
    int64_t done;
    const char* verb;
  };
  for (const Tick& t : {Tick{"check", 1, "ticked"}, Tick{"uncheck", 0, "unticked"}}) {
    std::vector<std::string> texts;
    for (const json& id : in.value(t.key, json::array())) {
      ENSEMBLE_ASSIGN_OR_RETURN(json line, LineOn(lines, edit.list, id.get<std::string>()));
      if (!named.insert(line["id"]).second) return InvalidArgument("a line is named twice");
      texts.push_back(line["text"]);
      const int64_t was = line.value("done", false) ? 1 : 0;
      if (was == t.done) continue;  // Already so: nothing to write or undo.
      const json fields = {{"done", t.done}};
      const json before = {{"done", was}};
      edit.writes.push_back(
          {"desk_list_item.update", {{"id", line["id"]}, {"fields", fields}, {"base", before}}});
      edit.undo.push_back(UpdateBack(kLine, line["id"], before, fields));
    }
    if (!texts.empty()) edit.parts.push_back(std::string(t.verb) + " " + QuotedList(texts));
  }
  std::vector<std::string> reworded;
  for (const json& r : in.value("reword", json::array())) {
    ENSEMBLE_ASSIGN_OR_RETURN(json line, LineOn(lines, edit.list, tools::StringIn(r, "lineId")));
    if (!named.insert(line["id"]).second) return InvalidArgument("a line is named twice");
    const std::string text(text::Trim(tools::StringIn(r, "text")));
    if (text.empty()) return InvalidArgument("a line needs its text");
    const json fields = {{"text", text}};
    const json before = {{"text", line["text"]}};
    edit.writes.push_back(
        {"desk_list_item.update", {{"id", line["id"]}, {"fields", fields}, {"base", before}}});
    edit.undo.push_back(UpdateBack(kLine, line["id"], before, fields));
    reworded.push_back(Quoted(line["text"].get<std::string>()) + " to " + Quoted(text));
  }
  if (!reworded.empty()) {
    std::string part = "reworded";
    for (size_t i = 0; i < reworded.size(); ++i) part += (i ? ", " : " ") + reworded[i];
    edit.parts.push_back(part);
  }
  std::vector<std::string> removed;
  for (const json& id : in.value("remove", json::array())) {
    ENSEMBLE_ASSIGN_OR_RETURN(json line, LineOn(lines, edit.list, id.get<std::string>()));
    if (!named.insert(line["id"]).second) return InvalidArgument("a line is named twice");
    removed.push_back(line["text"]);
    edit.writes.push_back({"desk_list_item.delete", {{"id", line["id"]}}});
    edit.undo.push_back({"desk_list_item.restore", {{"id", line["id"]}}});
  }
  if (!removed.empty()) edit.parts.push_back("removed " + QuotedList(removed));
  return Status::Ok();
}

// The edit the call asks for; `with_ids` makes the new lines' ids (Run),
// which a preview does not need.
Result<ListEdit> EditOf(ToolContext& ctx, const json& in, bool with_ids) {
  ListEdit edit;
  ENSEMBLE_ASSIGN_OR_RETURN(edit.list, LiveInSpace(ctx, kList, tools::StringIn(in, "id")));
  const std::string list_id = edit.list["id"];
  ENSEMBLE_ASSIGN_OR_RETURN(json lines, LinesOf(ctx, list_id));
  if (in.contains("title")) {
    const std::string title(text::Trim(tools::StringIn(in, "title")));
    if (title.empty()) return InvalidArgument("a desk list needs its title");
    if (title != edit.list["title"]) {
      const json fields = {{"title", title}};
      const json before = {{"title", edit.list["title"]}};
      edit.writes.push_back(
          {"desk_list.update", {{"id", list_id}, {"fields", fields}, {"base", before}}});
      edit.undo.push_back(UpdateBack(kList, list_id, before, fields));
      edit.parts.push_back("renamed to " + Quoted(title));
    }
  }
  ENSEMBLE_ASSIGN_OR_RETURN(std::vector<std::string> added, TextsIn(in, "add"));
  if (!added.empty()) edit.parts.push_back("added " + QuotedList(added));
  ENSEMBLE_RETURN_IF_ERROR(EditLines(in, lines, edit));
  // Removals are written before additions, so a full list can swap lines.
  const size_t removing = in.value("remove", json::array()).size();
  if (lines.size() - removing + added.size() > desk::kMaxDeskListItems) {
    return Status(codes::kLimitReached,
                  "a desk list holds at most " + std::to_string(desk::kMaxDeskListItems) +
                      " lines, and this one has " + std::to_string(lines.size()) +
                      "; remove some or start another list");
  }
  int64_t position = 0;
  for (const json& line : lines) position = std::max(position, line.value("position", int64_t{0}));
  for (size_t i = 0; i < added.size(); ++i) {
    position = std::min(position + kDeskLinePositionStep, desk::kMaxDeskItemPosition);
    std::string line_id;
    if (with_ids) {
      ENSEMBLE_ASSIGN_OR_RETURN(line_id, NewRecordId(ctx, static_cast<int64_t>(i)));
    }
    edit.writes.push_back({"desk_list_item.create",
                           {{"id", line_id},
                            {"spaceId", ctx.space_id},
                            {"list", list_id},
                            {"text", added[i]},
                            {"position", position}}});
    edit.undo.push_back({"desk_list_item.delete", {{"id", line_id}}});
  }
  if (edit.parts.empty()) {
    return InvalidArgument("name a change: title, add, check, uncheck, reword or remove");
  }
  return edit;
}

std::string EditText(const ListEdit& edit) {
  std::string out = Quoted(edit.list.value("title", std::string())) + ": ";
  for (size_t i = 0; i < edit.parts.size(); ++i) {
    out += (i == 0 ? "" : i + 1 == edit.parts.size() ? " and " : ", ") + edit.parts[i];
  }
  return out;
}

// --- hub_delete_desk_list ---------------------------------------------------

Result<std::string> DeleteText(ToolContext& ctx, const json& list) {
  ENSEMBLE_ASSIGN_OR_RETURN(json lines, LinesOf(ctx, list["id"]));
  return "the desk list " + Quoted(list.value("title", std::string())) + " (" +
         text::CountText(lines.size(), "line", "lines") + ")";
}

}  // namespace

Result<json> RunListDeskLists(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(json lists, desk::ReadDeskLists(*ctx->db, ctx->space_id));
  const size_t total = lists.size();
  const size_t limit =
      static_cast<size_t>(tools::IntIn(call.input, "limit", static_cast<int>(desk::kMaxDeskLists)));
  if (lists.size() > limit)
    lists.erase(lists.begin() + static_cast<std::ptrdiff_t>(limit), lists.end());
  for (json& list : lists) list["items"] = Shown(std::move(list["items"]));
  std::string summary =
      total == 0 ? "No desk lists yet." : text::CountText(total, "desk list", "desk lists") + ":";
  for (size_t i = 0; i < lists.size(); ++i) summary += (i ? "; " : " ") + ListLine(lists[i]);
  if (lists.size() < total) summary += "; and " + std::to_string(total - lists.size()) + " more";
  if (total) summary += ".";
  return json{{"summary", summary}, {"data", {{"lists", lists}, {"total", total}}}};
}

Result<std::string> PreviewCreateDeskList(const ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(NewList list, NewListOf(call.input));
  return "Add " + WithLines(list);
}

Result<json> RunCreateDeskList(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, WritableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(NewList list, NewListOf(call.input));
  ENSEMBLE_ASSIGN_OR_RETURN(std::string id, NewRecordId(*ctx));
  std::vector<Mutation> writes = {
      {"desk_list.create", {{"id", id}, {"spaceId", ctx->space_id}, {"title", list.title}}}};
  for (size_t i = 0; i < list.lines.size(); ++i) {
    ENSEMBLE_ASSIGN_OR_RETURN(std::string line_id, NewRecordId(*ctx, static_cast<int64_t>(i) + 1));
    writes.push_back({"desk_list_item.create",
                      {{"id", line_id},
                       {"spaceId", ctx->space_id},
                       {"list", id},
                       {"text", list.lines[i]},
                       {"position", kDeskLinePositionStep * static_cast<int64_t>(i + 1)}}});
  }
  ENSEMBLE_RETURN_IF_ERROR(ctx->write(writes));
  ENSEMBLE_ASSIGN_OR_RETURN(json lines, LinesOf(*ctx, id));
  return json{{"summary", "Added " + WithLines(list) + "."},
              {"data", {{"list", {{"id", id}, {"title", list.title}, {"items", Shown(lines)}}}}},
              {"undo", UndoJson({{"desk_list.delete", {{"id", id}}}})}};
}

Result<std::string> PreviewUpdateDeskList(const ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(ListEdit edit, EditOf(*ctx, call.input, false));
  return "Change the desk list " + EditText(edit);
}

Result<json> RunUpdateDeskList(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, WritableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(ListEdit edit, EditOf(*ctx, call.input, true));
  const std::string list_id = edit.list["id"];
  if (!edit.writes.empty()) {
    Status st = ctx->write(edit.writes);
    if (st.code() == codes::kSaveConflict) {
      return Status(codes::kSaveConflict,
                    "the desk list " + Quoted(edit.list.value("title", std::string())) +
                        " changed meanwhile; read it again with hub_list_desk_lists");
    }
    ENSEMBLE_RETURN_IF_ERROR(st);
  }
  ENSEMBLE_ASSIGN_OR_RETURN(json after, LiveInSpace(*ctx, kList, list_id));
  ENSEMBLE_ASSIGN_OR_RETURN(json lines, LinesOf(*ctx, list_id));
  // Undone in reverse, so a line added and then ticked is untouched before
  // it goes.
  std::reverse(edit.undo.begin(), edit.undo.end());
  return json{
      {"summary", "Changed the desk list " + EditText(edit) + "."},
      {"data", {{"list", {{"id", list_id}, {"title", after["title"]}, {"items", Shown(lines)}}}}},
      {"undo", UndoJson(std::move(edit.undo))}};
}

Result<std::string> PreviewDeleteDeskList(const ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, ReadableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(json list, LiveInSpace(*ctx, kList, tools::StringIn(call.input, "id")));
  ENSEMBLE_ASSIGN_OR_RETURN(std::string what, DeleteText(*ctx, list));
  return "Remove " + what;
}

Result<json> RunDeleteDeskList(ToolCall& call) {
  ENSEMBLE_ASSIGN_OR_RETURN(ToolContext * ctx, WritableContext(call));
  ENSEMBLE_ASSIGN_OR_RETURN(json list, LiveInSpace(*ctx, kList, tools::StringIn(call.input, "id")));
  ENSEMBLE_ASSIGN_OR_RETURN(std::string what, DeleteText(*ctx, list));
  const std::string id = list["id"];
  ENSEMBLE_RETURN_IF_ERROR(ctx->write({{"desk_list.delete", {{"id", id}}}}));
  return json{{"summary", "Removed " + what + " to Trash."},
              {"data", {{"id", id}}},
              {"undo", UndoJson({{"desk_list.restore", {{"id", id}}}})}};
}

}  // namespace ensemble::core::desk
