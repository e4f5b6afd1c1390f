// Merging people (core/people/merge.h): every link moves to the person kept,
// in Trash too; the kept person's empty fields are filled and the other
// address stays findable; the merged one goes to Trash; another space's
// person is not found; suggestions pair same addresses and same names,
// never merging by themselves.

#include "core/people/merge.h"

#include <gtest/gtest.h>

#include "core/comments/comment.h"
#include "core/people/identity.h"
#include "core/people/person.h"
#include "core/projects/project.h"
#include "core/reminders/reminder.h"
#include "core/sync/authorization.h"
#include "core/tasks/task.h"
#include "tests/core/people/people_fixture.h"

namespace ensemble::core::people {
namespace merge_test {

using nlohmann::json;

constexpr char kAna[] = "01JB0000000000000000000001";
constexpr char kAnaToo[] = "01JB0000000000000000000002";
constexpr char kBo[] = "01JB0000000000000000000003";
constexpr char kCy[] = "01JB0000000000000000000004";
constexpr char kTask[] = "01JB00000000000000000000T1";
constexpr char kTrashedTask[] = "01JB00000000000000000000T2";
constexpr char kProject[] = "01JB00000000000000000000P1";
constexpr char kComment[] = "01JB00000000000000000000C1";
constexpr char kReminder[] = "01JB00000000000000000000R1";
constexpr char kWatcher[] = "01JB00000000000000000000W1";
constexpr char kSlack[] = "01JB00000000000000000000D1";

class MergeTest : public PeopleStoreTest {
 protected:
  void SetUp() override {
    ASSERT_TRUE(
        Mutate(
            "person.create",
            {{"id", kAna}, {"spaceId", "s"}, {"name", "Ana Lima"}, {"email", "ana@work.example"}})
            .ok());
    ASSERT_TRUE(Mutate("person.create", {{"id", kAnaToo},
                                         {"spaceId", "s"},
                                         {"name", "ana  LIMA"},
                                         {"email", "ana@home.example"},
                                         {"role", "Counsel"}})
                    .ok());
    ASSERT_TRUE(Mutate("person.create", {{"id", kBo}, {"spaceId", "s"}, {"name", "Bo"}}).ok());
    ASSERT_TRUE(Mutate("person.create", {{"id", kCy}, {"spaceId", "t"}, {"name", "Cy"}}).ok());
  }

  Status Merge(const char* id, const char* into) {
    return Mutate("person.merge", {{"id", id}, {"into", into}});
  }
};

TEST_F(MergeTest, EveryLinkMovesToThePersonKept) {
  ASSERT_TRUE(
      Mutate(
          "task.create",
          {{"id", kTask}, {"spaceId", "s"}, {"title", "Brief"}, {"people", {kAnaToo, kBo, kAna}}})
          .ok());
  ASSERT_TRUE(
      Mutate("task.create",
             {{"id", kTrashedTask}, {"spaceId", "s"}, {"title", "Old"}, {"people", {kAnaToo}}})
          .ok());
  ASSERT_TRUE(Mutate("task.delete", {{"id", kTrashedTask}}).ok());
  ASSERT_TRUE(Mutate("project.create",
                     {{"id", kProject}, {"spaceId", "s"}, {"title", "Case"}, {"people", {kAnaToo}}})
                  .ok());
  ASSERT_TRUE(Mutate("comment.create", {{"id", kComment},
                                        {"spaceId", "s"},
                                        {"target_kind", "person"},
                                        {"target", kAnaToo},
                                        {"body", "prefers mornings"}})
                  .ok());
  ASSERT_TRUE(Mutate("reminder.create", {{"id", kReminder},
                                         {"spaceId", "s"},
                                         {"text", "Call"},
                                         {"at", 5000},
                                         {"item_kind", "person"},
                                         {"item", kAnaToo}})
                  .ok());
  ASSERT_TRUE(
      Mutate("watcher.create",
             {{"id", kWatcher}, {"spaceId", "s"}, {"target_kind", "person"}, {"target", kAnaToo}})
          .ok());
  ASSERT_TRUE(Mutate("person_identity.create", {{"id", kSlack},
                                                {"spaceId", "s"},
                                                {"person", kAnaToo},
                                                {"identity_kind", "slack"},
                                                {"value", "U7"}})
                  .ok());

  ASSERT_TRUE(Merge(kAnaToo, kAna).ok());

  // Once each, in place of the merged id, the rest kept in order.
  EXPECT_EQ(Row(tasks::kTaskKind, kTask)["people"], json({kAna, kBo}));
  EXPECT_EQ(Row(tasks::kTaskKind, kTrashedTask)["people"], json({kAna}));
  EXPECT_EQ(Row(projects::kProjectKind, kProject)["people"], json({kAna}));
  EXPECT_EQ(Row(comments::kCommentKind, kComment)["target"], kAna);
  EXPECT_EQ(Row(reminders::kReminderRecordKind, kReminder)["item"], kAna);
  EXPECT_EQ(Row(reminders::kWatcherRecordKind, kWatcher)["target"], kAna);
  EXPECT_EQ(Row(kIdentityRecordKind, kSlack)["person"], kAna);
  EXPECT_EQ(*FindPersonByIdentity(*db_, "s", "slack", "U7"), kAna);
}

TEST_F(MergeTest, TheKeptPersonTakesWhatItLackedAndBothAddressesFindIt) {
  ASSERT_TRUE(Merge(kAnaToo, kAna).ok());
  json kept = Row(kPersonKind, kAna);
  EXPECT_EQ(kept["name"], "Ana Lima");
  EXPECT_EQ(kept["email"], "ana@work.example");
  EXPECT_EQ(kept["role"], "Counsel");
  EXPECT_EQ(Row(kPersonKind, kAnaToo)["deleted"], 1);
  EXPECT_EQ(*FindPersonByEmail(*db_, "s", "ana@home.example"), kAna);
  EXPECT_EQ(*FindPersonByEmail(*db_, "s", "ana@work.example"), kAna);
}

TEST_F(MergeTest, APersonWithoutAnAddressTakesTheMergedOnesEmail) {
  ASSERT_TRUE(Merge(kAnaToo, kBo).ok());
  EXPECT_EQ(Row(kPersonKind, kBo)["email"], "ana@home.example");
  auto rows = db_->Query("SELECT COUNT(*) FROM person_identities", {});
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ(store::AsInt(rows->rows[0][0]), 0);  // no identity needed
}

TEST_F(MergeTest, TwoReplicasMakeTheSameKeptAddressIdentity) {
  ASSERT_TRUE(Merge(kAnaToo, kAna).ok());
  auto first = db_->Query("SELECT id FROM person_identities", {});
  ASSERT_TRUE(first.ok() && first->size() == 1);

  // Another replica: the same records, the same mutation.
  PeopleStore other;
  ASSERT_TRUE(
      other
          .Mutate(
              "person.create",
              {{"id", kAna}, {"spaceId", "s"}, {"name", "Ana Lima"}, {"email", "ana@work.example"}})
          .ok());
  ASSERT_TRUE(other
                  .Mutate("person.create", {{"id", kAnaToo},
                                            {"spaceId", "s"},
                                            {"name", "ana  LIMA"},
                                            {"email", "ana@home.example"},
                                            {"role", "Counsel"}})
                  .ok());
  ASSERT_TRUE(other.Mutate("person.merge", {{"id", kAnaToo}, {"into", kAna}}).ok());
  auto second = other.db_->Query("SELECT id FROM person_identities", {});
  ASSERT_TRUE(second.ok() && second->size() == 1);
  EXPECT_EQ(store::AsText(first->rows[0][0]), store::AsText(second->rows[0][0]));
}

TEST_F(MergeTest, BadPairsAreRefusedAndChangeNothing) {
  EXPECT_EQ(Merge(kAna, kAna).code(), codes::kInvalidArgument);
  EXPECT_EQ(Merge(kAna, kCy).code(), codes::kNotFound);  // another space
  EXPECT_EQ(Merge(kCy, kAna).code(), codes::kNotFound);
  EXPECT_EQ(Mutate("person.merge", {{"id", kAna}}).code(), codes::kInvalidArgument);
  EXPECT_EQ(Mutate("person.merge", {{"id", kAna}, {"into", kBo}, {"why", "x"}}).code(),
            codes::kInvalidArgument);
  ASSERT_TRUE(Mutate("person.delete", {{"id", kBo}}).ok());
  EXPECT_EQ(Merge(kAna, kBo).code(), codes::kNotFound);
  EXPECT_EQ(Row(kPersonKind, kAna)["deleted"], 0);
  EXPECT_EQ(Row(kPersonKind, kAna)["version"], 1);
}

TEST_F(MergeTest, OnlyOwnersAndEditorsMerge) {
  ASSERT_TRUE(sync::SetMember(*db_, "s", "editor", sync::Role::kEditor).ok());
  ASSERT_TRUE(sync::SetMember(*db_, "s", "guest", sync::Role::kGuest).ok());
  ASSERT_TRUE(sync::SetMember(*db_, "s", "viewer", sync::Role::kViewer).ok());
  const json args = {{"id", kAnaToo}, {"into", kAna}};
  auto check = [&](const char* account) {
    return sync::AuthorizeMutation(*db_, hub::Config(), account, "person.merge", args).code();
  };
  EXPECT_EQ(check("editor"), "");
  EXPECT_EQ(check("guest"), codes::kForbidden);
  EXPECT_EQ(check("viewer"), codes::kForbidden);
  EXPECT_EQ(check("stranger"), codes::kNotFound);
}

TEST_F(MergeTest, SuggestionsPairSameAddressesAndSameNamesNewerIntoOlder) {
  ASSERT_TRUE(Mutate("person_identity.create", {{"id", kSlack},
                                                {"spaceId", "s"},
                                                {"person", kBo},
                                                {"identity_kind", "email"},
                                                {"value", "bo@work.example"}})
                  .ok());
  constexpr char kBoToo[] = "01JB0000000000000000000005";
  ASSERT_TRUE(
      Mutate("person.create",
             {{"id", kBoToo}, {"spaceId", "s"}, {"name", "Robert"}, {"email", "BO@work.example"}})
          .ok());
  auto found = FindMergeSuggestions(*db_, "s");
  ASSERT_TRUE(found.ok()) << found.status().ToString();
  ASSERT_EQ(found->size(), 2u);
  EXPECT_EQ((*found)[0].reason, "same_address");
  EXPECT_EQ((*found)[0].person, kBoToo);
  EXPECT_EQ((*found)[0].into, kBo);
  EXPECT_EQ((*found)[1].reason, "same_name");
  EXPECT_EQ((*found)[1].person, kAnaToo);
  EXPECT_EQ((*found)[1].into, kAna);
  // Suggesting changed nothing; merging ends the suggestion.
  EXPECT_EQ(Row(kPersonKind, kAnaToo)["deleted"], 0);
  ASSERT_TRUE(Merge(kAnaToo, kAna).ok());
  EXPECT_EQ(FindMergeSuggestions(*db_, "s")->size(), 1u);
  EXPECT_TRUE(FindMergeSuggestions(*db_, "t")->empty());
}

TEST_F(MergeTest, APairSaidToBeTwoPeopleIsNotSuggestedAgain) {
  constexpr char kAnaThird[] = "01JB0000000000000000000006";
  ASSERT_TRUE(
      Mutate("person.create", {{"id", kAnaThird}, {"spaceId", "s"}, {"name", "ANA lima"}}).ok());
  auto pairs = [&] {
    std::vector<std::pair<std::string, std::string>> out;
    const auto found = FindMergeSuggestions(*db_, "s");
    EXPECT_TRUE(found.ok());
    for (const MergeSuggestion& m : *found) {
      out.push_back({m.person, m.into});
    }
    return out;
  };
  using Pairs = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(pairs(), (Pairs{{kAnaToo, kAna}, {kAnaThird, kAna}}));
  // "Not the same" on the newest: it is paired with the next oldest instead.
  ASSERT_TRUE(Mutate("person.update", {{"id", kAnaThird},
                                       {"fields", {{"distinct_from", {kAna}}}},
                                       {"base", {{"distinct_from", json::array()}}}})
                  .ok());
  EXPECT_EQ(pairs(), (Pairs{{kAnaToo, kAna}, {kAnaThird, kAnaToo}}));
  // Marked on the older side, the pair is ended just the same.
  ASSERT_TRUE(
      Mutate("person.update", {{"id", kAna}, {"fields", {{"distinct_from", {kAnaToo}}}}}).ok());
  EXPECT_EQ(pairs(), (Pairs{{kAnaThird, kAnaToo}}));
}

TEST_F(MergeTest, NotTheSameMarksFollowTheMerge) {
  // Bo is not Ana Too; Ana Too is not Cy (of another space: kept as an id).
  ASSERT_TRUE(
      Mutate("person.update", {{"id", kBo}, {"fields", {{"distinct_from", {kAnaToo}}}}}).ok());
  ASSERT_TRUE(
      Mutate("person.update", {{"id", kAnaToo}, {"fields", {{"distinct_from", {kCy, kAna}}}}})
          .ok());
  ASSERT_TRUE(Merge(kAnaToo, kAna).ok());
  EXPECT_EQ(Row(kPersonKind, kBo)["distinct_from"], json::array({kAna}));
  // The kept person takes the marks, but never one of the two merged.
  EXPECT_EQ(Row(kPersonKind, kAna)["distinct_from"], json::array({kCy}));
}

}  // namespace merge_test
}  // namespace ensemble::core::people
