#include "core/text/json_fields.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ensemble::core::text {
namespace json_fields_test {

using nlohmann::json;

// The message of `status`, after checking that it is INVALID_ARGUMENT.
std::string InvalidMessage(const Status& status) {
  EXPECT_EQ(status.code(), codes::kInvalidArgument);
  return status.message();
}

TEST(JsonFields, AcceptsKnownKeys) {
  const JsonFields fields;
  EXPECT_TRUE(fields.CheckKnownKeys({{"id", 1}, {"name", "a"}}, "item", {"id", "name"}).ok());
  EXPECT_TRUE(fields.CheckKnownKeys(json::object(), "item", {"id"}).ok());
}

TEST(JsonFields, RefusesAnUnknownKey) {
  const JsonFields fields;
  EXPECT_EQ(InvalidMessage(fields.CheckKnownKeys({{"id", 1}, {"extra", 2}}, "items[1]", {"id"})),
            "items[1] has an unknown key \"extra\"");
}

TEST(JsonFields, WordsAnUnknownKeyAsTheEdgeDoes) {
  const JsonFields fields("plan request: ", '\'');
  EXPECT_EQ(InvalidMessage(fields.CheckKnownKeys({{"nope", 1}}, "the request", {"message"})),
            "plan request: the request has an unknown key 'nope'");
}

TEST(JsonFields, CutsALongUnknownKey) {
  const JsonFields fields;
  const std::string key(500, 'k');
  EXPECT_EQ(InvalidMessage(fields.CheckKnownKeys({{key, 1}}, "the body", {"id"})),
            "the body has an unknown key \"" + std::string(40, 'k') + "\"");
}

TEST(JsonFields, RefusesWhatIsNotAnObject) {
  const JsonFields fields;
  EXPECT_EQ(InvalidMessage(fields.CheckKnownKeys(json::array(), "the body", {"id"})),
            "the body must be an object");
  EXPECT_EQ(InvalidMessage(fields.CheckKnownKeys("text", "calls[0]", {"id"})),
            "calls[0] must be an object");
}

TEST(JsonFields, ReadsAString) {
  const JsonFields fields;
  std::string out;
  ASSERT_TRUE(fields.ReadText({{"name", "Mira"}}, "name", "item", {}, &out).ok());
  EXPECT_EQ(out, "Mira");
}

TEST(JsonFields, RefusesAMissingRequiredField) {
  const JsonFields fields;
  std::string out;
  EXPECT_EQ(InvalidMessage(fields.ReadText(json::object(), "name", "calls[2]", {}, &out)),
            "calls[2].name is required");
}

TEST(JsonFields, LeavesTheOutputAloneForAMissingOptionalField) {
  const JsonFields fields;
  std::string out = "Europe/Berlin";
  EXPECT_TRUE(fields.ReadText(json::object(), "timeZone", "", {.required = false}, &out).ok());
  EXPECT_EQ(out, "Europe/Berlin");
}

TEST(JsonFields, RefusesANonString) {
  const JsonFields fields;
  std::string out = "kept";
  EXPECT_EQ(InvalidMessage(fields.ReadText({{"name", 7}}, "name", "item", {}, &out)),
            "item.name must be a string");
  EXPECT_EQ(
      InvalidMessage(fields.ReadText({{"name", nullptr}}, "name", "", {.required = false}, &out)),
      "name must be a string");
  EXPECT_EQ(out, "kept");
}

TEST(JsonFields, NamesATopLevelFieldByItsKeyAlone) {
  const JsonFields fields("route request: ", '\'');
  std::string out;
  EXPECT_EQ(InvalidMessage(fields.ReadText(json::object(), "message", "", {}, &out)),
            "route request: message is required");
}

TEST(JsonFields, CapsBytes) {
  const JsonFields fields;
  std::string out;
  EXPECT_TRUE(
      fields.ReadText({{"today", "2026-11-30"}}, "today", "", {.max_bytes = 10}, &out).ok());
  EXPECT_EQ(InvalidMessage(
                fields.ReadText({{"today", "2026-11-30Z"}}, "today", "", {.max_bytes = 10}, &out)),
            "today is longer than 10 bytes");
  // A byte cap alone lets any bytes through: the field is carried, not read.
  EXPECT_TRUE(fields.ReadText({{"id", "\xFF"}}, "id", "", {.max_bytes = 10}, &out).ok());
}

TEST(JsonFields, CapsCharactersNotBytes) {
  const JsonFields fields;
  std::string out;
  EXPECT_TRUE(fields.ReadText({{"title", "ééé"}}, "title", "", {.max_chars = 3}, &out).ok());
  EXPECT_EQ(out, "ééé");
  EXPECT_EQ(
      InvalidMessage(fields.ReadText({{"title", "éééé"}}, "title", "x", {.max_chars = 3}, &out)),
      "x.title has more than 3 characters");
  EXPECT_EQ(InvalidMessage(fields.ReadText({{"title", std::string(12346, 'a')}}, "title", "",
                                           {.max_chars = 12345}, &out)),
            "title has more than 12,345 characters");
}

TEST(JsonFields, RefusesInvalidUtf8WhenCheckedOrCounted) {
  const JsonFields fields;
  std::string out;
  const json bad = {{"title", "a\xC0\xAF"}};
  EXPECT_EQ(InvalidMessage(fields.ReadText(bad, "title", "x", {.check_utf8 = true}, &out)),
            "x.title is not valid UTF-8");
  EXPECT_EQ(InvalidMessage(fields.ReadText(bad, "title", "x", {.max_chars = 100}, &out)),
            "x.title is not valid UTF-8");
  EXPECT_TRUE(fields.ReadText(bad, "title", "x", {}, &out).ok());
}

TEST(JsonFields, RefusesAnEmptyStringOnlyWhenAsked) {
  const JsonFields fields;
  std::string out;
  EXPECT_TRUE(fields.ReadText({{"message", ""}}, "message", "", {}, &out).ok());
  EXPECT_EQ(InvalidMessage(fields.ReadText({{"message", ""}}, "message", "exchanges[0]",
                                           {.allow_empty = false}, &out)),
            "exchanges[0].message is empty");
}

TEST(JsonFields, ReadsNullAsAbsentOnlyWhenAllowed) {
  const JsonFields fields;
  std::string out = "kept";
  const json body = {{"title", nullptr}};
  EXPECT_TRUE(
      fields.ReadText(body, "title", "", {.required = false, .allow_null = true}, &out).ok());
  EXPECT_EQ(out, "kept");
  EXPECT_EQ(InvalidMessage(fields.ReadText(body, "title", "", {.allow_null = true}, &out)),
            "title is required");
  EXPECT_EQ(InvalidMessage(fields.ReadText(body, "title", "", {.required = false}, &out)),
            "title must be a string");
}

TEST(JsonFields, ReadsAListOfStringsWithinItsBounds) {
  const JsonFields fields("apply: ");
  std::vector<std::string> out = {"kept"};
  EXPECT_TRUE(fields.ReadTextList({{"ids", {"a", "b"}}}, "ids", "", 1, 3, {}, &out).ok());
  EXPECT_EQ(out, (std::vector<std::string>{"a", "b"}));
  out = {"kept"};
  const TextRule optional{.required = false, .allow_null = true};
  EXPECT_TRUE(fields.ReadTextList({{"ids", nullptr}}, "ids", "", 1, 3, optional, &out).ok());
  EXPECT_TRUE(fields.ReadTextList(json::object(), "ids", "", 1, 3, optional, &out).ok());
  EXPECT_EQ(out, std::vector<std::string>{"kept"});
  EXPECT_EQ(InvalidMessage(fields.ReadTextList(json::object(), "ids", "x", 1, 3, {}, &out)),
            "apply: x.ids is required");
  for (const json& bad : {json::array(), json{"a", "b", "c", "d"}, json("a")}) {
    EXPECT_EQ(InvalidMessage(fields.ReadTextList({{"ids", bad}}, "ids", "", 1, 3, {}, &out)),
              "apply: ids must be a list of 1 to 3 strings")
        << bad;
  }
  EXPECT_EQ(InvalidMessage(fields.ReadTextList({{"ids", {"a", 2}}}, "ids", "", 1, 3, {}, &out)),
            "apply: ids[1] must be a string");
  EXPECT_EQ(InvalidMessage(fields.ReadTextList({{"ids", {"a", ""}}}, "ids", "", 1, 3,
                                               {.allow_empty = false}, &out)),
            "apply: ids[1] is empty");
  EXPECT_EQ(out, std::vector<std::string>{"kept"});  // Untouched by a refusal.
}

TEST(JsonFields, PrefixesTheEdgesOwnErrors) {
  EXPECT_EQ(InvalidMessage(JsonFields("plan request: ").Invalid("calls must be an array")),
            "plan request: calls must be an array");
  EXPECT_EQ(InvalidMessage(JsonFields().Invalid("the body is empty")), "the body is empty");
}

}  // namespace json_fields_test
}  // namespace ensemble::core::text
