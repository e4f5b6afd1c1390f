// Comments (core/comments/comment.h) over an in-memory store migrated as the
// hub's: add, edit, resolve, delete and restore through the hub's mutators;
// the _base rule; a target outside the comment's space refused as not found;
// and who may write a comment, role by role.

#include "core/comments/comment.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "core/hub/hub.h"
#include "core/store/sqlite_database.h"
#include "core/sync/authorization.h"

namespace ensemble::core::comments {
namespace {

using nlohmann::json;

constexpr char kTaskHere[] = "01JB0000000000000000000001";
constexpr char kTaskThere[] = "01JB0000000000000000000002";
constexpr char kTrashedTask[] = "01JB0000000000000000000003";
constexpr char kComment[] = "01JB00000000000000000000C1";
constexpr char kCommentThere[] = "01JB00000000000000000000C2";

class CommentTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = std::move(store::SqliteDatabase::Open(":memory:")).value();
    ASSERT_TRUE(hub::Migrate(*db_).ok());
    ASSERT_TRUE(
        Apply("task.create", {{"id", kTaskHere}, {"spaceId", "here"}, {"title", "a"}}).ok());
    ASSERT_TRUE(
        Apply("task.create", {{"id", kTaskThere}, {"spaceId", "there"}, {"title", "b"}}).ok());
    ASSERT_TRUE(
        Apply("task.create", {{"id", kTrashedTask}, {"spaceId", "here"}, {"title", "c"}}).ok());
    ASSERT_TRUE(Apply("task.delete", {{"id", kTrashedTask}}).ok());
  }

  // Runs one hub mutator in its own transaction, as a push does.
  Status Apply(const std::string& name, const json& args, json* details = nullptr) {
    const sync::Mutator* m = hub::Config().mutators->Find(name);
    EXPECT_NE(m, nullptr) << name;
    store::Transaction txn(*db_);
    sync::MutationContext ctx(*db_, ++now_);
    Status st = (*m)(ctx, args);
    if (details) *details = ctx.details();
    if (st.ok()) EXPECT_TRUE(txn.Commit().ok());
    return st;
  }

  json NewComment(const std::string& target = kTaskHere, const std::string& space = "here") {
    return {{"id", kComment},
            {"spaceId", space},
            {"target_kind", "task"},
            {"target", target},
            {"body", "Can we ship Friday?"}};
  }

  json Row(const std::string& id) {
    auto rows =
        db_->Query("SELECT body, resolved, deleted, version, author FROM comments WHERE id = $1",
                   {store::Value(id)});
    if (!rows.ok() || rows->empty()) return nullptr;
    const auto& r = rows->rows[0];
    return {{"body", store::AsText(r[0])},
            {"resolved", store::AsInt(r[1])},
            {"deleted", store::AsInt(r[2])},
            {"version", store::AsInt(r[3])},
            {"author", store::AsText(r[4])}};
  }

  int64_t CommentCount() {
    return store::AsInt(db_->Query("SELECT COUNT(*) FROM comments")->rows[0][0]);
  }

  std::unique_ptr<store::SqliteDatabase> db_;
  int64_t now_ = 1000;
};

// The five kinds a comment is on find their tables in the kinds the hub
// gives, not in a list of domains of their own; any other kind has none.
TEST(CommentTargets, TablesComeFromTheKindsGiven) {
  const records::RecordKinds kinds = hub::RecordKinds();
  EXPECT_EQ(TargetTable(kinds, "task"), "tasks");
  EXPECT_EQ(TargetTable(kinds, "person"), "people");
  EXPECT_EQ(TargetTable(kinds, "board"), "boards");
  EXPECT_EQ(TargetTable(kinds, "comment"), "");  // A kind, but not one comments are on.
  EXPECT_EQ(TargetTable(kinds, "nope"), "");
  EXPECT_EQ(TargetTable(records::RecordKinds{}, "task"), "");  // Kinds that lack it.
  EXPECT_TRUE(IsTargetKind("page"));
  EXPECT_FALSE(IsTargetKind("watcher"));
}

TEST_F(CommentTest, AddEditResolveDeleteAndRestore) {
  ASSERT_TRUE(Apply("comment.create", NewComment()).ok());
  auto listed = ListComments(*db_, "here", kTaskHere);
  ASSERT_TRUE(listed.ok());
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ((*listed)[0]["body"], "Can we ship Friday?");
  EXPECT_EQ((*listed)[0]["resolved"], 0);
  EXPECT_EQ((*listed)[0]["target_kind"], "task");

  ASSERT_TRUE(
      Apply("comment.update", {{"id", kComment}, {"fields", {{"body", "Ship Monday?"}}}}).ok());
  ASSERT_TRUE(Apply("comment.update", {{"id", kComment}, {"fields", {{"resolved", 1}}}}).ok());
  EXPECT_EQ(Row(kComment),
            json({{"body", "Ship Monday?"},
                  {"resolved", 1},
                  {"deleted", 0},
                  {"version", 3},
                  {"author", ""}}));  // The server stamps it; see the authorization tests.

  ASSERT_TRUE(Apply("comment.delete", {{"id", kComment}}).ok());
  EXPECT_EQ(Row(kComment)["deleted"], 1);
  EXPECT_TRUE(ListComments(*db_, "here", kTaskHere)->empty());
  // Editing it in Trash is reported, not lost.
  EXPECT_EQ(Apply("comment.update", {{"id", kComment}, {"fields", {{"body", "x"}}}}).code(),
            codes::kRecordDeleted);
  ASSERT_TRUE(Apply("comment.restore", {{"id", kComment}}).ok());
  EXPECT_EQ(ListComments(*db_, "here", kTaskHere)->size(), 1u);
  EXPECT_EQ(Row(kComment)["version"], 5);
}

TEST_F(CommentTest, BadCommentsAreRefusedAndWriteNothing) {
  const json bad[] = {
      {{"body", ""}},
      {{"body", "   "}},
      {{"body", std::string(kMaxBodyChars + 1, 'x')}},
      {{"resolved", 2}},
      {{"target_kind", "meeting"}},
      {{"target", "not-an-id"}},
  };
  for (const json& change : bad) {
    json args = NewComment();
    args.update(change);
    EXPECT_EQ(Apply("comment.create", args).code(), codes::kInvalidArgument) << change.dump();
  }
  json no_target = NewComment();
  no_target.erase("target");
  EXPECT_EQ(Apply("comment.create", no_target).code(), codes::kInvalidArgument);
  EXPECT_EQ(CommentCount(), 0);
}

TEST_F(CommentTest, EditsFollowTheBaseRule) {
  ASSERT_TRUE(Apply("comment.create", NewComment()).ok());
  ASSERT_TRUE(Apply("comment.update", {{"id", kComment},
                                       {"fields", {{"body", "Theirs"}}},
                                       {"base", {{"body", "Can we ship Friday?"}}}})
                  .ok());
  // Based on the old body, a second edit would overwrite theirs.
  json details;
  Status st = Apply("comment.update",
                    {{"id", kComment},
                     {"fields", {{"body", "Mine"}}},
                     {"base", {{"body", "Can we ship Friday?"}}}},
                    &details);
  EXPECT_EQ(st.code(), codes::kSaveConflict);
  EXPECT_EQ(details["fields"], json({"body"}));
  EXPECT_EQ(details["current"]["body"], "Theirs");
  // Resolving it, based on what it was, touches another field and merges.
  ASSERT_TRUE(Apply("comment.update",
                    {{"id", kComment}, {"fields", {{"resolved", 1}}}, {"base", {{"resolved", 0}}}})
                  .ok());
  EXPECT_EQ(Row(kComment)["body"], "Theirs");
  EXPECT_EQ(Row(kComment)["resolved"], 1);
  // Without base, a stale expectedVersion is a conflict.
  EXPECT_EQ(Apply("comment.update",
                  {{"id", kComment}, {"fields", {{"body", "x"}}}, {"expectedVersion", 1}})
                .code(),
            codes::kVersionConflict);
}

TEST_F(CommentTest, ATargetOutsideTheSpaceIsNotFound) {
  Status st = Apply("comment.create", NewComment(kTaskThere));
  EXPECT_EQ(st.code(), codes::kNotFound);
  EXPECT_EQ(st.message(), std::string("no task with id ") + kTaskThere);
  // In Trash, nowhere, or of another kind: the same answer.
  EXPECT_EQ(Apply("comment.create", NewComment(kTrashedTask)).code(), codes::kNotFound);
  EXPECT_EQ(Apply("comment.create", NewComment("01JB0000000000000000000009")).code(),
            codes::kNotFound);
  json as_page = NewComment();
  as_page["target_kind"] = "page";
  EXPECT_EQ(Apply("comment.create", as_page).code(), codes::kNotFound);
  EXPECT_EQ(CommentCount(), 0);
  // The same target, from its own space, is fine.
  json there = NewComment(kTaskThere, "there");
  there["id"] = kCommentThere;
  EXPECT_TRUE(Apply("comment.create", there).ok());
}

TEST_F(CommentTest, ACommentStaysOnItsRecord) {
  ASSERT_TRUE(Apply("comment.create", NewComment()).ok());
  EXPECT_EQ(
      Apply("comment.update", {{"id", kComment}, {"fields", {{"target", kTaskThere}}}}).code(),
      codes::kInvalidArgument);
  EXPECT_EQ(
      Apply("comment.update", {{"id", kComment}, {"fields", {{"target_kind", "page"}}}}).code(),
      codes::kInvalidArgument);
  EXPECT_EQ(Row(kComment)["version"], 1);
}

TEST_F(CommentTest, CommentsAreSyncedAndInTheMigration) {
  EXPECT_NE(hub::Config().FindKind("comment"), nullptr);
  bool found = false;
  for (const store::Migration& m : hub::Migrations()) {
    if (m.version == 15) found = m.sql.find("CREATE TABLE comments") != std::string_view::npos;
  }
  EXPECT_TRUE(found);
}

// Role x comment mutation, in the account's space and in another.
class CommentAuthorizationTest : public CommentTest,
                                 public ::testing::WithParamInterface<sync::Role> {
 protected:
  void SetUp() override {
    CommentTest::SetUp();
    ASSERT_TRUE(sync::SetMember(*db_, "here", "me", GetParam()).ok());
    ASSERT_TRUE(sync::SetMember(*db_, "there", "someone", sync::Role::kOwner).ok());
    ASSERT_TRUE(Apply("comment.create", NewComment()).ok());
    ASSERT_TRUE(StampCommentAuthor(*db_, "me", "comment.create", NewComment()).ok());
    json there = NewComment(kTaskThere, "there");
    there["id"] = kCommentThere;
    ASSERT_TRUE(Apply("comment.create", there).ok());
  }

  std::string Check(std::string_view name, const json& args) {
    Status st = sync::AuthorizeMutation(*db_, hub::Config(), "me", name, args);
    return st.ok() ? "ok" : st.code();
  }
};

TEST_P(CommentAuthorizationTest, EditorsAndGuestsCommentViewersDoNot) {
  json add = NewComment();
  add["id"] = "01JB00000000000000000000C3";
  const sync::Role role = GetParam();
  const bool writer = role == sync::Role::kOwner || role == sync::Role::kEditor;
  const char* content = role == sync::Role::kViewer ? "FORBIDDEN" : "ok";
  EXPECT_EQ(Check("comment.create", add), content);
  EXPECT_EQ(Check("comment.update", {{"id", kComment}, {"fields", {{"resolved", 1}}}}), content);
  EXPECT_EQ(Check("comment.delete", {{"id", kComment}}), writer ? "ok" : "FORBIDDEN");
  EXPECT_EQ(Check("comment.restore", {{"id", kComment}}), writer ? "ok" : "FORBIDDEN");

  // Another space is never writable, and its comment is not found.
  json there = NewComment(kTaskThere, "there");
  there["id"] = "01JB00000000000000000000C4";
  EXPECT_EQ(Check("comment.create", there), "FORBIDDEN");
  EXPECT_EQ(Check("comment.update", {{"id", kCommentThere}, {"fields", {{"body", "x"}}}}),
            "NOT_FOUND");
  EXPECT_EQ(Check("comment.delete", {{"id", kCommentThere}}), "NOT_FOUND");
}

TEST_P(CommentAuthorizationTest, AnothersCommentIsTheirsToEditAndTheOwnersToDelete) {
  ASSERT_TRUE(StampCommentAuthor(*db_, "other", "comment.create", NewComment()).ok());
  const sync::Role role = GetParam();
  const char* content = role == sync::Role::kViewer ? "FORBIDDEN" : "ok";
  EXPECT_EQ(Check("comment.update", {{"id", kComment}, {"fields", {{"body", "mine now"}}}}),
            "FORBIDDEN");
  EXPECT_EQ(Check("comment.update", {{"id", kComment}, {"fields", {{"resolved", 1}}}}), content);
  const char* owner_only = role == sync::Role::kOwner ? "ok" : "FORBIDDEN";
  EXPECT_EQ(Check("comment.delete", {{"id", kComment}}), owner_only);
  EXPECT_EQ(Check("comment.restore", {{"id", kComment}}), owner_only);
  // The server stamps only creates, and the writer of one.
  ASSERT_TRUE(StampCommentAuthor(*db_, "me", "comment.update", {{"id", kComment}}).ok());
  EXPECT_EQ(Row(kComment)["author"], "other");
}

INSTANTIATE_TEST_SUITE_P(Roles, CommentAuthorizationTest,
                         ::testing::Values(sync::Role::kOwner, sync::Role::kEditor,
                                           sync::Role::kGuest, sync::Role::kViewer),
                         [](const auto& info) { return std::string(sync::RoleName(info.param)); });

}  // namespace
}  // namespace ensemble::core::comments
