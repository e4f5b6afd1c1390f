// SecretBox: sealing round trips, tampering and wrong keys are refused, and
// the key's sources (variable, file) fail safely: a bad value or an open key
// file stops the server with a message that names the source, never the key.

#include "server/credentials/secret_box.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace ensemble::server::credentials {
namespace {

namespace fs = std::filesystem;

class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "ensemble-secret-XXXXXX").string();
    path_ = mkdtemp(pattern.data());
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

std::unique_ptr<SecretBox> BoxWithKey(char fill) {
  auto box = SecretBox::FromKey(std::string(kSecretKeyBytes, fill));
  EXPECT_TRUE(box.ok()) << box.status().ToString();
  return std::move(*box);
}

mode_t ModeOf(const fs::path& p) {
  struct stat st {};
  EXPECT_EQ(::stat(p.c_str(), &st), 0);
  return st.st_mode & 07777;
}

TEST(SecretBox, SealThenOpenGivesThePlaintextBack) {
  auto box = BoxWithKey('k');
  const std::string secret = "sk-test-0123456789abcdef";
  std::string sealed = box->Seal(secret);
  EXPECT_TRUE(sealed.starts_with(kSealedPrefix));
  EXPECT_EQ(sealed.find(secret), std::string::npos);
  auto opened = box->Open(sealed);
  ASSERT_TRUE(opened.ok()) << opened.status().ToString();
  EXPECT_EQ(*opened, secret);
}

TEST(SecretBox, EqualSecretsSealDifferently) {
  auto box = BoxWithKey('k');
  EXPECT_NE(box->Seal("same"), box->Seal("same"));  // A fresh nonce each time.
}

TEST(SecretBox, TamperedCiphertextIsRefused) {
  auto box = BoxWithKey('k');
  std::string sealed = box->Seal("sk-live-abcdef");
  // Flip one character of the base64 body (not the prefix); every byte is
  // covered by the MAC, so any change must fail.
  for (size_t i = kSealedPrefix.size(); i < sealed.size(); i += 7) {
    std::string tampered = sealed;
    tampered[i] = tampered[i] == 'A' ? 'B' : 'A';
    auto opened = box->Open(tampered);
    ASSERT_FALSE(opened.ok()) << "position " << i;
    EXPECT_EQ(opened.status().code(), core::codes::kDecryptFailed);
  }
  EXPECT_EQ(box->Open(sealed.substr(0, sealed.size() - 4)).status().code(),
            core::codes::kDecryptFailed);
  EXPECT_EQ(box->Open("not sealed").status().code(), core::codes::kDecryptFailed);
  EXPECT_EQ(box->Open(std::string(kSealedPrefix) + "!!!").status().code(),
            core::codes::kDecryptFailed);
}

TEST(SecretBox, AnotherKeyCannotOpen) {
  std::string sealed = BoxWithKey('a')->Seal("sk-abc");
  auto opened = BoxWithKey('b')->Open(sealed);
  ASSERT_FALSE(opened.ok());
  EXPECT_EQ(opened.status().code(), core::codes::kDecryptFailed);
}

TEST(SecretBox, EmptySecretRoundTrips) {
  auto box = BoxWithKey('k');
  auto opened = box->Open(box->Seal(""));
  ASSERT_TRUE(opened.ok());
  EXPECT_EQ(*opened, "");
}

TEST(SecretBox, BadVariableNamesTheVariableNeverTheValue) {
  TempDir dir;
  for (std::string value :
       {std::string("not-base64-at-all!!"), std::string("c2hvcnQ="), std::string(60, 'Q')}) {
    auto box = SecretBox::Load(value, dir.path());
    ASSERT_FALSE(box.ok()) << value;
    EXPECT_EQ(box.status().code(), core::codes::kInvalidArgument);
    EXPECT_NE(box.status().message().find(kSecretKeyVariable), std::string::npos);
    EXPECT_EQ(box.status().message().find(value), std::string::npos);
  }
  // A variable, when set, is the key: no file is made.
  EXPECT_FALSE(fs::exists(dir.path() / kSecretKeyFileName));
}

TEST(SecretBox, VariableKeyOpensWhatItSealed) {
  TempDir dir;
  const std::string key = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=";  // 32 bytes.
  auto a = SecretBox::Load(key, dir.path());
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  auto b = SecretBox::Load(key, dir.path());
  ASSERT_TRUE(b.ok());
  auto opened = (*b)->Open((*a)->Seal("sk-shared"));
  ASSERT_TRUE(opened.ok());
  EXPECT_EQ(*opened, "sk-shared");
}

TEST(SecretBox, KeyFileIsCreatedWithMode0600AndReused) {
  TempDir dir;
  const fs::path data = dir.path() / "data";  // Not there yet.
  auto first = SecretBox::Load("", data);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  const fs::path file = data / kSecretKeyFileName;
  ASSERT_TRUE(fs::exists(file));
  EXPECT_EQ(ModeOf(file), 0600u);
  // The next start reads the same key.
  auto second = SecretBox::Load("", data);
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  auto opened = (*second)->Open((*first)->Seal("sk-persist"));
  ASSERT_TRUE(opened.ok());
  EXPECT_EQ(*opened, "sk-persist");
}

TEST(SecretBox, KeyFileOpenToOthersIsRefused) {
  TempDir dir;
  ASSERT_TRUE(SecretBox::Load("", dir.path()).ok());
  const fs::path file = dir.path() / kSecretKeyFileName;
  std::ifstream in(file);
  std::string key_text;
  std::getline(in, key_text);
  for (mode_t mode : {0644, 0640, 0604, 0602, 0620}) {
    ASSERT_EQ(::chmod(file.c_str(), mode), 0);
    auto box = SecretBox::Load("", dir.path());
    ASSERT_FALSE(box.ok()) << std::oct << mode;
    EXPECT_EQ(box.status().code(), core::codes::kInvalidArgument);
    EXPECT_NE(box.status().message().find(file.string()), std::string::npos);
    EXPECT_NE(box.status().message().find("chmod 600"), std::string::npos);
    EXPECT_EQ(box.status().message().find(key_text), std::string::npos);
  }
  ASSERT_EQ(::chmod(file.c_str(), 0600), 0);
  EXPECT_TRUE(SecretBox::Load("", dir.path()).ok());
}

TEST(SecretBox, KeyFileThatHoldsNoKeyIsRefused) {
  TempDir dir;
  const fs::path file = dir.path() / kSecretKeyFileName;
  {
    std::ofstream out(file);
    out << "this is not a key\n";
  }
  ASSERT_EQ(::chmod(file.c_str(), 0600), 0);
  auto box = SecretBox::Load("", dir.path());
  ASSERT_FALSE(box.ok());
  EXPECT_NE(box.status().message().find(file.string()), std::string::npos);
  EXPECT_EQ(box.status().message().find("this is not a key"), std::string::npos);
}

}  // namespace
}  // namespace ensemble::server::credentials
