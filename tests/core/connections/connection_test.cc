// The connections table (core/connections/connection.h): links checked and
// normalized, connections listed only to the account that added them, never
// with their secret, a limit per space, and the state of the last read.

#include "core/connections/connection.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>

#include "core/hub/hub.h"
#include "core/store/sqlite_database.h"

namespace ensemble::core::connections {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

class ConnectionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = std::move(store::SqliteDatabase::Open(":memory:")).value();
    ASSERT_TRUE(hub::Migrate(*db_).ok());
  }

  Connection Make(const std::string& id, const std::string& account,
                  const std::string& space = "personal") {
    Connection c;
    c.id = id;
    c.space_id = space;
    c.account_id = account;
    c.app = std::string(kCalendarLinkApp);
    c.name = "Calendar " + id;
    c.created_at = 1000 + static_cast<int64_t>(id.size());
    return c;
  }

  std::unique_ptr<store::SqliteDatabase> db_;
};

TEST(CalendarLink, WebcalReadsAsHttpsAndBadLinksAreRefusedWithoutRepeatingThem) {
  EXPECT_EQ(*NormalizeCalendarLink("webcal://calendar.example.com/secret/basic.ics"),
            "https://calendar.example.com/secret/basic.ics");
  EXPECT_EQ(*NormalizeCalendarLink("WEBCALS://x.example/a.ics"), "https://x.example/a.ics");
  EXPECT_EQ(*NormalizeCalendarLink("http://127.0.0.1:8081/cal.ics"),
            "http://127.0.0.1:8081/cal.ics");
  for (const char* bad : {"ftp://x.example/secret-token", "https:///secret-token",
                          "https://user:secret-token@x.example/a.ics",
                          "https://x.example/secret-token with space", ""}) {
    auto r = NormalizeCalendarLink(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().code(), codes::kInvalidArgument);
    EXPECT_THAT(r.status().message(), Not(HasSubstr("secret-token"))) << bad;
  }
  EXPECT_FALSE(NormalizeCalendarLink("https://x.example/" + std::string(kMaxLinkChars, 'a')).ok());
}

TEST(ConnectionName, IsShortTextWithoutControlCharacters) {
  EXPECT_TRUE(CheckConnectionName("Work calendar").ok());
  EXPECT_FALSE(CheckConnectionName("").ok());
  EXPECT_FALSE(CheckConnectionName("a\nb").ok());
  EXPECT_FALSE(CheckConnectionName(std::string(kMaxConnectionNameChars + 1, 'a')).ok());
}

TEST_F(ConnectionTest, ListedOnlyToTheAccountThatAddedThemAndNeverWithTheSecret) {
  ASSERT_TRUE(AddConnection(*db_, Make("c1", "ana"), "sealed-1").ok());
  ASSERT_TRUE(AddConnection(*db_, Make("c22", "bo"), "sealed-2").ok());
  ASSERT_TRUE(AddConnection(*db_, Make("c333", "ana", "team"), "sealed-3").ok());

  auto ana = ListConnections(*db_, "personal", "ana");
  ASSERT_TRUE(ana.ok());
  ASSERT_EQ(ana->size(), 1u);
  EXPECT_EQ((*ana)[0].id, "c1");
  EXPECT_EQ((*ana)[0].status, kStatusNew);
  auto local = ListConnections(*db_, "personal", "");  // The local person sees all.
  ASSERT_TRUE(local.ok());
  EXPECT_EQ(local->size(), 2u);

  EXPECT_EQ(GetConnection(*db_, "personal", "bo", "c1").status().code(), codes::kNotFound);
  EXPECT_EQ(GetConnection(*db_, "team", "ana", "c1").status().code(), codes::kNotFound);
  EXPECT_EQ(*SealedSecret(*db_, "c1"), "sealed-1");

  EXPECT_FALSE(*DeleteConnection(*db_, "bo", "c1"));
  EXPECT_TRUE(*DeleteConnection(*db_, "ana", "c1"));
  EXPECT_TRUE(ListConnections(*db_, "personal", "ana")->empty());
}

TEST_F(ConnectionTest, ASpaceHoldsAtMostTheLimit) {
  for (size_t i = 0; i < kMaxConnectionsPerSpace; ++i) {
    ASSERT_TRUE(AddConnection(*db_, Make("c" + std::to_string(i), "ana"), "s").ok());
  }
  Status over = AddConnection(*db_, Make("one-more", "ana"), "s");
  EXPECT_EQ(over.code(), codes::kLimitReached);
  EXPECT_TRUE(AddConnection(*db_, Make("elsewhere", "ana", "team"), "s").ok());
}

TEST_F(ConnectionTest, ARecordedReadSaysConnectedOrFailingWithItsReason) {
  ASSERT_TRUE(AddConnection(*db_, Make("c1", "ana"), "s").ok());
  ASSERT_TRUE(RecordCheck(*db_, "c1", "the calendar answered 404 Not Found.", 5000).ok());
  Connection c = *GetConnection(*db_, "personal", "ana", "c1");
  EXPECT_EQ(c.status, kStatusFailing);
  EXPECT_EQ(c.last_error, "the calendar answered 404 Not Found.");
  EXPECT_EQ(c.checked_at, 5000);
  ASSERT_TRUE(RecordCheck(*db_, "c1", "", 6000).ok());
  c = *GetConnection(*db_, "personal", "ana", "c1");
  EXPECT_EQ(c.status, kStatusConnected);
  EXPECT_EQ(c.last_error, "");
}

}  // namespace
}  // namespace ensemble::core::connections
