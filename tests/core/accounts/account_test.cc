// Account rules (email, password, name), session expiry and model settings
// checks, on the embedded SQLite store.

#include "core/accounts/account.h"

#include <gtest/gtest.h>

#include "core/accounts/model_credentials.h"
#include "core/hub/hub.h"
#include "core/store/sqlite_database.h"

namespace ensemble::core::accounts {
namespace {

TEST(Account, EmailIsTrimmedAndLowerCased) {
  auto e = NormalizeEmail("  Ada.Lovelace@Example.ORG ");
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_EQ(*e, "ada.lovelace@example.org");
  for (const char* bad : {"", "ada", "@example.org", "ada@", "ada@example", "a b@example.org",
                          "ada@@example.org", "ada@exa@mple.org"}) {
    auto r = NormalizeEmail(bad);
    EXPECT_FALSE(r.ok()) << bad;
    if (!r.ok()) EXPECT_EQ(r.status().code(), codes::kInvalidArgument);
  }
  std::string longest = std::string(kMaxEmailChars - 12, 'a') + "@example.org";
  EXPECT_TRUE(NormalizeEmail(longest).ok());
  EXPECT_FALSE(NormalizeEmail("a" + longest).ok());
}

TEST(Account, PasswordLengthIsCountedInCharacters) {
  EXPECT_TRUE(CheckPassword(std::string(kMinPasswordChars, 'p')).ok());
  EXPECT_FALSE(CheckPassword(std::string(kMinPasswordChars - 1, 'p')).ok());
  EXPECT_TRUE(CheckPassword(std::string(kMaxPasswordChars, 'p')).ok());
  EXPECT_FALSE(CheckPassword(std::string(kMaxPasswordChars + 1, 'p')).ok());
  // Eight two-byte characters are eight characters.
  std::string umlauts;
  for (size_t i = 0; i < kMinPasswordChars; ++i) umlauts += "\xC3\xBC";
  EXPECT_TRUE(CheckPassword(umlauts).ok());
  EXPECT_FALSE(CheckPassword("\xFF\xFE\xFD\xFC\xFB\xFA\xF9\xF8").ok());
  Status st = CheckPassword("secret1");
  EXPECT_EQ(st.message().find("secret1"), std::string::npos);
}

TEST(Account, NameIsTrimmedAndBounded) {
  EXPECT_EQ(*NormalizeName("  Ada  "), "Ada");
  EXPECT_FALSE(NormalizeName("   ").ok());
  EXPECT_FALSE(NormalizeName("Ada\nLovelace").ok());
  EXPECT_TRUE(NormalizeName(std::string(kMaxNameChars, 'n')).ok());
  EXPECT_FALSE(NormalizeName(std::string(kMaxNameChars + 1, 'n')).ok());
}

class AccountStore : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = std::move(store::SqliteDatabase::Open(":memory:")).value();
    ASSERT_TRUE(hub::Migrate(*db_).ok());
    ASSERT_TRUE(InsertAccount(*db_, {"acc1", "ada@example.org", "Ada", "$argon2id$x", 1}).ok());
  }
  std::unique_ptr<store::SqliteDatabase> db_;
};

TEST_F(AccountStore, SecondAccountWithTheSameEmailIsRefused) {
  Status st = InsertAccount(*db_, {"acc2", "ada@example.org", "Other", "$argon2id$y", 2});
  EXPECT_EQ(st.code(), codes::kAlreadyExists);
  EXPECT_EQ(*CountAccounts(*db_), 1);
  EXPECT_EQ((*FindAccountByEmail(*db_, "ada@example.org"))->id, "acc1");
  EXPECT_FALSE(FindAccount(*db_, "acc2")->has_value());
}

TEST_F(AccountStore, ExpiredSessionIsGoneAndDeleted) {
  ASSERT_TRUE(InsertSession(*db_, {"hash1", "acc1", 100, 1000}).ok());
  EXPECT_EQ(**SessionAccount(*db_, "hash1", 999), "acc1");
  EXPECT_FALSE(SessionAccount(*db_, "hash1", 1000)->has_value());
  auto rows = db_->Query("SELECT COUNT(*) FROM sessions");
  EXPECT_EQ(store::AsInt(rows->rows[0][0]), 0);
  EXPECT_FALSE(SessionAccount(*db_, "unknown", 0)->has_value());
}

TEST_F(AccountStore, DeletedSessionSignsNobodyIn) {
  ASSERT_TRUE(InsertSession(*db_, {"hash1", "acc1", 100, 1000}).ok());
  ASSERT_TRUE(DeleteSession(*db_, "hash1").ok());
  EXPECT_FALSE(SessionAccount(*db_, "hash1", 500)->has_value());
}

TEST(ModelSettings, ExplicitWellFormedSettingsPass) {
  EXPECT_TRUE(CheckModelSettings({"openai", "https://api.openai.com/v1", "gpt-4.1"}).ok());
  EXPECT_TRUE(CheckModelSettings({"ollama", "http://127.0.0.1:11434/v1", "llama3:8b"}).ok());
  EXPECT_TRUE(
      CheckModelSettings({"azure", "https://x.openai.azure.com/openai/deployments/d", "gpt"}).ok());
  const ModelSettings bad[] = {
      {"", "https://a.example", "m"},
      {"Open AI", "https://a.example", "m"},
      {"openai", "", "m"},
      {"openai", "a.example", "m"},
      {"openai", "https://", "m"},
      {"openai", "https://u:p@a.example", "m"},
      {"openai", "https://a.example/v1?api-key=x", "m"},
      {"openai", "https://a.example", ""},
      {"openai", "https://a.example", std::string(kMaxModelChars + 1, 'm')},
  };
  for (const ModelSettings& s : bad) {
    Status st = CheckModelSettings(s);
    EXPECT_EQ(st.code(), codes::kInvalidArgument) << s.provider << " " << s.base_url;
  }
}

TEST(ModelSettings, ApiKeyChecksNeverQuoteTheKey) {
  EXPECT_TRUE(CheckApiKey("sk-abc123").ok());
  EXPECT_FALSE(CheckApiKey("").ok());
  EXPECT_FALSE(CheckApiKey(std::string(kMaxApiKeyChars + 1, 'k')).ok());
  Status st = CheckApiKey("sk-secret with-space");
  EXPECT_EQ(st.code(), codes::kInvalidArgument);
  EXPECT_EQ(st.message().find("sk-secret"), std::string::npos);
}

}  // namespace
}  // namespace ensemble::core::accounts
