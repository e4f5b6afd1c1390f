// hub_restore_from_trash (core/trash/trash_tool_runs.h): a record in Trash
// of the turn's space comes back, with Undo; live records, other spaces'
// records and kinds the hub does not sync are refused, writing nothing.

#include "core/trash/trash_tool_runs.h"

#include <gmock/gmock.h>

#include "core/hub/hub_tools.h"
#include "core/sync/authorization.h"
#include "tests/core/tools/tool_run_fixture.h"

namespace ensemble::core::trash {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

constexpr char kTask[] = "01JB0000000000000000000001";
constexpr char kOtherTask[] = "01JB0000000000000000000002";

class TrashToolRunsTest : public tools::ToolRunTest {
 protected:
  void SetUp() override {
    tools::ToolRunTest::SetUp();
    Mutate({{"task.create", {{"id", kTask}, {"spaceId", kSpace}, {"title", "Pay rent"}}},
            {"task.delete", {{"id", kTask}}},
            {"task.create", {{"id", kOtherTask}, {"spaceId", kOtherSpace}, {"title", "Theirs"}}},
            {"task.delete", {{"id", kOtherTask}}}});
  }
  int64_t Deleted(const char* id) {
    auto rows = db_->Query("SELECT deleted FROM tasks WHERE id = $1", {store::Value(id)});
    return rows.ok() && !rows->empty() ? store::AsInt(rows->rows[0][0]) : -1;
  }
};

TEST_F(TrashToolRunsTest, RestoresARecordOfTheSpaceWithUndo) {
  Result<std::string> preview =
      Preview("hub_restore_from_trash", {{"kind", "task"}, {"id", kTask}});
  ASSERT_TRUE(preview.ok()) << preview.status().ToString();
  EXPECT_EQ(*preview, "Restore “Pay rent” from Trash");
  json done = Ok("hub_restore_from_trash", {{"kind", "task"}, {"id", kTask}});
  EXPECT_EQ(done["summary"], "Restored “Pay rent” from Trash");
  EXPECT_EQ(Deleted(kTask), 0);
  // Undo puts it back in Trash.
  ASSERT_TRUE(done["undo"].is_array());
  EXPECT_EQ(done["undo"][0]["name"], "task.delete");
  Mutate({{"task.delete", done["undo"][0]["args"]}});
  EXPECT_EQ(Deleted(kTask), 1);
}

TEST_F(TrashToolRunsTest, OnlyWhatIsInTrashHereCanBeRestored) {
  // Another space's record reads as absent.
  Result<json> other = Run("hub_restore_from_trash", {{"kind", "task"}, {"id", kOtherTask}});
  EXPECT_EQ(other.status().code(), codes::kNotFound);
  EXPECT_EQ(Deleted(kOtherTask), 1);
  // A live record is not in Trash.
  Ok("hub_restore_from_trash", {{"kind", "task"}, {"id", kTask}});
  EXPECT_EQ(Run("hub_restore_from_trash", {{"kind", "task"}, {"id", kTask}}).status().code(),
            codes::kNotFound);
  // A kind the hub does not keep here is refused by the schema.
  Result<json> file = Run("hub_restore_from_trash", {{"kind", "file"}, {"id", kTask}});
  EXPECT_EQ(file.status().code(), codes::kInvalidToolInput);
  EXPECT_EQ(writes_, 1);
}

TEST_F(TrashToolRunsTest, ListsTheSpacesTrashLastDeletedFirstAcrossKinds) {
  constexpr char kList[] = "01JB0000000000000000000003";
  constexpr char kLive[] = "01JB0000000000000000000004";
  Mutate({{"desk_list.create", {{"id", kList}, {"spaceId", kSpace}, {"title", "Packing"}}},
          {"task.create", {{"id", kLive}, {"spaceId", kSpace}, {"title", "Live one"}}}});
  // Deleted later than the task (each Mutate is a later change).
  ASSERT_TRUE(
      hub::DirectMutationSink(*db_, kNow + 60'000)({{"desk_list.delete", {{"id", kList}}}}).ok());
  json all = Ok("hub_list_trash", json::object());
  ASSERT_EQ(all["data"]["total"], 2);  // Not the other space's, not the live task.
  const json& listed = all["data"]["records"];
  EXPECT_EQ(listed[0]["kind"], "desk_list");
  EXPECT_EQ(listed[0]["id"], kList);
  EXPECT_EQ(listed[0]["title"], "Packing");
  EXPECT_EQ(listed[1]["kind"], "task");
  EXPECT_EQ(listed[1]["title"], "Pay rent");
  EXPECT_EQ(listed[1]["deletedOn"].get<std::string>().size(), 10u);
  EXPECT_THAT(all["summary"].get<std::string>(), HasSubstr("Packing"));
  // Narrowed by kind or words; a desk list comes back by the kind the list gave.
  EXPECT_EQ(Ok("hub_list_trash", {{"kind", "task"}})["data"]["total"], 1);
  EXPECT_EQ(Ok("hub_list_trash", {{"query", "rent"}})["data"]["total"], 1);
  Ok("hub_restore_from_trash", {{"kind", "desk_list"}, {"id", kList}});
  EXPECT_EQ(Ok("hub_list_trash", json::object())["data"]["total"], 1);
}

TEST_F(TrashToolRunsTest, AnAccountMustBeAMemberOfTheSpace) {
  ctx_.account_id = "eve";
  EXPECT_EQ(Run("hub_restore_from_trash", {{"kind", "task"}, {"id", kTask}}).status().code(),
            codes::kNotFound);
  ASSERT_TRUE(sync::SetMember(*db_, kSpace, "eve", sync::Role::kEditor).ok());
  ctx_.write = hub::DirectMutationSink(*db_, kNow, "eve");
  Ok("hub_restore_from_trash", {{"kind", "task"}, {"id", kTask}});
  EXPECT_EQ(Deleted(kTask), 0);
}

}  // namespace
}  // namespace ensemble::core::trash
