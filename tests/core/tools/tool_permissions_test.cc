// The role × tool matrix (spec 000 §7, 002 §2) over every hub tool: what each
// role is offered, from the tables' entries (ForGuests, ForOwner) and the
// rules by area in core/tools/tool_permissions.cc.

#include "core/tools/tool_permissions.h"

#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>

#include "core/assistant/hub_tools.h"
#include "core/hub/hub.h"
#include "core/hub/hub_tools.h"
#include "core/skills/skill_tools.h"
#include "core/store/sqlite_database.h"

namespace ensemble::core::tools {
namespace {

using sync::Role;

std::set<std::string> OfferedWrites(Role role) {
  tools::ToolFilter filter;
  filter.role = role;
  filter.enabled_modules = {std::string(skills::kModule)};
  std::set<std::string> out;
  for (const tools::ToolDef* def : hub::HubToolRegistry().ToolsFor(filter)) {
    if (def->is_write) out.insert(def->name);
  }
  return out;
}

std::set<std::string> AllWrites() {
  std::set<std::string> out;
  for (const std::string& name : hub::HubToolRegistry().names()) {
    if (hub::HubToolRegistry().Find(name)->is_write) out.insert(name);
  }
  return out;
}

TEST(ToolPermissions, ViewersGetNoWriteToolsAndEveryoneReads) {
  EXPECT_TRUE(OfferedWrites(Role::kViewer).empty());
  tools::ToolFilter viewer;
  viewer.role = Role::kViewer;
  viewer.enabled_modules = {std::string(skills::kModule)};
  size_t reads = 0;
  for (const std::string& name : hub::HubToolRegistry().names()) {
    reads += hub::HubToolRegistry().Find(name)->is_write ? 0 : 1;
  }
  EXPECT_EQ(hub::HubToolRegistry().ToolsFor(viewer).size(), reads);
}

TEST(ToolPermissions, OwnersGetEveryWrite) { EXPECT_EQ(OfferedWrites(Role::kOwner), AllWrites()); }

TEST(ToolPermissions, EditorsGetSharedRecordsButNotTheOwnersOwn) {
  const std::set<std::string> editor = OfferedWrites(Role::kEditor);
  for (const char* name :
       {"hub_create_tasks", "hub_delete_tasks", "hub_create_board", "hub_delete_board",
        "hub_move_to_board", "hub_update_project", "hub_delete_pages", "hub_create_person",
        "hub_restore_from_trash", "hub_update_settings"}) {
    EXPECT_TRUE(editor.count(name)) << name;
  }
  for (const char* name : {"hub_create_reminder", "hub_cancel_watcher", "hub_create_routine",
                           "hub_edit_layout", "hub_import_people"}) {
    EXPECT_FALSE(editor.count(name)) << name;
  }
  // Every write the owner has and the editor lacks is the owner's own.
  for (const std::string& name : AllWrites()) {
    if (editor.count(name)) continue;
    EXPECT_EQ(hub::HubToolRegistry().Find(name)->least_role, Role::kOwner) << name;
  }
}

TEST(ToolPermissions, GuestsGetContentEditsOnly) {
  const std::set<std::string> guest = OfferedWrites(Role::kGuest);
  for (const char* name : {"hub_create_tasks", "hub_update_task", "hub_create_page",
                           "hub_update_page", "hub_manage_record", "hub_update_settings"}) {
    EXPECT_TRUE(guest.count(name)) << name;
  }
  // No deletes, restores or structure.
  for (const std::string& name : guest) {
    EXPECT_EQ(name.find("delete"), std::string::npos) << name;
    EXPECT_EQ(name.find("board"), std::string::npos) << name;
    EXPECT_EQ(name.find("project"), std::string::npos) << name;
  }
  EXPECT_FALSE(guest.count("hub_restore_from_trash"));
  // Each role holds everything the one below it may do.
  const std::set<std::string> editor = OfferedWrites(Role::kEditor);
  for (const std::string& name : guest) EXPECT_TRUE(editor.count(name)) << name;
}

TEST(ToolPermissions, CheckToolRoleReadsTheMembership) {
  auto db = std::move(store::SqliteDatabase::Open(":memory:")).value();
  ASSERT_TRUE(hub::Migrate(*db).ok());
  ASSERT_TRUE(sync::SetMember(*db, "s1", "ana", Role::kGuest).ok());
  const tools::ToolDef& create = *hub::HubToolRegistry().Find("hub_create_tasks");
  const tools::ToolDef& remove = *hub::HubToolRegistry().Find("hub_delete_tasks");
  const tools::ToolDef& list = *hub::HubToolRegistry().Find("hub_list_tasks");
  EXPECT_TRUE(CheckToolRole(*db, "s1", "ana", create).ok());
  Status refused = CheckToolRole(*db, "s1", "ana", remove);
  EXPECT_EQ(refused.code(), codes::kForbidden);
  EXPECT_NE(refused.message().find("hub_delete_tasks"), std::string::npos);
  EXPECT_TRUE(CheckToolRole(*db, "s1", "ana", list).ok());
  // Another space: not found, whatever the tool, so nothing is confirmed.
  EXPECT_EQ(CheckToolRole(*db, "s2", "ana", list).code(), codes::kNotFound);
  // The trusted local person (no account) runs everything.
  EXPECT_TRUE(CheckToolRole(*db, "s2", "", remove).ok());
}

}  // namespace
}  // namespace ensemble::core::tools
