// JsonReader (core/text/json_reader.h): what it reads it reads as
// nlohmann::json does, and it declines (returns false) what it does not
// handle, so its caller can fall back to nlohmann.

#include "core/text/json_reader.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace ensemble::core::text {
namespace {

// The strings of a JSON array of strings, or nullopt-like false.
bool ReadStrings(std::string_view text, std::vector<std::string>* out) {
  JsonReader reader(text);
  const bool read = reader.ReadArray([&] {
    std::string_view s;
    if (!reader.ReadString(&s)) return false;
    out->emplace_back(s);
    return true;
  });
  return read && reader.AtEnd();
}

TEST(JsonReader, ReadsStringsAsNlohmannDoes) {
  for (std::string_view text :
       {R"([])", R"(["a", "", "b c"])", R"([ "tab\tquote\"slash\/back\\" ])",
        R"(["\u00e9\u4e2d\u0000x", "caf\u00E9"])", "[\"caf\xC3\xA9 \xF0\x9F\x98\x80\"]",
        R"(["\b\f\n\r"])"}) {
    SCOPED_TRACE(text);
    std::vector<std::string> strings;
    ASSERT_TRUE(ReadStrings(text, &strings));
    EXPECT_EQ(nlohmann::json(strings), nlohmann::json::parse(text));
  }
}

TEST(JsonReader, DeclinesInvalidJson) {
  for (std::string_view text :
       {"", "[", R"(["a",])", R"(["a" "b"])", R"(["unterminated)", "[\"\x01\"]", R"(["\x"])",
        R"(["\u12"])", "[\"\xC0\xAF\"]", "[\"\xED\xA0\x80\"]", "[\"\xF4\x90\x80\x80\"]",
        "[\"\xE2\x82\"]", R"(["a"] x)", R"([01])", R"([1.])", R"([-])", R"([tru])"}) {
    SCOPED_TRACE(text);
    JsonReader reader(text);
    const bool read = reader.ReadArray([&] { return reader.Skip(); });
    EXPECT_FALSE(read && reader.AtEnd());
    EXPECT_TRUE(nlohmann::json::parse(text, nullptr, false).is_discarded());
  }
}

TEST(JsonReader, DeclinesValidShapesItLeavesToNlohmann) {
  for (std::string_view text :
       {R"([1e5])", R"([12345678901234567890])", R"(["\ud83d\ude00"])", "\xEF\xBB\xBF[]"}) {
    SCOPED_TRACE(text);
    JsonReader reader(text);
    const bool read = reader.ReadArray([&] { return reader.Skip(); });
    EXPECT_FALSE(read && reader.AtEnd());
    EXPECT_FALSE(nlohmann::json::parse(text, nullptr, false).is_discarded());
  }
}

TEST(JsonReader, SkipsNestedValuesAndReadsMembersInOrder) {
  const std::string_view text =
      R"( {"a": [1, -2.5, 0, true, false, null, {"x": []}], "b" : "two", "c": true} )";
  JsonReader reader(text);
  std::vector<std::string> keys;
  std::string_view b;
  bool c = false;
  ASSERT_TRUE(reader.ReadObject([&](std::string_view key) {
    keys.emplace_back(key);
    if (key == "b") return reader.ReadString(&b);
    if (key == "c") return reader.ReadBool(&c);
    return reader.Skip();
  }));
  EXPECT_TRUE(reader.AtEnd());
  EXPECT_EQ(keys, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(b, "two");
  EXPECT_TRUE(c);
}

TEST(JsonReader, DeclinesNestingDeeperThanItsLimit) {
  const std::string deep =
      std::string(kMaxJsonReaderDepth + 1, '[') + std::string(kMaxJsonReaderDepth + 1, ']');
  JsonReader reader(deep);
  EXPECT_FALSE(reader.Skip());
  const std::string shallow = std::string(8, '[') + std::string(8, ']');
  JsonReader ok(shallow);
  EXPECT_TRUE(ok.Skip() && ok.AtEnd());
}

TEST(JsonReader, TakesNullOnlyWhenNull) {
  JsonReader reader(R"([null, "x"])");
  std::string_view x;
  bool nulls = false;
  ASSERT_TRUE(reader.ReadArray([&] {
    if (reader.TakeNull()) return nulls = true;
    return reader.ReadString(&x);
  }));
  EXPECT_TRUE(nulls);
  EXPECT_EQ(x, "x");
}

}  // namespace
}  // namespace ensemble::core::text
