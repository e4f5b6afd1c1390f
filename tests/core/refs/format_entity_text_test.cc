// Table-driven tests of FormatEntityText (spec §4.1 "What is shown"). The
// table lives in tests/vectors/refs/format_entity_text.json, one row per rule
// and edge case: {name, input, refs (a named set), options, expect, hold?}.
// A row with "hold" is a streaming row: StreamHoldBack must hold exactly that
// many bytes and FormatStreamingText must give "expect". The wasm build runs
// the same rows, so both builds format replies byte for byte alike.

#include "core/refs/format_entity_text.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/source_file.h"

namespace ensemble::core::refs {
namespace {

using nlohmann::json;

RefSet MakeRefSet(const json& list) {
  RefSet set;
  for (const json& r : list) {
    EXPECT_TRUE(set.Add(Ref{r.at("kind"), r.at("id"), r.at("label"), r.value("detail", "")}))
        << r.dump();
  }
  return set;
}

TEST(FormatEntityText, EveryTableRowGivesItsExpectedText) {
  json table = testing::LoadJsonFile("tests/vectors/refs/format_entity_text.json");
  ASSERT_TRUE(table.is_object()) << "tests/vectors/refs/format_entity_text.json is missing";
  std::map<std::string, RefSet> sets;
  for (const auto& [name, list] : table.at("refSets").items()) sets[name] = MakeRefSet(list);
  int rows = 0;
  int stream_rows = 0;
  for (const json& row : table.at("rows")) {
    SCOPED_TRACE(row.at("name").get<std::string>());
    const RefSet& refs = sets.at(row.at("refs").get<std::string>());
    FormatOptions options;
    options.plain = row.at("options").at("plain");
    options.keep_ids = row.at("options").at("keepIds");
    std::string input = row.at("input");
    if (row.contains("hold")) {
      EXPECT_EQ(StreamHoldBack(input, refs), row.at("hold").get<size_t>());
      EXPECT_EQ(FormatStreamingText(input, refs, options), row.at("expect").get<std::string>());
      ++stream_rows;
    } else {
      EXPECT_EQ(FormatEntityText(input, refs, options), row.at("expect").get<std::string>());
    }
    ++rows;
  }
  EXPECT_GE(rows, 30);
  EXPECT_GE(stream_rows, 5);
}

TEST(FormatEntityText, FormattingIsStableWhenRunTwice) {
  // Formatted text must not change again: a saved display is formatted anew.
  json table = testing::LoadJsonFile("tests/vectors/refs/format_entity_text.json");
  ASSERT_TRUE(table.is_object());
  std::map<std::string, RefSet> sets;
  for (const auto& [name, list] : table.at("refSets").items()) sets[name] = MakeRefSet(list);
  for (const json& row : table.at("rows")) {
    if (row.contains("hold") || row.at("options").at("plain")) continue;
    SCOPED_TRACE(row.at("name").get<std::string>());
    const RefSet& refs = sets.at(row.at("refs").get<std::string>());
    FormatOptions options;
    options.keep_ids = row.at("options").at("keepIds");
    std::string once = FormatEntityText(row.at("input").get<std::string>(), refs, options);
    EXPECT_EQ(FormatEntityText(once, refs, options), once);
  }
}

TEST(FormatEntityText, StreamingEveryPrefixNeverShowsAHalfWrittenId) {
  RefSet refs;
  ASSERT_TRUE(refs.Add({"task", "01JCTASK000000000000000001", "Draft brief", ""}));
  const std::string reply =
      "Added 01JCTASK000000000000000001 and [@Mira](ensemble://person/01JCPERS000000000000000002).";
  auto count = [](const std::string& s, std::string_view needle) {
    int n = 0;
    for (size_t at = s.find(needle); at != std::string::npos; at = s.find(needle, at + 1)) ++n;
    return n;
  };
  const std::string task_link = "ensemble://task/01JCTASK000000000000000001";
  const std::string person_link = "ensemble://person/01JCPERS000000000000000002";
  for (size_t len = 0; len <= reply.size(); ++len) {
    std::string shown = FormatStreamingText(reply.substr(0, len), refs, {});
    SCOPED_TRACE(shown);
    EXPECT_EQ(count(shown, "01JCTASK"), count(shown, task_link));
    EXPECT_EQ(count(shown, "ensem"), count(shown, task_link) + count(shown, person_link));
    EXPECT_EQ(count(shown, "["), count(shown, "]("));
  }
  EXPECT_EQ(FormatStreamingText(reply, refs, {}),
            "Added [Draft brief](ensemble://task/01JCTASK000000000000000001) and "
            "[Mira](ensemble://person/01JCPERS000000000000000002).");
}

struct AskRow {
  const char* question;
  bool asks;
};

TEST(QuestionAsksForIds, WholeWordsOnly) {
  const AskRow rows[] = {
      {"What is the id of Draft brief?", true},
      {"list their IDs", true},
      {"uuid please", true},
      {"Which identifier does it use?", true},
      {"I did it", false},
      {"show the idea", false},
      {"Send the invoice", false},
      {"", false},
  };
  for (const AskRow& r : rows) {
    EXPECT_EQ(QuestionAsksForIds(r.question), r.asks) << r.question;
  }
}

TEST(RefSet, RefusesBadDuplicateAndOverflowingRefs) {
  RefSet refs;
  EXPECT_FALSE(refs.Add({"task", "not-an-id", "Draft", ""}));
  EXPECT_FALSE(refs.Add({"", "01JCTASK000000000000000001", "Draft", ""}));
  EXPECT_FALSE(refs.Add({"task", "01JCTASK000000000000000001", "", ""}));
  EXPECT_TRUE(refs.Add({"task", "01JCTASK000000000000000001", "Draft", ""}));
  EXPECT_FALSE(refs.Add({"task", "01JCTASK000000000000000001", "Other", ""}));
  EXPECT_EQ(refs.Find("01JCTASK000000000000000001")->title, "Draft");
  for (int i = 2; refs.size() < RefSet::kMaxRefs; ++i) {
    std::string id = "01JC" + std::string(22 - std::to_string(i).size(), '0') + std::to_string(i);
    ASSERT_TRUE(refs.Add({"task", id, "T" + std::to_string(i), ""})) << id;
  }
  EXPECT_FALSE(refs.Add({"task", "01JCZZZZ000000000000000099", "One too many", ""}));
  EXPECT_EQ(refs.Find("01JCZZZZ000000000000000099"), nullptr);
  EXPECT_EQ(refs.Find("01JC0000000000000000000150")->title, "T150");
}

}  // namespace
}  // namespace ensemble::core::refs
