#include "core/tasks/task.h"

#include <gtest/gtest.h>

#include "core/hub/hub.h"
#include "core/store/sqlite_database.h"

namespace ensemble::core::tasks {
namespace {

using nlohmann::json;

constexpr char kId[] = "01JB0000000000000000000001";
constexpr char kOtherId[] = "01JB0000000000000000000002";

class TaskTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = std::move(store::SqliteDatabase::Open(":memory:")).value();
    ASSERT_TRUE(hub::Migrate(*db_).ok());
  }

  Status Run(Status (*mutator)(sync::MutationContext&, const json&), const json& args,
             int64_t now = 1000, json* details = nullptr) {
    store::Transaction txn(*db_);
    sync::MutationContext ctx(*db_, now);
    Status st = mutator(ctx, args);
    if (details) *details = ctx.details();
    if (st.ok()) EXPECT_TRUE(txn.Commit().ok());
    return st;
  }

  Task Get(const std::string& id) { return **GetTask(*db_, id); }

  std::unique_ptr<store::SqliteDatabase> db_;
};

TEST_F(TaskTest, CreateStoresTrimmedTitleAndDefaults) {
  ASSERT_TRUE(
      Run(CreateTask, {{"id", kId}, {"spaceId", "personal"}, {"title", "  Buy milk "}}, 5000).ok());
  Task t = Get(kId);
  EXPECT_EQ(t.title, "Buy milk");
  EXPECT_EQ(t.status, "todo");
  EXPECT_FALSE(t.due.has_value());
  EXPECT_EQ(t.version, 1);
  EXPECT_FALSE(t.deleted);
  EXPECT_EQ(t.created_at, 5000);
  EXPECT_EQ(t.updated_at, 5000);
}

TEST_F(TaskTest, CreateRefusesBadInputAndWritesNothing) {
  const json kBad[] = {
      json::array(),
      {{"id", "not-an-id"}, {"spaceId", "personal"}, {"title", "x"}},
      {{"id", kId}, {"title", "x"}},
      {{"id", kId}, {"spaceId", "personal"}},
      {{"id", kId}, {"spaceId", "personal"}, {"title", "   "}},
      {{"id", kId}, {"spaceId", "personal"}, {"title", 7}},
      {{"id", kId}, {"spaceId", "personal"}, {"title", "x"}, {"status", "someday"}},
      {{"id", kId}, {"spaceId", "personal"}, {"title", "x"}, {"due", "2026-02-30"}},
      {{"id", kId}, {"spaceId", "personal"}, {"title", "x"}, {"color", "red"}},
      {{"id", kId}, {"spaceId", "personal"}, {"title", std::string(kMaxTitleChars + 1, 'a')}},
      {{"id", kId}, {"spaceId", "personal"}, {"title", "\xC0\xAF"}},
  };
  for (const json& args : kBad) {
    Status st = Run(CreateTask, args);
    EXPECT_EQ(st.code(), codes::kInvalidArgument) << args.dump();
  }
  EXPECT_TRUE(ListTasks(*db_)->empty());
}

TEST_F(TaskTest, CreateAcceptsATitleAtTheLimit) {
  std::string title;
  for (size_t i = 0; i < kMaxTitleChars; ++i) title += "é";
  EXPECT_TRUE(Run(CreateTask, {{"id", kId}, {"spaceId", "s"}, {"title", title}}).ok());
}

TEST_F(TaskTest, CreateTwiceIsAlreadyExists) {
  json args = {{"id", kId}, {"spaceId", "personal"}, {"title", "a"}};
  ASSERT_TRUE(Run(CreateTask, args).ok());
  EXPECT_EQ(Run(CreateTask, args).code(), codes::kAlreadyExists);
}

TEST_F(TaskTest, UpdateChangesFieldsAndBumpsVersion) {
  ASSERT_TRUE(Run(CreateTask, {{"id", kId}, {"spaceId", "p"}, {"title", "a"}}).ok());
  ASSERT_TRUE(
      Run(UpdateTask, {{"id", kId}, {"fields", {{"status", "done"}, {"due", "2028-02-29"}}}}, 2000)
          .ok());
  Task t = Get(kId);
  EXPECT_EQ(t.status, "done");
  EXPECT_EQ(t.due, "2028-02-29");
  EXPECT_EQ(t.version, 2);
  EXPECT_EQ(t.created_at, 1000);
  EXPECT_EQ(t.updated_at, 2000);
  ASSERT_TRUE(Run(UpdateTask, {{"id", kId}, {"fields", {{"due", nullptr}}}}).ok());
  EXPECT_FALSE(Get(kId).due.has_value());
}

TEST_F(TaskTest, UpdateOfMissingTaskIsNotFound) {
  EXPECT_EQ(Run(UpdateTask, {{"id", kOtherId}, {"fields", {{"title", "x"}}}}).code(),
            codes::kNotFound);
}

TEST_F(TaskTest, UpdateRefusesUnknownOrEmptyFields) {
  ASSERT_TRUE(Run(CreateTask, {{"id", kId}, {"spaceId", "p"}, {"title", "a"}}).ok());
  EXPECT_EQ(Run(UpdateTask, {{"id", kId}, {"fields", json::object()}}).code(),
            codes::kInvalidArgument);
  EXPECT_EQ(Run(UpdateTask, {{"id", kId}, {"fields", {{"owner", "x"}}}}).code(),
            codes::kInvalidArgument);
  EXPECT_EQ(
      Run(UpdateTask, {{"id", kId}, {"fields", {{"title", "b"}}}, {"base", {{"status", "todo"}}}})
          .code(),
      codes::kInvalidArgument);
  EXPECT_EQ(
      Run(UpdateTask, {{"id", kId}, {"fields", {{"title", "b"}}}, {"base", {{"title", 5}}}}).code(),
      codes::kInvalidArgument);
  EXPECT_EQ(
      Run(UpdateTask, {{"id", kId}, {"fields", {{"due", nullptr}}}, {"base", {{"due", "soon"}}}})
          .code(),
      codes::kInvalidArgument);
  EXPECT_EQ(Get(kId).version, 1);
}

TEST_F(TaskTest, DisjointFieldsMergeUnderBase) {
  ASSERT_TRUE(Run(CreateTask, {{"id", kId}, {"spaceId", "p"}, {"title", "a"}}).ok());
  // Someone else changed the status; this edit was based on the old title only.
  ASSERT_TRUE(Run(UpdateTask, {{"id", kId}, {"fields", {{"status", "doing"}}}}).ok());
  ASSERT_TRUE(
      Run(UpdateTask, {{"id", kId}, {"fields", {{"title", "b"}}}, {"base", {{"title", "a"}}}})
          .ok());
  Task t = Get(kId);
  EXPECT_EQ(t.title, "b");
  EXPECT_EQ(t.status, "doing");
}

TEST_F(TaskTest, OverwritingAConcurrentChangeIsASaveConflict) {
  ASSERT_TRUE(Run(CreateTask, {{"id", kId}, {"spaceId", "p"}, {"title", "a"}}).ok());
  ASSERT_TRUE(Run(UpdateTask, {{"id", kId}, {"fields", {{"title", "theirs"}}}}).ok());
  json details;
  Status st =
      Run(UpdateTask, {{"id", kId}, {"fields", {{"title", "mine"}}}, {"base", {{"title", "a"}}}},
          1000, &details);
  EXPECT_EQ(st.code(), codes::kSaveConflict);
  EXPECT_EQ(details["fields"], json::array({"title"}));
  EXPECT_EQ(details["current"]["title"], "theirs");
  EXPECT_EQ(Get(kId).title, "theirs");
}

TEST_F(TaskTest, MakingTheSameChangeTwiceIsNotAConflict) {
  ASSERT_TRUE(Run(CreateTask, {{"id", kId}, {"spaceId", "p"}, {"title", "a"}}).ok());
  ASSERT_TRUE(Run(UpdateTask, {{"id", kId}, {"fields", {{"title", "same"}}}}).ok());
  EXPECT_TRUE(
      Run(UpdateTask, {{"id", kId}, {"fields", {{"title", "same"}}}, {"base", {{"title", "a"}}}})
          .ok());
}

TEST_F(TaskTest, ListIsOrderedByIdAndSkipsDeleted) {
  ASSERT_TRUE(Run(CreateTask, {{"id", kOtherId}, {"spaceId", "p"}, {"title", "second"}}).ok());
  ASSERT_TRUE(Run(CreateTask, {{"id", kId}, {"spaceId", "p"}, {"title", "first"}}).ok());
  ASSERT_TRUE(
      db_->Exec("UPDATE tasks SET deleted = 1 WHERE id = $1", {store::Value(kOtherId)}).ok());
  auto list = ListTasks(*db_);
  ASSERT_EQ(list->size(), 1u);
  EXPECT_EQ((*list)[0].title, "first");
}

TEST_F(TaskTest, SpaceReadsFindOnlyThatSpacesTasks) {
  constexpr char kThird[] = "01JB0000000000000000000003";
  ASSERT_TRUE(Run(CreateTask, {{"id", kId}, {"spaceId", "p"}, {"title", "mine"}}).ok());
  ASSERT_TRUE(Run(CreateTask, {{"id", kOtherId}, {"spaceId", "q"}, {"title", "theirs"}}).ok());
  ASSERT_TRUE(
      Run(CreateTask, {{"id", kThird}, {"spaceId", "p"}, {"title", "finished"}, {"status", "done"}})
          .ok());

  EXPECT_EQ((*GetTaskInSpace(*db_, "p", kId))->title, "mine");
  EXPECT_FALSE(GetTaskInSpace(*db_, "p", kOtherId)->has_value());

  auto titles = [&](const TaskFilter& filter) {
    Result<std::vector<Task>> tasks = ListTasksInSpace(*db_, "p", filter);
    std::vector<std::string> out;
    for (const Task& t : *tasks) out.push_back(t.title);
    return out;
  };
  EXPECT_EQ(titles({}), (std::vector<std::string>{"mine", "finished"}));
  EXPECT_EQ(titles({.include_done = false}), std::vector<std::string>{"mine"});
  EXPECT_EQ(titles({.status = "done", .include_done = false}),
            std::vector<std::string>{"finished"});
  EXPECT_EQ(titles({.limit = 1}), std::vector<std::string>{"mine"});
  EXPECT_EQ(titles({.include_done = false, .limit = 5}), std::vector<std::string>{"mine"});

  // A task in Trash is still found by id (to restore it) but not listed.
  ASSERT_TRUE(db_->Exec("UPDATE tasks SET deleted = 1 WHERE id = $1", {store::Value(kId)}).ok());
  EXPECT_TRUE((*GetTaskInSpace(*db_, "p", kId))->deleted);
  EXPECT_EQ(titles({}), std::vector<std::string>{"finished"});
}

TEST_F(TaskTest, DeleteIsSoftAndRestoreBringsItBack) {
  ASSERT_TRUE(Run(CreateTask, {{"id", kId}, {"spaceId", "p"}, {"title", "a"}}).ok());
  auto* registry = hub::Config().mutators;
  store::Transaction txn(*db_);
  sync::MutationContext ctx(*db_, 2000);
  ASSERT_TRUE((*registry->Find("task.delete"))(ctx, {{"id", kId}}).ok());
  EXPECT_TRUE(Get(kId).deleted);
  EXPECT_EQ(Get(kId).version, 2);
  EXPECT_TRUE(ListTasks(*db_)->empty());
  ASSERT_TRUE((*registry->Find("task.restore"))(ctx, {{"id", kId}}).ok());
  EXPECT_FALSE(Get(kId).deleted);
  EXPECT_EQ(Get(kId).version, 3);
  ASSERT_TRUE(txn.Commit().ok());
}

TEST_F(TaskTest, UpdateOfADeletedTaskIsRecordDeleted) {
  ASSERT_TRUE(
      Run(CreateTask, {{"id", kId}, {"spaceId", "p"}, {"title", "a"}, {"due", "2027-01-02"}}).ok());
  ASSERT_TRUE(db_->Exec("UPDATE tasks SET deleted = 1 WHERE id = $1", {store::Value(kId)}).ok());
  json details;
  Status st = Run(UpdateTask, {{"id", kId}, {"fields", {{"title", "b"}}}}, 2000, &details);
  EXPECT_EQ(st.code(), codes::kRecordDeleted);
  EXPECT_EQ(details["current"]["title"], "a");
  EXPECT_EQ(details["current"]["due"], "2027-01-02");
  EXPECT_EQ(details["current"]["labels"], json::array());
  EXPECT_EQ(details["deleted"], true);
  EXPECT_EQ(Get(kId).title, "a");
}

constexpr char kProject[] = "01JB00000000000000000000P1";
constexpr char kPerson[] = "01JB00000000000000000000A1";
constexpr char kPage[] = "01JB00000000000000000000G1";

TEST_F(TaskTest, NewTasksHaveEmptyFullFields) {
  ASSERT_TRUE(Run(CreateTask, {{"id", kId}, {"spaceId", "p"}, {"title", "a"}}).ok());
  Task t = Get(kId);
  EXPECT_EQ(t.description, "");
  EXPECT_EQ(t.priority, "none");
  EXPECT_FALSE(t.project.has_value());
  EXPECT_TRUE(t.people.empty());
  EXPECT_TRUE(t.labels.empty());
  EXPECT_TRUE(t.depends_on.empty());
  EXPECT_TRUE(t.blocks.empty());
  EXPECT_FALSE(t.page.has_value());
}

TEST_F(TaskTest, FullFieldsRoundTripAndListsAreCleaned) {
  ASSERT_TRUE(Run(CreateTask, {{"id", kOtherId}, {"spaceId", "p"}, {"title", "first"}}).ok());
  ASSERT_TRUE(Run(CreateTask, {{"id", kId},
                               {"spaceId", "p"},
                               {"title", "a"},
                               {"description", "  two\nlines "},
                               {"priority", "urgent"},
                               {"project", kProject},
                               {"people", {kPerson, kPerson}},
                               {"labels", {" waiting-on ", "", "waiting-on", "q3"}},
                               {"depends_on", {kOtherId}},
                               {"page", kPage}})
                  .ok());
  Task t = Get(kId);
  EXPECT_EQ(t.description, "  two\nlines ");  // A body keeps its formatting.
  EXPECT_EQ(t.priority, "urgent");
  EXPECT_EQ(t.project, kProject);
  EXPECT_EQ(t.people, std::vector<std::string>{kPerson});
  EXPECT_EQ(t.labels, (std::vector<std::string>{"waiting-on", "q3"}));
  EXPECT_EQ(t.depends_on, std::vector<std::string>{kOtherId});
  EXPECT_EQ(t.page, kPage);
  json j = ToJson(t);
  EXPECT_EQ(j["labels"], json({"waiting-on", "q3"}));
  EXPECT_EQ(j["dependsOn"], json({kOtherId}));

  ASSERT_TRUE(Run(UpdateTask, {{"id", kId},
                               {"fields", {{"labels", json::array()}, {"project", nullptr}}},
                               {"base", {{"labels", {"waiting-on", "q3"}}}}})
                  .ok());
  EXPECT_TRUE(Get(kId).labels.empty());
  EXPECT_FALSE(Get(kId).project.has_value());
  EXPECT_EQ(ListTasks(*db_)->size(), 2u);
}

TEST_F(TaskTest, FullFieldsAreChecked) {
  std::vector<std::string> too_many_labels;
  for (size_t i = 0; i <= kMaxLabels; ++i) too_many_labels.push_back("l" + std::to_string(i));
  const json bad[] = {
      {{"priority", "asap"}},
      {{"project", "not-an-id"}},
      {{"people", {"p1"}}},
      {{"labels", too_many_labels}},
      {{"labels", {std::string(kMaxLabelChars + 1, 'x')}}},
      {{"blocks", "01JB0000000000000000000002"}},
      {{"description", std::string(kMaxDescriptionChars + 1, 'x')}},
  };
  for (const json& extra : bad) {
    json args = {{"id", kId}, {"spaceId", "p"}, {"title", "a"}};
    args.update(extra);
    EXPECT_EQ(Run(CreateTask, args).code(), codes::kInvalidArgument) << extra.dump();
  }
  EXPECT_TRUE(ListTasks(*db_)->empty());
}

}  // namespace
}  // namespace ensemble::core::tasks
