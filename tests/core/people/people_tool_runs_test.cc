// The people tools' hooks (core/people/people_tool_runs.h): list,
// create (an exact address reuses the saved person; a name alone never
// does), update (an address another person has is refused), delete; their
// Undo; ids of another space refused.

#include "core/people/people_tool_runs.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/hub/hub_tools.h"
#include "core/people/person.h"
#include "core/store/database.h"
#include "core/tasks/task.h"
#include "tests/core/tools/record_tool_fixture.h"

namespace ensemble::core::people {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

class PeopleToolRunsTest : public tools::RecordToolTest {
 protected:
  json Person(const std::string& id) { return Row(people::kPersonKind, id); }
  int64_t Count() {
    auto rows = db_->Query("SELECT COUNT(*) FROM people", {});
    return rows.ok() ? store::AsInt(rows->rows[0][0]) : -1;
  }
};

TEST_F(PeopleToolRunsTest, EveryPeopleToolHasItsHooks) {
  for (const char* name : {"hub_list_people", "hub_create_person", "hub_update_person",
                           "hub_delete_people", "hub_merge_people"}) {
    EXPECT_TRUE(Tool(name).run) << name;
  }
  EXPECT_TRUE(Tool("hub_import_people").run);  // connection_tool_runs.h
}

TEST_F(PeopleToolRunsTest, CreateAddsAPersonAndUndoDeletesIt) {
  json r = Ok("hub_create_person",
              {{"name", "Mira Chen"}, {"email", "mira@example.com"}, {"role", "Designer"}});
  EXPECT_EQ(r["summary"], "Added person \u201CMira Chen\u201D.");
  EXPECT_EQ(r["data"]["reused"], false);
  const std::string id = r["data"]["person"]["id"];
  EXPECT_EQ(Person(id)["role"], "Designer");
  ASSERT_TRUE(ApplyUndo(r).ok());
  EXPECT_EQ(Person(id)["deleted"], 1);
}

TEST_F(PeopleToolRunsTest, AnExistingAddressReusesThePerson) {
  const std::string mira = Seed("person", {{"name", "Mira Chen"}, {"email", "Mira@Example.com"}});
  auto preview = Preview("hub_create_person",
                         {{"name", "Mira"}, {"email", "mira@example.com"}, {"team", "Design"}});
  ASSERT_TRUE(preview.ok());
  EXPECT_EQ(*preview,
            "\u201CMira Chen\u201D is already saved with Mira@Example.com; change team to Design.");
  json r = Ok("hub_create_person",
              {{"name", "Mira"}, {"email", "mira@example.com"}, {"team", "Design"}});
  EXPECT_EQ(r["data"]["reused"], true);
  EXPECT_EQ(r["data"]["person"]["id"], mira);
  EXPECT_EQ(Count(), 1);
  EXPECT_EQ(Person(mira)["team"], "Design");
  EXPECT_EQ(Person(mira)["name"], "Mira Chen");
  ASSERT_TRUE(ApplyUndo(r).ok());
  EXPECT_EQ(Person(mira)["team"], "");

  json same = Ok("hub_create_person", {{"name", "Mira"}, {"email", "MIRA@example.com"}});
  EXPECT_EQ(same["data"]["person"]["id"], mira);
  EXPECT_FALSE(same.contains("undo"));
  EXPECT_EQ(Count(), 1);
}

TEST_F(PeopleToolRunsTest, ANameAloneNeverMerges) {
  const std::string mira = Seed("person", {{"name", "Mira Chen"}, {"email", "mira@example.com"}});
  json r = Ok("hub_create_person", {{"name", "Mira Chen"}});
  EXPECT_NE(r["data"]["person"]["id"], mira);
  json other = Ok("hub_create_person", {{"name", "Mira Chen"}, {"email", "mira@work.example"}});
  EXPECT_NE(other["data"]["person"]["id"], mira);
  EXPECT_EQ(Count(), 3);
}

TEST_F(PeopleToolRunsTest, UpdateChangesAndUndoesAndRefusesATakenAddress) {
  const std::string mira = Seed("person", {{"name", "Mira"}, {"email", "mira@example.com"}});
  Seed("person", {{"name", "Bo"}, {"email", "bo@example.com"}});
  json r = Ok("hub_update_person",
              {{"id", mira}, {"fields", {{"role", "Lead"}, {"relationship", "client"}}}});
  EXPECT_EQ(r["summary"], "Updated \u201CMira\u201D: relationship to client, role to Lead.");
  ASSERT_TRUE(ApplyUndo(r).ok());
  EXPECT_EQ(Person(mira)["role"], "");
  EXPECT_TRUE(Person(mira)["relationship"].is_null());

  auto taken = Run("hub_update_person", {{"id", mira}, {"fields", {{"email", "BO@example.com"}}}});
  ASSERT_FALSE(taken.ok());
  EXPECT_EQ(taken.status().code(), codes::kAlreadyExists);
  EXPECT_THAT(taken.status().message(), HasSubstr("\u201CBo\u201D already has"));
  EXPECT_EQ(Person(mira)["email"], "mira@example.com");
}

TEST_F(PeopleToolRunsTest, AHeldEditIsBasedOnWhatItsPreviewShowed) {
  const std::string mira = Seed("person", {{"name", "Mira"}});
  json held;
  ASSERT_TRUE(Preview("hub_update_person",
                      {{"id", mira}, {"fields", {{"role", "Lead"}, {"relationship", "client"}}}},
                      &held)
                  .ok());
  EXPECT_EQ(held["base"], json({{"role", ""}, {"relationship", nullptr}}));
  json applied = held;
  Ok("hub_update_person", applied);  // Nothing changed in between.
  EXPECT_EQ(Person(mira)["relationship"], "client");

  ASSERT_TRUE(
      Preview("hub_update_person", {{"id", mira}, {"fields", {{"role", "Director"}}}}, &held).ok());
  Ok("hub_update_person", {{"id", mira}, {"fields", {{"role", "CTO"}}}});
  EXPECT_EQ(Run("hub_update_person", held).status().code(), codes::kSaveConflict);
  EXPECT_EQ(Person(mira)["role"], "CTO");
}

TEST_F(PeopleToolRunsTest, IdsOfAnotherSpaceAreNotFoundAndNothingIsWritten) {
  const std::string theirs =
      Seed("person", {{"name", "Bo"}, {"email", "bo@example.com"}}, kOtherSpace);
  const std::string mine = Seed("person", {{"name", "Al"}});
  for (auto [tool, input] : std::vector<std::pair<std::string, json>>{
           {"hub_update_person", {{"id", theirs}, {"fields", {{"role", "x"}}}}},
           {"hub_delete_people", {{"ids", {theirs}}}},
           {"hub_merge_people", {{"personId", theirs}, {"intoPersonId", mine}}},
           {"hub_merge_people", {{"personId", mine}, {"intoPersonId", theirs}}}}) {
    auto r = Run(tool, input);
    ASSERT_FALSE(r.ok()) << tool;
    EXPECT_EQ(r.status().code(), codes::kNotFound) << tool;
    EXPECT_THAT(r.status().message(), HasSubstr("no person with id")) << tool;
  }
  EXPECT_EQ(writes_, 0);
  // Their address is not evidence either: a create here makes a new person.
  json r = Ok("hub_create_person", {{"name", "Bo"}, {"email", "bo@example.com"}});
  EXPECT_NE(r["data"]["person"]["id"], theirs);
  EXPECT_EQ(Ok("hub_list_people", {{"query", "bo"}})["data"]["total"], 1);
}

TEST_F(PeopleToolRunsTest, ListShowsOtherAddressesAndWhoMayBeTheSamePerson) {
  const std::string ana = Seed("person", {{"name", "Ana Lima"}, {"email", "ana@work.example"}});
  const std::string twin = Seed("person", {{"name", "ana lima"}});
  const std::string bo = Seed("person", {{"name", "Bo"}});
  Seed("person_identity",
       {{"person", bo}, {"identity_kind", "email"}, {"value", "bo@home.example"}});
  Seed("person_identity", {{"person", bo}, {"identity_kind", "slack"}, {"value", "u0bo"}});
  // Found by an address that is an identity, not their own email.
  json found = Ok("hub_list_people", {{"query", "bo@home"}})["data"]["people"];
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0]["id"], bo);
  EXPECT_EQ(found[0]["identities"], json::parse(R"([{"kind":"email","value":"bo@home.example"},)"
                                                R"({"kind":"slack","value":"U0BO"}])"));
  EXPECT_TRUE(found[0]["maybeSameAs"].empty());
  json all = Ok("hub_list_people", json::object())["data"]["people"];
  for (const json& p : all) {
    if (p["id"] == ana) {
      EXPECT_EQ(p["maybeSameAs"],
                json::array({{{"id", twin}, {"name", "ana lima"}, {"reason", "same_name"}}}));
    }
    if (p["id"] == twin) EXPECT_EQ(p["maybeSameAs"][0]["id"], ana);
  }
  // Said to be two people, they are no longer offered as one.
  ASSERT_TRUE(hub::DirectMutationSink(*db_, kNow)(
                  {{"person.update", {{"id", twin}, {"fields", {{"distinct_from", {ana}}}}}}})
                  .ok());
  const json after = Ok("hub_list_people", json::object())["data"]["people"];
  for (const json& p : after) EXPECT_TRUE(p["maybeSameAs"].empty()) << p.dump();
}

TEST_F(PeopleToolRunsTest, DeleteAndUndoRestores) {
  const std::string bo = Seed("person", {{"name", "Bo"}});
  json r = Ok("hub_delete_people", {{"ids", {bo}}});
  EXPECT_EQ(Person(bo)["deleted"], 1);
  ASSERT_TRUE(ApplyUndo(r).ok());
  EXPECT_EQ(Person(bo)["deleted"], 0);
}

TEST_F(PeopleToolRunsTest, MergeWaitsForApplyAndMovesEveryLinkToThePersonKept) {
  EXPECT_TRUE(Tool("hub_merge_people").always_hold);
  EXPECT_FALSE(Tool("hub_merge_people").undoable);
  const std::string mira = Seed("person", {{"name", "Mira Chen"}, {"email", "mira@work.example"}});
  const std::string twin = Seed("person", {{"name", "Mira"}, {"email", "mira@home.example"}});
  const std::string task = Seed("task", {{"title", "Brief"}, {"people", {twin}}});
  const json input = {{"personId", twin}, {"intoPersonId", mira}};
  auto preview = Preview("hub_merge_people", input);
  ASSERT_TRUE(preview.ok()) << preview.status().ToString();
  EXPECT_THAT(*preview, HasSubstr("Merge \u201CMira\u201D into \u201CMira Chen\u201D"));
  EXPECT_THAT(*preview, HasSubstr("goes to Trash"));
  EXPECT_EQ(writes_, 0);

  json r = Ok("hub_merge_people", input);
  EXPECT_EQ(r["summary"], "Merged \u201CMira\u201D into \u201CMira Chen\u201D.");
  EXPECT_EQ(r["data"]["person"]["id"], mira);
  EXPECT_FALSE(r.contains("undo"));
  EXPECT_EQ(Person(twin)["deleted"], 1);
  EXPECT_EQ(Row(tasks::kTaskKind, task)["people"], json({mira}));
  // The merged person's address now finds the one kept.
  json again = Ok("hub_create_person", {{"name", "M"}, {"email", "mira@home.example"}});
  EXPECT_EQ(again["data"]["person"]["id"], mira);

  auto self = Run("hub_merge_people", {{"personId", mira}, {"intoPersonId", mira}});
  EXPECT_EQ(self.status().code(), codes::kInvalidArgument);
  auto gone = Run("hub_merge_people", {{"personId", twin}, {"intoPersonId", mira}});
  EXPECT_EQ(gone.status().code(), codes::kNotFound);
}

}  // namespace
}  // namespace ensemble::core::people
