// Record handles (core/refs/record_handle.h): ensemble://<kind>/<id> read at
// the start of a text, found throughout one, and taken as a request's ref.

#include "core/refs/record_handle.h"

#include <gmock/gmock.h>

namespace ensemble::core::refs {
namespace {

using ::testing::ElementsAre;

constexpr char kTaskId[] = "01JB00000000000000000000T1";
constexpr char kProjectId[] = "01JB00000000000000000000P1";

TEST(RecordHandle, ParsesALinkThatEndsAtItsId) {
  std::string_view kind, id;
  const std::string link = HandleOf("task", kTaskId);
  const std::string text = link + ") next";  // The views point into it.
  EXPECT_EQ(ParseRecordLink(text, &kind, &id), link.size());
  EXPECT_EQ(kind, "task");
  EXPECT_EQ(id, kTaskId);
  EXPECT_EQ(ParseRecordLink(link + "X", &kind, &id), 0u);  // The id runs on.
  EXPECT_EQ(ParseRecordLink("ensemble:///" + std::string(kTaskId), &kind, &id), 0u);
  EXPECT_EQ(ParseRecordLink("ensemble://task/01JB", &kind, &id), 0u);
}

TEST(RecordHandle, FindsEachDistinctLinkOnceUpToTheBound) {
  const std::string text = "See [Plan](" + HandleOf("task", kTaskId) + "), " +
                           HandleOf("task", kTaskId) + " and ensemble://project/" + kProjectId +
                           "; not ensemble://task/short.";
  EXPECT_THAT(FindRecordLinks(text, 10),
              ElementsAre(RecordHandle{"task", kTaskId}, RecordHandle{"project", kProjectId}));
  EXPECT_THAT(FindRecordLinks(text, 1), ElementsAre(RecordHandle{"task", kTaskId}));
  EXPECT_TRUE(FindRecordLinks("ensemble://", 10).empty());
}

TEST(RecordHandle, ARefIsExactlyOneHandle) {
  Result<RecordHandle> ref = ParseItemRef("  " + HandleOf("person", kTaskId) + "\n");
  ASSERT_TRUE(ref.ok());
  EXPECT_EQ(ref->kind, "person");
  EXPECT_EQ(ref->id, kTaskId);
  for (const std::string& bad :
       {std::string(), std::string(kTaskId), "task/" + std::string(kTaskId),
        HandleOf("task", kTaskId) + " x", "x " + HandleOf("task", kTaskId)}) {
    EXPECT_EQ(ParseItemRef(bad).status().code(), codes::kInvalidArgument) << bad;
  }
}

TEST(RecordHandle, ARefMayBeTheAppsAddressOfARecord) {
  const std::string id(kTaskId);
  const std::pair<std::string, RecordHandle> good[] = {
      {"http://127.0.0.1:8080/#/tasks/" + id, {"task", id}},
      {" https://hub.example/app/#/projects/" + id + " ", {"project", id}},
      {"#/people/" + id, {"person", id}},
      {"#/page/" + id, {"page", id}},  // The assistant's links name the kind.
      {"/#/boards/" + id, {"board", id}},
  };
  for (const auto& [ref, handle] : good) {
    Result<RecordHandle> parsed = ParseItemRef(ref);
    ASSERT_TRUE(parsed.ok()) << ref << ": " << parsed.status().ToString();
    EXPECT_EQ(*parsed, handle) << ref;
  }
  for (const std::string& bad :
       {std::string("#/tasks"), std::string("#/tasks/"), "#/tasks/" + id + "/x",
        "#/tasks/" + id.substr(1), "#/settings/" + id, "#/tasks/" + id + "?x",
        "see http://x/#/tasks/" + id, "http://x/#/tasks/" + id + " and more",
        "ensemble://task/" + id + "#/tasks/" + id, "x#/tasks/" + id,
        "#/tasks/" + std::string(kIdLength, '!')}) {
    EXPECT_EQ(ParseItemRef(bad).status().code(), codes::kInvalidArgument) << bad;
  }
}

}  // namespace
}  // namespace ensemble::core::refs
