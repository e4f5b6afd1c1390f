// The comment tools' hooks (core/comments/comment_tool_runs.h): reading a
// record's details and comments, each hub_manage_record action and its Undo,
// and ids of another space, of Trash or of another record refused alike.

#include "core/comments/comment_tool_runs.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/comments/comment.h"
#include "core/hub/hub_tools.h"
#include "core/tasks/task.h"
#include "tests/core/tools/record_tool_fixture.h"

namespace ensemble::core::comments {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

class CommentToolRunsTest : public tools::RecordToolTest {
 protected:
  json Comment(const std::string& id) { return Row(comments::kCommentKind, id); }

  std::string AddComment(const std::string& kind, const std::string& id, const std::string& text) {
    json r = Ok("hub_manage_record",
                {{"kind", kind}, {"id", id}, {"action", "add_comment"}, {"text", text}});
    return r["data"].value("commentId", std::string());
  }
};

TEST_F(CommentToolRunsTest, BothToolsHaveTheirHooks) {
  EXPECT_TRUE(Tool("hub_read_record_details").run);
  const tools::ToolDef& manage = Tool("hub_manage_record");
  EXPECT_TRUE(manage.prepare && manage.preview && manage.run);
}

TEST_F(CommentToolRunsTest, AddThenReadDetailsListsTheCommentOpen) {
  const std::string task = Seed("task", {{"title", "Ship it"}});
  EXPECT_THAT(
      *Preview("hub_manage_record", {{"kind", "task"},
                                     {"id", task},
                                     {"action", "add_comment"},
                                     {"text", "  Blocked on review  "}}),
      ::testing::Eq("Comment on the task \u201CShip it\u201D: \u201CBlocked on review\u201D"));
  const std::string id = AddComment("task", task, "  Blocked on review  ");
  ASSERT_FALSE(id.empty());
  EXPECT_EQ(Comment(id)["body"], "Blocked on review");
  EXPECT_EQ(Comment(id)["target"], task);
  EXPECT_EQ(Comment(id)["target_kind"], "task");

  json r = Ok("hub_read_record_details", {{"kind", "task"}, {"id", task}});
  EXPECT_EQ(r["summary"], "Read the task \u201CShip it\u201D: 1 comment, 1 open.");
  EXPECT_EQ(r["data"]["record"]["title"], "Ship it");
  EXPECT_EQ(r["data"]["record"]["id"], task);
  ASSERT_EQ(r["data"]["comments"].size(), 1u);
  EXPECT_EQ(r["data"]["comments"][0]["id"], id);
  EXPECT_EQ(r["data"]["comments"][0]["resolved"], false);
}

TEST_F(CommentToolRunsTest, UndoOfAddDeletesTheComment) {
  const std::string page = Seed("page", {{"title", "Notes"}});
  json r = Ok("hub_manage_record",
              {{"kind", "page"}, {"id", page}, {"action", "add_comment"}, {"text", "Typo"}});
  const std::string id = r["data"]["commentId"];
  ASSERT_TRUE(ApplyUndo(r).ok());
  EXPECT_EQ(Comment(id)["deleted"], 1);
  EXPECT_EQ(Ok("hub_read_record_details", {{"kind", "page"}, {"id", page}})["data"]["comments"],
            json::array());
}

TEST_F(CommentToolRunsTest, EditResolveAndDeleteEachUndo) {
  const std::string task = Seed("task", {{"title", "Ship it"}});
  const std::string id = AddComment("task", task, "First");

  json edit = Ok("hub_manage_record", {{"kind", "task"},
                                       {"id", task},
                                       {"action", "edit_comment"},
                                       {"commentId", id},
                                       {"text", "Second"}});
  EXPECT_EQ(Comment(id)["body"], "Second");
  ASSERT_TRUE(ApplyUndo(edit).ok());
  EXPECT_EQ(Comment(id)["body"], "First");

  json resolve =
      Ok("hub_manage_record",
         {{"kind", "task"}, {"id", task}, {"action", "resolve_comment"}, {"commentId", id}});
  EXPECT_EQ(resolve["summary"],
            "Resolved the comment \u201CFirst\u201D on the task \u201CShip it\u201D");
  EXPECT_EQ(Comment(id)["resolved"], 1);
  Result<json> again =
      Run("hub_manage_record",
          {{"kind", "task"}, {"id", task}, {"action", "resolve_comment"}, {"commentId", id}});
  EXPECT_EQ(again.status().code(), codes::kInvalidArgument);
  ASSERT_TRUE(ApplyUndo(resolve).ok());
  EXPECT_EQ(Comment(id)["resolved"], 0);

  json del = Ok("hub_manage_record",
                {{"kind", "task"}, {"id", task}, {"action", "delete_comment"}, {"commentId", id}});
  EXPECT_EQ(Comment(id)["deleted"], 1);
  ASSERT_TRUE(ApplyUndo(del).ok());
  EXPECT_EQ(Comment(id)["deleted"], 0);
}

TEST_F(CommentToolRunsTest, UndoOfAnEditKeepsALaterEditBySomeoneElse) {
  const std::string task = Seed("task", {{"title", "Ship it"}});
  const std::string id = AddComment("task", task, "First");
  json edit = Ok("hub_manage_record", {{"kind", "task"},
                                       {"id", task},
                                       {"action", "edit_comment"},
                                       {"commentId", id},
                                       {"text", "Second"}});
  ASSERT_TRUE(hub::DirectMutationSink(
                  *db_, kNow)({{"comment.update", {{"id", id}, {"fields", {{"body", "Third"}}}}}})
                  .ok());
  Status undo = ApplyUndo(edit);
  EXPECT_EQ(undo.code(), codes::kSaveConflict);
  EXPECT_EQ(Comment(id)["body"], "Third");
}

TEST_F(CommentToolRunsTest, PageToTaskLinksThePageAndUndoDeletesTheTask) {
  const std::string page = Seed("page", {{"title", "Write the brief"}});
  json r = Ok("hub_manage_record", {{"kind", "page"}, {"id", page}, {"action", "page_to_task"}});
  EXPECT_EQ(r["summary"],
            "Made the task \u201CWrite the brief\u201D of the page \u201CWrite the brief\u201D");
  const std::string task = r["data"]["taskId"];
  json row = Row(tasks::kTaskKind, task);
  EXPECT_EQ(row["title"], "Write the brief");
  EXPECT_EQ(row["page"], page);
  EXPECT_EQ(row["space_id"], kSpace);
  ASSERT_TRUE(ApplyUndo(r).ok());
  EXPECT_EQ(Row(tasks::kTaskKind, task)["deleted"], 1);

  const std::string other = Seed("task", {{"title", "A task"}});
  Result<json> wrong =
      Run("hub_manage_record", {{"kind", "task"}, {"id", other}, {"action", "page_to_task"}});
  EXPECT_EQ(wrong.status().code(), codes::kInvalidArgument);
}

TEST_F(CommentToolRunsTest, IdsOfAnotherSpaceOrTrashAreNotFoundAndWriteNothing) {
  const std::string theirs = Seed("task", {{"title", "Theirs"}}, kOtherSpace);
  const std::string trashed = Seed("task", {{"title", "Old"}});
  ASSERT_TRUE(hub::DirectMutationSink(*db_, kNow)({{"task.delete", {{"id", trashed}}}}).ok());
  for (const std::string& id : {theirs, trashed, std::string("nothing-here")}) {
    const int before = writes_;
    Result<json> read = Run("hub_read_record_details", {{"kind", "task"}, {"id", id}});
    EXPECT_EQ(read.status().code(), codes::kNotFound) << id;
    EXPECT_EQ(read.status().message(), "no task with id " + id);
    Result<json> add =
        Run("hub_manage_record",
            {{"kind", "task"}, {"id", id}, {"action", "add_comment"}, {"text", "x"}});
    EXPECT_EQ(add.status().code(), codes::kNotFound) << id;
    EXPECT_EQ(writes_, before);
  }
}

TEST_F(CommentToolRunsTest, ACommentOfAnotherRecordIsNotThisRecords) {
  const std::string a = Seed("task", {{"title", "A"}});
  const std::string b = Seed("task", {{"title", "B"}});
  const std::string on_a = AddComment("task", a, "About A");
  Result<json> r =
      Run("hub_manage_record",
          {{"kind", "task"}, {"id", b}, {"action", "delete_comment"}, {"commentId", on_a}});
  EXPECT_EQ(r.status().code(), codes::kNotFound);
  EXPECT_EQ(Comment(on_a)["deleted"], 0);
}

TEST_F(CommentToolRunsTest, MissingOrStrayArgumentsAreRefusedReadably) {
  const std::string task = Seed("task", {{"title", "A"}});
  const std::string id = AddComment("task", task, "Hi");
  struct Case {
    json input;
    const char* says;
  } cases[] = {
      {{{"kind", "task"}, {"id", task}, {"action", "add_comment"}}, "needs the comment's text"},
      {{{"kind", "task"}, {"id", task}, {"action", "add_comment"}, {"text", "   "}},
       "needs the comment's text"},
      {{{"kind", "task"}, {"id", task}, {"action", "edit_comment"}, {"text", "x"}},
       "needs the commentId"},
      {{{"kind", "task"},
        {"id", task},
        {"action", "resolve_comment"},
        {"commentId", id},
        {"text", "x"}},
       "takes no text"},
      {{{"kind", "task"},
        {"id", task},
        {"action", "add_comment"},
        {"commentId", id},
        {"text", "x"}},
       "takes no commentId"},
      {{{"kind", "meeting"}, {"id", task}, {"action", "add_comment"}, {"text", "x"}},
       "comments are kept on tasks, projects, pages, people and boards"},
  };
  for (const Case& c : cases) {
    Result<json> r = Run("hub_manage_record", c.input);
    EXPECT_EQ(r.status().code(), codes::kInvalidArgument) << c.input.dump();
    EXPECT_THAT(r.status().message(), HasSubstr(c.says)) << c.input.dump();
  }
}

}  // namespace
}  // namespace ensemble::core::comments
