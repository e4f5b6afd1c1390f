// Person identities (core/people/identity.h): values stored in each
// provider's spelling, one live holder per space, kind and value (an
// identity or a person's own address), the link that never changes, and the
// lookups that find the person.

#include "core/people/identity.h"

#include <gtest/gtest.h>

#include "core/people/person.h"
#include "tests/core/people/people_fixture.h"

namespace ensemble::core::people {
namespace identity_test {

using nlohmann::json;

constexpr char kAna[] = "01JB0000000000000000000001";
constexpr char kBo[] = "01JB0000000000000000000002";
constexpr char kCy[] = "01JB0000000000000000000003";
constexpr char kSlack[] = "01JB00000000000000000000D1";
constexpr char kSlack2[] = "01JB00000000000000000000D2";

class IdentityTest : public PeopleStoreTest {
 protected:
  void SetUp() override {
    ASSERT_TRUE(
        Mutate("person.create",
               {{"id", kAna}, {"spaceId", "s"}, {"name", "Ana"}, {"email", "ana@example.com"}})
            .ok());
    ASSERT_TRUE(Mutate("person.create", {{"id", kBo}, {"spaceId", "s"}, {"name", "Bo"}}).ok());
    ASSERT_TRUE(Mutate("person.create", {{"id", kCy}, {"spaceId", "t"}, {"name", "Cy"}}).ok());
  }

  Status Add(const char* id, const char* person, const char* kind, const char* value,
             const char* space = "s") {
    return Mutate("person_identity.create", {{"id", id},
                                             {"spaceId", space},
                                             {"person", person},
                                             {"identity_kind", kind},
                                             {"value", value},
                                             {"verified", 1}});
  }
};

TEST(IdentityValue, EachProviderHasItsOwnSpelling) {
  EXPECT_EQ(*NormalizeIdentityValue("email", "  Ana@Example.COM "), "ana@example.com");
  EXPECT_EQ(*NormalizeIdentityValue("slack", "u04abc"), "U04ABC");
  EXPECT_EQ(*NormalizeIdentityValue("teams", "6F1C-AB"), "6f1c-ab");
  EXPECT_EQ(*NormalizeIdentityValue("linear", "ABC-def"), "abc-def");
}

TEST(IdentityValue, MalformedValuesAreRefused) {
  for (auto [kind, value] : {std::pair{"email", "ana"},
                             {"email", "@example.com"},
                             {"email", "ana@"},
                             {"email", "a b@c.d"},
                             {"slack", "U1 2"},
                             {"slack", "   "},
                             {"teams", "a/b"},
                             {"fax", "123"}}) {
    Result<std::string> r = NormalizeIdentityValue(kind, value);
    EXPECT_EQ(r.status().code(), codes::kInvalidArgument) << kind << " " << value;
  }
}

TEST_F(IdentityTest, AnIdentityIsStoredNormalizedAndFindsItsPerson) {
  ASSERT_TRUE(Add(kSlack, kBo, "slack", " u0bo ").ok()) << last_failure_;
  EXPECT_EQ(Row(kIdentityRecordKind, kSlack)["value"], "U0BO");
  EXPECT_EQ(*FindPersonByIdentity(*db_, "s", "slack", "U0bo"), kBo);
  EXPECT_EQ(*FindPersonByIdentity(*db_, "t", "slack", "U0BO"), std::nullopt);
  EXPECT_EQ(*FindPersonByIdentity(*db_, "s", "teams", "U0BO"), std::nullopt);
}

TEST_F(IdentityTest, AnAddressIdentityFindsThePersonByEmail) {
  ASSERT_TRUE(Add(kSlack, kBo, "email", "Bo@Work.example").ok()) << last_failure_;
  EXPECT_EQ(*FindPersonByEmail(*db_, "s", "bo@work.example"), kBo);
  // Their own email still wins over an identity.
  EXPECT_EQ(*FindPersonByEmail(*db_, "s", "ANA@example.com"), kAna);
}

TEST_F(IdentityTest, AValueHasOneHolderPerSpace) {
  ASSERT_TRUE(Add(kSlack, kAna, "slack", "U1").ok()) << last_failure_;
  Status st = Add(kSlack2, kBo, "slack", "u1");
  EXPECT_EQ(st.code(), codes::kAlreadyExists) << st.ToString();
  EXPECT_EQ(details_["person"], kAna);
  // Another space is another namespace.
  EXPECT_TRUE(Add(kSlack2, kCy, "slack", "U1", "t").ok());
}

TEST_F(IdentityTest, AnotherPersonsOwnAddressIsTaken) {
  Status st = Add(kSlack, kBo, "email", "ANA@example.com");
  EXPECT_EQ(st.code(), codes::kAlreadyExists);
  EXPECT_EQ(details_["person"], kAna);
  st = Add(kSlack, kAna, "email", "ana@example.com");
  EXPECT_EQ(st.code(), codes::kAlreadyExists);
  EXPECT_NE(st.message().find("already has"), std::string::npos) << st.message();
}

TEST_F(IdentityTest, ThePersonMustLiveInTheSpace) {
  EXPECT_EQ(Add(kSlack, kCy, "slack", "U9").code(), codes::kNotFound);
  ASSERT_TRUE(Mutate("person.delete", {{"id", kBo}}).ok());
  EXPECT_EQ(Add(kSlack, kBo, "slack", "U9").code(), codes::kNotFound);
}

TEST_F(IdentityTest, AnIdentityKeepsItsPersonKindAndValue) {
  ASSERT_TRUE(Add(kSlack, kBo, "slack", "U1").ok()) << last_failure_;
  for (const char* field : {"person", "identity_kind", "value"}) {
    json fields = {{field, field == std::string("person") ? json(kAna) : json("teams")}};
    EXPECT_EQ(Mutate("person_identity.update", {{"id", kSlack}, {"fields", fields}}).code(),
              codes::kInvalidArgument)
        << field;
  }
  ASSERT_TRUE(
      Mutate("person_identity.update", {{"id", kSlack}, {"fields", {{"source", "slack import"}}}})
          .ok());
  EXPECT_EQ(Row(kIdentityRecordKind, kSlack)["source"], "slack import");
}

TEST_F(IdentityTest, ARestoreWhoseValueWasTakenMeanwhileIsRefused) {
  ASSERT_TRUE(Add(kSlack, kBo, "slack", "U1").ok()) << last_failure_;
  ASSERT_TRUE(Mutate("person_identity.delete", {{"id", kSlack}}).ok());
  EXPECT_EQ(*FindPersonByIdentity(*db_, "s", "slack", "U1"), std::nullopt);
  ASSERT_TRUE(Add(kSlack2, kAna, "slack", "U1").ok()) << last_failure_;
  EXPECT_EQ(Mutate("person_identity.restore", {{"id", kSlack}}).code(), codes::kAlreadyExists);
  ASSERT_TRUE(Mutate("person_identity.delete", {{"id", kSlack2}}).ok());
  EXPECT_TRUE(Mutate("person_identity.restore", {{"id", kSlack}}).ok());
  EXPECT_EQ(*FindPersonByIdentity(*db_, "s", "slack", "U1"), kBo);
}

}  // namespace identity_test
}  // namespace ensemble::core::people
