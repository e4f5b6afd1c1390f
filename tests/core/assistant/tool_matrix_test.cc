// The role × tool matrix run for real (issue 6, "Permissions"): each record
// tool called by a member of each role, as Apply calls it (CheckToolRole,
// then the run, its writes authorized per record as that account), and every
// id-taking tool called with ids of another space the caller also owns.
// Allowed calls write; refused ones answer FORBIDDEN or NOT_FOUND and write
// nothing.

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "core/comments/comment.h"
#include "core/hub/hub_tools.h"
#include "core/sync/authorization.h"
#include "core/tools/tool_permissions.h"
#include "tests/core/tools/record_tool_fixture.h"

namespace ensemble::core::assistant {
namespace {

using nlohmann::json;
using sync::Role;

constexpr char kAccount[] = "ana";

// One call of the matrix: its input once the records it names are seeded
// (the placeholders "$task", "$page", ... become their ids).
struct MatrixCall {
  const char* tool;
  json input;
  // Offered to guests, but the store refuses this one action of the tool to
  // them (sync::AuthorizeMutation: guests create and edit content, never
  // delete), so it answers FORBIDDEN when applied.
  bool store_refuses_guests = false;
  // False for a create that names no record: it has no other space's ids to
  // be refused for.
  bool names_ids = true;
};

class ToolMatrixTest : public tools::RecordToolTest {
 protected:
  // Seeds one record of each kind in `space`; fills `ids` by placeholder.
  void SeedSpace(const std::string& space, json& ids) {
    ids["$task"] = Seed("task", {{"title", "T"}}, space);
    ids["$page"] = Seed("page", {{"title", "P"}, {"body", "x"}}, space);
    ids["$project"] = Seed("project", {{"title", "Pr"}}, space);
    ids["$person"] = Seed("person", {{"name", "Pe"}}, space);
    ids["$person2"] = Seed("person", {{"name", "Pf"}}, space);
    ids["$board"] =
        Seed("board", {{"title", "B"}, {"columns", {{{"id", "todo"}, {"title", "To do"}}}}}, space);
    ids["$card"] =
        Seed("card", {{"board", ids["$board"]}, {"column", "todo"}, {"note", "n"}, {"position", 1}},
             space);
    ids["$comment"] =
        Seed("comment", {{"target_kind", "task"}, {"target", ids["$task"]}, {"body", "c"}}, space);
    // The account's own comment: the matrix is about roles, not authors.
    EXPECT_TRUE(
        comments::StampCommentAuthor(*db_, kAccount, "comment.create", {{"id", ids["$comment"]}})
            .ok());
    ids["$reminder"] = Seed("reminder", {{"text", "R"}, {"at", kNow + 3'600'000}}, space);
    ids["$watcher"] = Seed("watcher", {{"target_kind", "task"}, {"target", ids["$task"]}}, space);
    ids["$routine"] = Seed("routine",
                           {{"title", "Ro"},
                            {"instruction", "x"},
                            {"schedule", {{"frequency", "daily"}, {"time", "08:00"}}}},
                           space);
    ids["$desk_list"] = Seed("desk_list", {{"title", "D"}}, space);
    ids["$desk_line"] = Seed("desk_list_item", {{"list", ids["$desk_list"]}, {"text", "L"}}, space);
    ids["$trashed"] = Seed("task", {{"title", "Old"}}, space);
    EXPECT_TRUE(
        hub::DirectMutationSink(*db_, kNow)({{"task.delete", {{"id", ids["$trashed"]}}}}).ok());
  }

  static json Fill(const json& v, const json& ids) {
    if (v.is_string() && ids.contains(v.get<std::string>())) return ids[v.get<std::string>()];
    if (v.is_array() || v.is_object()) {
      json out = v;
      for (auto& [key, item] : out.items()) item = Fill(item, ids);
      return out;
    }
    return v;
  }

  // Runs `call` as Apply does for the account: role check, then the run.
  Result<json> RunAs(const MatrixCall& call, const json& ids) {
    const tools::ToolDef& def = Tool(call.tool);
    ENSEMBLE_RETURN_IF_ERROR(CheckToolRole(*db_, kSpace, kAccount, def));
    return Run(call.tool, Fill(call.input, ids));
  }

  // Every row of every table the matrix touches, to see nothing changed.
  std::string Snapshot() {
    std::string out;
    for (const char* table :
         {"tasks", "pages", "projects", "people", "boards", "board_cards", "comments", "reminders",
          "watchers", "routines", "desk_lists", "desk_list_items", "board_layouts"}) {
      auto rows =
          db_->Query(std::string("SELECT id, version, deleted FROM ") + table + " ORDER BY id");
      EXPECT_TRUE(rows.ok()) << table;
      for (const auto& r : rows->rows) {
        out += store::AsText(r[0]) + ":" + std::to_string(store::AsInt(r[1])) + ":" +
               std::to_string(store::AsInt(r[2])) + "\n";
      }
    }
    return out;
  }

  void UseAccount() {
    ctx_.account_id = kAccount;
    tools::MutationSink sink = hub::DirectMutationSink(*db_, kNow, kAccount);
    ctx_.write = [this, sink](const std::vector<tools::Mutation>& m) {
      ++writes_;
      return sink(m);
    };
  }
};

// The record tools, each with an input naming the records SeedSpace makes.
const std::vector<MatrixCall>& Calls() {
  static const std::vector<MatrixCall> calls = {
      {"hub_create_tasks", {{"tasks", {{{"title", "N"}, {"projectId", "$project"}}}}}},
      {"hub_create_page", {{"title", "N"}, {"projectId", "$project"}}},
      {"hub_create_project", {{"title", "N"}, {"personIds", {"$person"}}}},
      {"hub_create_person", {{"name", "N"}}, false, false},
      {"hub_create_board", {{"title", "N"}}, false, false},
      {"hub_move_to_board", {{"board", "$board"}, {"itemId", "$task"}, {"column", "todo"}}},
      {"hub_remove_from_board", {{"board", "$board"}, {"itemId", "$card"}}},
      {"hub_delete_board", {{"board", "$board"}}},
      {"hub_create_reminder",
       {{"text", "N"}, {"at", "2026-12-02T09:00:00Z"}, {"itemKind", "task"}, {"itemId", "$task"}}},
      {"hub_create_routine",
       {{"title", "N"},
        {"instruction", "x"},
        {"schedule", {{"frequency", "daily"}, {"time", "08:00"}}}},
       false,
       false},
      {"hub_create_desk_list", {{"title", "N"}, {"lines", {"a"}}}, false, false},
      {"hub_update_task", {{"id", "$task"}, {"fields", {{"title", "T2"}}}}},
      {"hub_delete_tasks", {{"ids", {"$task"}}}},
      {"hub_update_page", {{"id", "$page"}, {"revision", 1}, {"mode", "append"}, {"body", "y"}}},
      {"hub_delete_pages", {{"ids", {"$page"}}}},
      {"hub_update_project", {{"id", "$project"}, {"fields", {{"title", "Pr2"}}}}},
      {"hub_delete_projects", {{"ids", {"$project"}}}},
      {"hub_update_person", {{"id", "$person"}, {"fields", {{"role", "Lead"}}}}},
      {"hub_delete_people", {{"ids", {"$person"}}}},
      {"hub_merge_people", {{"personId", "$person2"}, {"intoPersonId", "$person"}}},
      {"hub_update_board", {{"board", "$board"}, {"title", "B2"}}},
      {"hub_edit_layout", {{"version", 0}, {"tiles", json::array({{{"id", "$board"}, {"x", 1}}})}}},
      {"hub_manage_record",
       {{"kind", "task"}, {"id", "$task"}, {"action", "add_comment"}, {"text", "hi"}}},
      {"hub_manage_record",
       {{"kind", "task"}, {"id", "$task"}, {"action", "delete_comment"}, {"commentId", "$comment"}},
       true},
      {"hub_update_reminder", {{"id", "$reminder"}, {"dismissed", true}}},
      {"hub_delete_reminder", {{"id", "$reminder"}}},
      {"hub_create_watcher", {{"kind", "task"}, {"id", "$task"}}},
      {"hub_cancel_watcher", {{"id", "$watcher"}}},
      {"hub_update_routine", {{"id", "$routine"}, {"paused", true}}},
      {"hub_delete_routine", {{"id", "$routine"}}},
      {"hub_update_desk_list", {{"id", "$desk_list"}, {"check", {"$desk_line"}}}},
      {"hub_delete_desk_list", {{"id", "$desk_list"}}},
      {"hub_restore_from_trash", {{"kind", "task"}, {"id", "$trashed"}}},
  };
  return calls;
}

TEST_F(ToolMatrixTest, EachRoleRunsWhatItIsOfferedAndNothingElse) {
  for (Role role : {Role::kOwner, Role::kEditor, Role::kGuest, Role::kViewer}) {
    for (const MatrixCall& call : Calls()) {
      SetUp();  // A fresh store per call: each starts from the same records.
      UseAccount();
      ASSERT_TRUE(sync::SetMember(*db_, kSpace, kAccount, role).ok());
      json ids;
      SeedSpace(kSpace, ids);
      const std::string before = Snapshot();
      const bool allowed = sync::RoleAtLeast(role, Tool(call.tool).least_role);
      Result<json> r = RunAs(call, ids);
      const std::string where =
          std::string(sync::RoleName(role)) + " " + call.tool + " " + call.input.dump();
      if (allowed && !(role == Role::kGuest && call.store_refuses_guests)) {
        EXPECT_TRUE(r.ok()) << where << ": " << r.status().ToString();
        EXPECT_NE(Snapshot(), before) << where;
      } else {
        EXPECT_EQ(r.status().code(), codes::kForbidden) << where;
        EXPECT_EQ(Snapshot(), before) << where;
      }
    }
  }
}

// The record kind each placeholder names.
std::string KindOf(const std::string& placeholder) {
  static const std::map<std::string, std::string> kKinds = {{"$task", "task"},
                                                            {"$page", "page"},
                                                            {"$project", "project"},
                                                            {"$person", "person"},
                                                            {"$person2", "person"},
                                                            {"$board", "board"},
                                                            {"$card", "card"},
                                                            {"$comment", "comment"},
                                                            {"$reminder", "reminder"},
                                                            {"$watcher", "watcher"},
                                                            {"$routine", "routine"},
                                                            {"$desk_list", "desk_list"},
                                                            {"$desk_line", "desk_list_item"}};
  auto it = kKinds.find(placeholder);
  return it == kKinds.end() ? "" : it->second;
}

// The first placeholder `input` names, depth first in key order.
std::string FirstPlaceholder(const json& input) {
  if (input.is_string() && !KindOf(input.get<std::string>()).empty()) return input;
  if (input.is_array() || input.is_object()) {
    for (const auto& [key, item] : input.items()) {
      std::string found = FirstPlaceholder(item);
      if (!found.empty()) return found;
    }
  }
  return "";
}

// Stale input (issue 6): a call prepared and previewed, then the record it
// names moved to Trash by someone else before Apply. Applying it then
// changes nothing: no edit lands on a record in Trash, nothing is brought
// back, nothing is made that links to it.
TEST_F(ToolMatrixTest, ACallWhoseRecordWentToTrashBeforeApplyChangesNothing) {
  for (const MatrixCall& call : Calls()) {
    const std::string placeholder = FirstPlaceholder(call.input);
    if (placeholder.empty()) continue;
    SetUp();
    UseAccount();
    ASSERT_TRUE(sync::SetMember(*db_, kSpace, kAccount, Role::kOwner).ok());
    json ids;
    SeedSpace(kSpace, ids);
    const std::string where = std::string(call.tool) + " " + call.input.dump();
    json prepared;
    Result<std::string> preview = Preview(call.tool, Fill(call.input, ids), &prepared);
    if (!preview.ok() && preview.status().code() == codes::kInternal) {
      prepared = Fill(call.input, ids);  // A write with no preview of its own.
    } else {
      ASSERT_TRUE(preview.ok()) << where << ": " << preview.status().ToString();
    }
    ASSERT_TRUE(hub::DirectMutationSink(
                    *db_, kNow + 1)({{KindOf(placeholder) + ".delete", {{"id", ids[placeholder]}}}})
                    .ok())
        << where;
    const std::string before = Snapshot();
    Result<json> r = Run(call.tool, prepared);
    EXPECT_EQ(Snapshot(), before) << where << " answered "
                                  << (r.ok() ? r->dump() : r.status().ToString());
  }
}

TEST_F(ToolMatrixTest, IdsOfAnotherSpaceAreNotFoundEvenToTheirOwner) {
  UseAccount();
  ASSERT_TRUE(sync::SetMember(*db_, kSpace, kAccount, Role::kOwner).ok());
  ASSERT_TRUE(sync::SetMember(*db_, kOtherSpace, kAccount, Role::kOwner).ok());
  json here, there;
  SeedSpace(kSpace, here);
  SeedSpace(kOtherSpace, there);
  std::vector<MatrixCall> calls;
  for (const MatrixCall& call : Calls()) {
    if (call.names_ids) calls.push_back(call);
  }
  // The reads that take an id, too.
  calls.push_back({"hub_read_page", {{"id", "$page"}}});
  calls.push_back({"hub_read_board", {{"board", "$board"}}});
  calls.push_back({"hub_read_record_details", {{"kind", "project"}, {"id", "$project"}}});
  calls.push_back({"hub_item_context", {{"kind", "task"}, {"id", "$task"}}});
  const std::string before = Snapshot();
  for (const MatrixCall& call : calls) {
    Result<json> r = RunAs(call, there);
    EXPECT_FALSE(r.ok()) << call.tool << " " << call.input.dump();
    EXPECT_EQ(r.status().code(), codes::kNotFound) << call.tool << ": " << r.status().ToString();
  }
  EXPECT_EQ(Snapshot(), before);
  EXPECT_EQ(writes_, 0);
}

}  // namespace
}  // namespace ensemble::core::assistant
