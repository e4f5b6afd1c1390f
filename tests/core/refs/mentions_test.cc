// Mentions (spec §3): menu mentions kept as sent, typed ones resolved by
// exact name, the model's text with record links. The shared table
// tests/vectors/refs/mentions.json is run here and by the wasm build
// (tests/wasm/mentions.test.mjs) with the same expected JSON.

#include "core/refs/mentions.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/base/id.h"
#include "core/refs/mention_json.h"
#include "tests/support/source_file.h"

namespace ensemble::core::refs {
namespace {

using nlohmann::json;

constexpr char kMira[] = "01JCPERS000000000000000001";

// A directory that remembers every name it was asked for.
class RecordingDirectory : public MentionDirectory {
 public:
  std::vector<std::string> IdsNamed(std::string_view kind, std::string_view name) const override {
    asked.emplace_back(name);
    return names.IdsNamed(kind, name);
  }
  MapMentionDirectory names;
  mutable std::vector<std::string> asked;
};

// Ids 01JC...0001, 01JC...0002, ... all valid.
std::string NumberedId(int n) {
  std::string digits = std::to_string(n);
  return "01JCTASK" + std::string(kIdLength - 8 - digits.size(), '0') + digits;
}

TEST(Mentions, EveryVectorGivesItsExpectedJson) {
  json table = testing::LoadJsonFile("tests/vectors/refs/mentions.json");
  ASSERT_TRUE(table.is_object()) << "tests/vectors/refs/mentions.json is missing";
  int rows = 0;
  for (const json& row : table.at("cases")) {
    SCOPED_TRACE(row.at("name").get<std::string>());
    json input = row.at("input");
    input["directory"] = table.at("directory");
    auto out = ResolveMentionsJson(input);
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    EXPECT_EQ(*out, row.at("expect")) << out->dump(1);
    ++rows;
  }
  EXPECT_GE(rows, 20);
}

TEST(Mentions, KindWordsMapToOneCanonicalKind) {
  const struct {
    const char* word;
    const char* kind;
  } cases[] = {
      {"people", "person"},
      {"person", "person"},
      {"Tasks", "task"},
      {"task", "task"},
      {"projects", "project"},
      {"pages", "page"},
      {"boards", "board"},
      {"meetings", "meeting"},
      {"skills", "skill"},
      {"files", "file"},
      {"deliverables", "deliverable"},
      {"PEOPLE", "person"},
      {"thing", ""},
      {"", ""},
      {"peoples", ""},
  };
  for (const auto& c : cases) EXPECT_EQ(CanonicalMentionKind(c.word), c.kind) << c.word;
}

TEST(Mentions, AnIdIsNeverSearchedAsAName) {
  RecordingDirectory directory;
  directory.names.Add("task", "01JCTASK000000000000000001", "01JCTASK000000000000000002");
  directory.names.Add("person", "Mira Chen", kMira);
  auto out = ResolveMentions(
      "Open @tasks:01JCTASK000000000000000001 and @person:01JCPERS000000000000000001 x", {},
      directory);
  ASSERT_TRUE(out.ok());
  EXPECT_TRUE(out->mentions.empty());
  ASSERT_EQ(out->unresolved.size(), 2u);
  for (const std::string& name : directory.asked) EXPECT_FALSE(IsValidId(name)) << name;
  // A menu mention's id is taken as sent, never looked up by its label.
  directory.asked.clear();
  auto menu = ResolveMentions("Ask @Mira Chen",
                              {{"person", "01JCPERS000000000000000009", "Mira Chen"}}, directory);
  ASSERT_TRUE(menu.ok());
  EXPECT_TRUE(directory.asked.empty());
  ASSERT_EQ(menu->mentions.size(), 1u);
  EXPECT_EQ(menu->mentions[0].id, "01JCPERS000000000000000009");
}

TEST(Mentions, LongestNameIsTriedFirstWithinTheWordLimit) {
  RecordingDirectory directory;
  std::string long_name = "a b c d e f g h i";  // 9 words: more than kMaxTypedMentionWords
  directory.names.Add("task", long_name, NumberedId(1));
  directory.names.Add("task", "a b", NumberedId(2));
  auto out = ResolveMentions("@task:" + long_name, {}, directory);
  ASSERT_TRUE(out.ok());
  ASSERT_EQ(out->mentions.size(), 1u);
  EXPECT_EQ(out->mentions[0].label, "a b");
  ASSERT_FALSE(directory.asked.empty());
  EXPECT_EQ(directory.asked.front(), "a b c d e f g h");
  EXPECT_EQ(directory.asked.size(), kMaxTypedMentionWords - 1);
}

TEST(Mentions, TheListHoldsAtMostMaxMentions) {
  RecordingDirectory directory;
  directory.names.Add("person", "Mira Chen", kMira);
  std::vector<Mention> menu;
  for (int i = 1; i <= static_cast<int>(kMaxMentions); ++i) {
    menu.push_back({"task", NumberedId(i), "Task " + std::to_string(i)});
  }
  auto full = ResolveMentions("and @people:Mira Chen", menu, directory);
  ASSERT_TRUE(full.ok());
  EXPECT_EQ(full->mentions.size(), kMaxMentions);
  ASSERT_EQ(full->unresolved.size(), 1u);
  EXPECT_TRUE(full->unresolved[0].over_limit);
  EXPECT_EQ(full->model_text, "and @people:Mira Chen");

  menu.push_back({"task", NumberedId(kMaxMentions + 1), "One more"});
  auto over = ResolveMentions("x", menu, directory);
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.status().code(), codes::kInvalidArgument);
  EXPECT_FALSE(MentionsFromJson(MentionsToJson(menu)).ok());
}

TEST(Mentions, DuplicateIdsAreKeptOnce) {
  RecordingDirectory directory;
  directory.names.Add("person", "Mira Chen", kMira);
  directory.names.Add("person", "Mira C", kMira);
  auto out = ResolveMentions("@people:Mira Chen, @people:Mira C and @Mira",
                             {{"person", kMira, "Mira"}}, directory);
  ASSERT_TRUE(out.ok());
  ASSERT_EQ(out->mentions.size(), 1u);
  EXPECT_EQ(out->mentions[0].label, "Mira");
  EXPECT_EQ(out->model_text,
            "[Mira Chen](ensemble://person/01JCPERS000000000000000001), "
            "[Mira C](ensemble://person/01JCPERS000000000000000001) and "
            "[Mira](ensemble://person/01JCPERS000000000000000001)");
}

TEST(Mentions, DirectoryIdsThatAreNotRecordIdsNeverResolve) {
  RecordingDirectory directory;
  directory.names.Add("person", "Mira", "not-an-id");
  auto out = ResolveMentions("@people:Mira", {}, directory);
  ASSERT_TRUE(out.ok());
  EXPECT_TRUE(out->mentions.empty());
  ASSERT_EQ(out->unresolved.size(), 1u);
  EXPECT_EQ(out->unresolved[0].matches, 0u);
}

TEST(MentionJson, RefusesBadInputNamingTheEntry) {
  const std::string long_label(kMaxMentionLabelBytes + 1, 'x');
  const struct {
    json input;
    const char* names;
  } cases[] = {
      {json::object(), "must be an array"},
      {json::array({1}), "mentions[0] must be an object"},
      {json::parse(R"([{"kind": "person", "id": "01JCPERS000000000000000001"}])"),
       "mentions[0].label is missing"},
      {json::parse(R"([{"kind": "thing", "id": "01JCPERS000000000000000001", "label": "x"}])"),
       "not a known kind"},
      {json::parse(R"([{"kind": "person", "id": "mira", "label": "x"}])"), "not a record id"},
      {json::parse(R"([{"kind": "person", "id": "01JCPERS000000000000000001", "label": ""}])"),
       "label must not be empty"},
      {json::array({{{"kind", "person"}, {"id", kMira}, {"label", long_label}}}), "longer than"},
      {json::parse(R"([{"kind": "person", "id": "01JCPERS000000000000000001", "label": "a\nb"}])"),
       "one line"},
      {json::parse(R"([{"kind": "person", "id": 7, "label": "x"}])"),
       "mentions[0].id must be a string"},
      {json::parse(
           R"([{"kind": "person", "id": "01JCPERS000000000000000001", "label": "x", "x": "y"}])"),
       "unknown field"},
  };
  for (const auto& c : cases) {
    auto out = MentionsFromJson(c.input);
    ASSERT_FALSE(out.ok()) << c.input.dump();
    EXPECT_EQ(out.status().code(), codes::kInvalidArgument);
    EXPECT_NE(out.status().message().find(c.names), std::string::npos) << out.status().message();
  }
}

TEST(MentionJson, RoundTripsAndRefusesBadResolveInput) {
  std::vector<Mention> list = {{"person", kMira, "Mira Chen"}};
  auto back = MentionsFromJson(MentionsToJson(list));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, list);
  for (const char* bad : {R"([])", R"({"mentions": []})", R"({"text": "x", "extra": 1})",
                          R"({"text": "x", "directory": {"things": {}}})",
                          R"({"text": "x", "directory": {"person": {"Mira": "01JC"}}})"}) {
    auto out = ResolveMentionsJson(json::parse(bad));
    ASSERT_FALSE(out.ok()) << bad;
    EXPECT_EQ(out.status().code(), codes::kInvalidArgument) << bad;
  }
}

}  // namespace
}  // namespace ensemble::core::refs
