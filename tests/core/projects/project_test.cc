// The project record (core/projects/project.h): its added fields (start,
// due, people, deliverables) through the generic mutators, the deliverables
// shape check, and the JSON fields read back as JSON values.

#include "core/projects/project.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "core/hub/hub.h"
#include "core/records/record_mutators.h"
#include "core/store/sqlite_database.h"
#include "core/sync/mutator.h"

namespace ensemble::core::projects {
namespace {

using nlohmann::json;

constexpr char kId[] = "01JB0000000000000000000001";
constexpr char kDeliverable[] = "01JB0000000000000000000009";
constexpr char kPerson[] = "01JB0000000000000000000005";

class ProjectTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = std::move(store::SqliteDatabase::Open(":memory:")).value();
    ASSERT_TRUE(hub::Migrate(*db_).ok());
  }

  Status Run(const std::string& name, const json& args) {
    const sync::Mutator* m = hub::Config().mutators->Find(name);
    if (!m) return Status(codes::kUnknownMutation, name);
    store::Transaction txn(*db_);
    sync::MutationContext ctx(*db_, 1000);
    Status st = (*m)(ctx, args);
    if (st.ok()) EXPECT_TRUE(txn.Commit().ok());
    return st;
  }

  json Fields() {
    auto row = records::ReadRecord(kProjectKind, *db_, kId);
    EXPECT_TRUE(row.ok() && row->has_value());
    return row.ok() && row->has_value() ? records::FieldsOf(kProjectKind, **row) : json();
  }

  std::unique_ptr<store::SqliteDatabase> db_;
};

TEST_F(ProjectTest, NewProjectHasNoDatesPeopleOrDeliverables) {
  ASSERT_TRUE(Run("project.create", {{"id", kId}, {"spaceId", "s"}, {"title", "Launch"}}).ok());
  json f = Fields();
  EXPECT_EQ(f["status"], "active");
  EXPECT_TRUE(f["start"].is_null());
  EXPECT_TRUE(f["due"].is_null());
  EXPECT_EQ(f["people"], json::array());
  EXPECT_EQ(f["deliverables"], json::array());
}

TEST_F(ProjectTest, DeliverablesAndPeopleReadBackAsJson) {
  const json deliverables = {
      {{"id", kDeliverable}, {"title", "Beta"}, {"due", "2026-12-15"}, {"done", false}}};
  ASSERT_TRUE(Run("project.create", {{"id", kId},
                                     {"spaceId", "s"},
                                     {"title", "Launch"},
                                     {"due", "2027-01-31"},
                                     {"people", {kPerson}},
                                     {"deliverables", deliverables}})
                  .ok());
  json f = Fields();
  EXPECT_EQ(f["due"], "2027-01-31");
  EXPECT_EQ(f["people"], json::array({kPerson}));
  EXPECT_EQ(f["deliverables"], deliverables);

  json done = deliverables;
  done[0]["done"] = true;
  ASSERT_TRUE(Run("project.update", {{"id", kId},
                                     {"fields", {{"deliverables", done}, {"status", "done"}}},
                                     {"base", {{"deliverables", deliverables}}}})
                  .ok());
  EXPECT_EQ(Fields()["deliverables"], done);
  EXPECT_EQ(Fields()["status"], "done");
}

TEST_F(ProjectTest, DeliverablesOfTheWrongShapeAreRefused) {
  ASSERT_TRUE(Run("project.create", {{"id", kId}, {"spaceId", "s"}, {"title", "Launch"}}).ok());
  const json bad[] = {
      json::array({{{"title", "No id"}}}),
      json::array({{{"id", kDeliverable}, {"title", "  "}}}),
      json::array({{{"id", kDeliverable}, {"title", "A"}}, {{"id", kDeliverable}, {"title", "B"}}}),
      json::array({{{"id", kDeliverable}, {"title", "A"}, {"due", "soon"}}}),
      json::array({{{"id", kDeliverable}, {"title", "A"}, {"owner", "me"}}}),
      json::array({{{"id", kDeliverable}, {"title", "A"}, {"done", "yes"}}}),
  };
  for (const json& d : bad) {
    Status st = Run("project.update", {{"id", kId}, {"fields", {{"deliverables", d}}}});
    EXPECT_EQ(st.code(), codes::kInvalidArgument) << d.dump();
  }
  EXPECT_EQ(Fields()["deliverables"], json::array());
}

TEST(ProjectDeliverables, AtMostTheCap) {
  json many = json::array();
  for (size_t i = 0; i <= kMaxDeliverables; ++i) {
    std::string id =
        "01JB00000000000000000000" + std::string(i < 10 ? "0" : "") + std::to_string(i);
    many.push_back({{"id", id}, {"title", "D"}});
  }
  EXPECT_EQ(CheckDeliverables(many).code(), codes::kInvalidArgument);
  many.erase(many.begin());
  EXPECT_TRUE(CheckDeliverables(many).ok()) << CheckDeliverables(many).ToString();
}

}  // namespace
}  // namespace ensemble::core::projects
