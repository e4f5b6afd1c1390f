// The authorization table: role x mutation x own/other space. Every cell is a
// real check against a store holding two spaces.

#include "core/sync/authorization.h"

#include <gtest/gtest.h>

#include "core/hub/hub.h"
#include "core/store/sqlite_database.h"
#include "core/sync/mutator.h"
#include "core/sync/server_sync.h"

namespace ensemble::core::sync {
namespace {

using nlohmann::json;

constexpr char kTaskHere[] = "01JB0000000000000000000001";
constexpr char kTaskThere[] = "01JB0000000000000000000002";

class AuthorizationTest : public ::testing::TestWithParam<Role> {
 protected:
  void SetUp() override {
    db_ = std::move(store::SqliteDatabase::Open(":memory:")).value();
    ASSERT_TRUE(hub::Migrate(*db_).ok());
    ASSERT_TRUE(SetMember(*db_, "here", "me", GetParam()).ok());
    ASSERT_TRUE(SetMember(*db_, "there", "someone", Role::kOwner).ok());
    MutationContext ctx(*db_, 1);
    const Mutator* create = hub::Config().mutators->Find("task.create");
    ASSERT_TRUE((*create)(ctx, {{"id", kTaskHere}, {"spaceId", "here"}, {"title", "a"}}).ok());
    ASSERT_TRUE((*create)(ctx, {{"id", kTaskThere}, {"spaceId", "there"}, {"title", "b"}}).ok());
  }

  std::string Check(std::string_view name, const json& args) {
    Status st = AuthorizeMutation(*db_, hub::Config(), "me", name, args);
    return st.ok() ? "ok" : st.code();
  }

  std::unique_ptr<store::SqliteDatabase> db_;
};

struct Expect {
  const char* create_here;
  const char* update_here;
  const char* delete_here;
};

Expect ExpectFor(Role role) {
  switch (role) {
    case Role::kOwner:
    case Role::kEditor:
      return {"ok", "ok", "ok"};
    case Role::kGuest:
      return {"ok", "ok", "FORBIDDEN"};
    case Role::kViewer:
      return {"FORBIDDEN", "FORBIDDEN", "FORBIDDEN"};
  }
  return {};
}

TEST_P(AuthorizationTest, OwnSpaceFollowsTheRole) {
  Expect e = ExpectFor(GetParam());
  EXPECT_EQ(Check("task.create",
                  {{"id", "01JB0000000000000000000003"}, {"spaceId", "here"}, {"title", "c"}}),
            e.create_here);
  EXPECT_EQ(Check("task.update", {{"id", kTaskHere}, {"fields", {{"title", "x"}}}}), e.update_here);
  EXPECT_EQ(Check("task.delete", {{"id", kTaskHere}}), e.delete_here);
}

TEST_P(AuthorizationTest, AnotherSpaceIsNeverWritable) {
  EXPECT_EQ(Check("task.create",
                  {{"id", "01JB0000000000000000000003"}, {"spaceId", "there"}, {"title", "c"}}),
            "FORBIDDEN");
  // The id is real but in a space "me" cannot read: answered as not found.
  EXPECT_EQ(Check("task.update", {{"id", kTaskThere}, {"fields", {{"title", "x"}}}}), "NOT_FOUND");
  EXPECT_EQ(Check("task.delete", {{"id", kTaskThere}}), "NOT_FOUND");
}

TEST_P(AuthorizationTest, GuestsTouchContentOnly) {
  const bool writer = GetParam() == Role::kOwner || GetParam() == Role::kEditor;
  const char* structural = writer ? "ok" : "FORBIDDEN";
  EXPECT_EQ(Check("project.create",
                  {{"id", "01JB0000000000000000000004"}, {"spaceId", "here"}, {"title", "p"}}),
            structural);
  EXPECT_EQ(Check("board.create",
                  {{"id", "01JB0000000000000000000005"}, {"spaceId", "here"}, {"title", "b"}}),
            structural);
  EXPECT_EQ(Check("page.create",
                  {{"id", "01JB0000000000000000000006"}, {"spaceId", "here"}, {"title", "p"}}),
            GetParam() == Role::kViewer ? "FORBIDDEN" : "ok");
  EXPECT_EQ(Check("task.restore", {{"id", kTaskHere}}), writer ? "ok" : "FORBIDDEN");
}

TEST_P(AuthorizationTest, PushAsAnAccountRejectsPerMutationAndPullShowsOnlyItsSpaces) {
  ServerSync server(hub::Config());
  json request = {{"clientGroupId", "g"},
                  {"clientId", "c"},
                  {"mutations",
                   {{{"id", 1},
                     {"name", "task.update"},
                     {"args", {{"id", kTaskThere}, {"fields", {{"title", "hijacked"}}}}},
                     {"clientTime", 5}},
                    {{"id", 2},
                     {"name", "task.update"},
                     {"args", {{"id", kTaskHere}, {"fields", {{"title", "mine"}}}}},
                     {"clientTime", 6}}}}};
  auto response = server.Push(*db_, request, "me");
  ASSERT_TRUE(response.ok()) << response.status().ToString();
  EXPECT_EQ((*response)["results"][0]["code"], "NOT_FOUND");
  const bool can_edit = GetParam() != Role::kViewer;
  EXPECT_EQ((*response)["results"][1]["status"], can_edit ? "applied" : "rejected");
  EXPECT_EQ((*response)["lastMutationId"], 2);  // Refusals are consumed, not blocking.
  auto other = db_->Query("SELECT title FROM tasks WHERE id = $1", {store::Value(kTaskThere)});
  EXPECT_EQ(store::AsText(other->rows[0][0]), "b");

  json pull = *server.Pull(*db_, "me", "c", 0);
  std::vector<std::string> ids;
  for (const json& c : pull["changes"]) ids.push_back(c["row"]["id"]);
  // Rows reach pulls once a server change has stamped them.
  if (can_edit) EXPECT_EQ(ids, std::vector<std::string>{kTaskHere});
  for (const std::string& id : ids) EXPECT_NE(id, kTaskThere);
}

TEST_P(AuthorizationTest, AClientIdBelongsToTheAccountThatFirstPushedAsIt) {
  ServerSync server(hub::Config());
  auto push = [&](const std::string& account, int64_t id, const std::string& title) {
    json request = {{"clientGroupId", "g"},
                    {"clientId", "shared-client"},
                    {"mutations",
                     {{{"id", id},
                       {"name", "task.update"},
                       {"args", {{"id", kTaskThere}, {"fields", {{"title", title}}}}},
                       {"clientTime", 5}}}}};
    return server.Push(*db_, request, account);
  };
  ASSERT_TRUE(push("someone", 1, "by its owner").ok());
  // "me" cannot consume, skip or replay someone's mutation ids, nor read how
  // far their client got: the whole request is refused and changes nothing.
  auto hijack = push("me", 2, "hijacked");
  ASSERT_FALSE(hijack.ok());
  EXPECT_EQ(hijack.status().code(), codes::kForbidden);
  auto pull = server.Pull(*db_, "me", "shared-client", 0);
  ASSERT_FALSE(pull.ok());
  EXPECT_EQ(pull.status().code(), codes::kForbidden);
  auto title = db_->Query("SELECT title FROM tasks WHERE id = $1", {store::Value(kTaskThere)});
  EXPECT_EQ(store::AsText(title->rows[0][0]), "by its owner");
  auto owner = push("someone", 2, "again");
  ASSERT_TRUE(owner.ok()) << owner.status().ToString();
  EXPECT_EQ((*owner)["lastMutationId"], 2);
  // The single local person (a trusted push) is not an account: no check.
  EXPECT_TRUE(server
                  .Push(*db_, {{"clientGroupId", "g"},
                               {"clientId", "shared-client"},
                               {"mutations", json::array()}})
                  .ok());
}

TEST_P(AuthorizationTest, AMissingRecordIsLeftToTheMutator) {
  EXPECT_EQ(
      Check("task.update", {{"id", "01JB0000000000000000000009"}, {"fields", {{"title", "x"}}}}),
      "ok");
}

INSTANTIATE_TEST_SUITE_P(Roles, AuthorizationTest,
                         ::testing::Values(Role::kOwner, Role::kEditor, Role::kGuest,
                                           Role::kViewer),
                         [](const auto& info) { return std::string(RoleName(info.param)); });

TEST(ReadersOfChanges, AreTheMembersOfTheSpacesAPushWrote) {
  auto db = std::move(store::SqliteDatabase::Open(":memory:")).value();
  ASSERT_TRUE(hub::Migrate(*db).ok());
  ASSERT_TRUE(SetMember(*db, "a", "ann", Role::kOwner).ok());
  ASSERT_TRUE(SetMember(*db, "a", "vic", Role::kViewer).ok());
  ASSERT_TRUE(SetMember(*db, "b", "bob", Role::kOwner).ok());
  ServerSync server(hub::Config());
  auto push = [&](const std::string& account, const std::string& client, const std::string& space,
                  const std::string& task) {
    json request = {{"clientGroupId", "g"},
                    {"clientId", client},
                    {"mutations",
                     {{{"id", 1},
                       {"name", "task.create"},
                       {"args", {{"id", task}, {"spaceId", space}, {"title", "t"}}},
                       {"clientTime", 5}}}}};
    return server.Apply(*db, request, &account);
  };
  auto in_a = push("ann", "c1", "a", kTaskHere);
  ASSERT_TRUE(in_a.ok()) << in_a.status().ToString();
  ASSERT_GT(in_a->version, 0);
  EXPECT_EQ(in_a->first_version, in_a->version);
  auto readers = ReadersOfChanges(*db, hub::Config(), in_a->first_version, in_a->version);
  ASSERT_TRUE(readers.ok());
  EXPECT_EQ(*readers, (std::vector<std::string>{"ann", "vic"}));  // Not bob.
  auto in_b = push("bob", "c2", "b", kTaskThere);
  ASSERT_TRUE(in_b.ok());
  EXPECT_EQ(*ReadersOfChanges(*db, hub::Config(), in_b->first_version, in_b->version),
            std::vector<std::string>{"bob"});
  EXPECT_EQ(*ReadersOfChanges(*db, hub::Config(), in_a->first_version, in_b->version),
            (std::vector<std::string>{"ann", "bob", "vic"}));
  // A push that applied nothing reports no range.
  auto refused = push("bob", "c3", "a", "01JB0000000000000000000003");
  ASSERT_TRUE(refused.ok());
  EXPECT_EQ(refused->version, 0);
  EXPECT_EQ(refused->first_version, 0);
}

TEST(Roles, NamesRoundTrip) {
  for (Role r : {Role::kOwner, Role::kEditor, Role::kGuest, Role::kViewer}) {
    EXPECT_EQ(ParseRole(RoleName(r)), r);
  }
  EXPECT_FALSE(ParseRole("admin").has_value());
}

}  // namespace
}  // namespace ensemble::core::sync
