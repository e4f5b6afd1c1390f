// The page record (core/pages/page.h): the revision rule of page.update (a
// stale revision refused readably with nothing written; a text change bumps
// the revision) and the Markdown blocks the tools edit.

#include "core/pages/page.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "core/base/id.h"
#include "core/hub/hub.h"
#include "core/records/record_mutators.h"
#include "core/store/sqlite_database.h"
#include "core/sync/mutator.h"

namespace ensemble::core::pages {
namespace {

using nlohmann::json;

constexpr char kId[] = "01JB0000000000000000000001";
constexpr char kProject[] = "01JB0000000000000000000007";

class PageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = std::move(store::SqliteDatabase::Open(":memory:")).value();
    ASSERT_TRUE(hub::Migrate(*db_).ok());
    ASSERT_TRUE(
        Run("page.create", {{"id", kId}, {"spaceId", "s"}, {"title", "Notes"}, {"body", "a"}})
            .ok());
  }

  Status Run(const std::string& name, const json& args, json* details = nullptr) {
    const sync::Mutator* m = hub::Config().mutators->Find(name);
    if (!m) return Status(codes::kUnknownMutation, name);
    store::Transaction txn(*db_);
    sync::MutationContext ctx(*db_, 1000);
    Status st = (*m)(ctx, args);
    if (details) *details = ctx.details();
    if (st.ok()) EXPECT_TRUE(txn.Commit().ok());
    return st;
  }

  json Row() {
    auto row = records::ReadRecord(kPageKind, *db_, kId);
    EXPECT_TRUE(row.ok() && row->has_value());
    return row.ok() && row->has_value() ? **row : json();
  }

  std::unique_ptr<store::SqliteDatabase> db_;
};

TEST_F(PageTest, NewPageIsRevisionOne) {
  EXPECT_EQ(Row()["revision"], 1);
  EXPECT_TRUE(Row()["project"].is_null());
  EXPECT_TRUE(Row()["parent"].is_null());
}

TEST_F(PageTest, BodyChangeBumpsTheRevision) {
  ASSERT_TRUE(Run("page.update", {{"id", kId}, {"fields", {{"body", "b"}}}, {"revision", 1}}).ok());
  EXPECT_EQ(Row()["revision"], 2);
  ASSERT_TRUE(Run("page.update", {{"id", kId}, {"fields", {{"body", "c"}}}}).ok());
  EXPECT_EQ(Row()["revision"], 3);
  // A move to a project says nothing new: an open editor stays current.
  ASSERT_TRUE(Run("page.update", {{"id", kId}, {"fields", {{"project", kProject}}}}).ok());
  EXPECT_EQ(Row()["revision"], 3);
  EXPECT_EQ(Row()["project"], kProject);
}

TEST_F(PageTest, StaleRevisionIsRefusedReadablyAndWritesNothing) {
  ASSERT_TRUE(Run("page.update", {{"id", kId}, {"fields", {{"body", "newer"}}}}).ok());
  const json before = Row();
  json details;
  Status st =
      Run("page.update", {{"id", kId}, {"fields", {{"body", "older"}}}, {"revision", 1}}, &details);
  EXPECT_EQ(st.code(), codes::kVersionConflict);
  EXPECT_EQ(st.message().rfind("This page changed since you opened it", 0), 0u) << st.message();
  EXPECT_EQ(details["revision"], 2);
  EXPECT_EQ(details["current"]["body"], "newer");
  EXPECT_EQ(Row(), before);
}

TEST_F(PageTest, RevisionIsNotAFieldAnUpdateSets) {
  EXPECT_EQ(Run("page.update", {{"id", kId}, {"fields", {{"revision", 9}}}}).code(),
            codes::kInvalidArgument);
  EXPECT_EQ(Row()["revision"], 1);
}

TEST(PageBlocks, SplitOnBlankLinesKeepingCodeWhole) {
  const std::string body = "# Title\n\nFirst para\nstill first\n\n\n```\ncode\n\nmore\n```\n- a";
  auto blocks = SplitBlocks(kId, body);
  ASSERT_EQ(blocks.size(), 3u);
  EXPECT_EQ(blocks[0].markdown, "# Title");
  EXPECT_EQ(blocks[1].markdown, "First para\nstill first");
  EXPECT_EQ(blocks[2].markdown, "```\ncode\n\nmore\n```\n- a");
  for (const Block& b : blocks) EXPECT_TRUE(IsValidId(b.id)) << b.id;
  EXPECT_NE(blocks[0].id, blocks[1].id);
  EXPECT_EQ(blocks[1].id, BlockId(kId, 1));
  EXPECT_TRUE(SplitBlocks(kId, "").empty());
  EXPECT_EQ(JoinBlocks(SplitBlocks(kId, "a\n\nb")), "a\n\nb");
}

}  // namespace
}  // namespace ensemble::core::pages
