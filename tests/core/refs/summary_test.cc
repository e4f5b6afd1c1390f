// Table-driven tests of SummarizeRecords (spec §4 "A summary is display
// text"). The table lives in tests/vectors/refs/summaries.json, one row per
// rule: {name, verb, singular, plural, items, expect}.

#include "core/refs/summary.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/source_file.h"

namespace ensemble::core::refs {
namespace {

using nlohmann::json;

TEST(Summary, EveryTableRowGivesItsExpectedText) {
  json table = testing::LoadJsonFile("tests/vectors/refs/summaries.json");
  ASSERT_TRUE(table.is_object()) << "tests/vectors/refs/summaries.json is missing";
  int rows = 0;
  for (const json& row : table.at("rows")) {
    SCOPED_TRACE(row.at("name").get<std::string>());
    EXPECT_EQ(
        SummarizeRecords(row.at("verb").get<std::string>(), row.at("singular").get<std::string>(),
                         row.at("plural").get<std::string>(), row.at("items")),
        row.at("expect").get<std::string>());
    ++rows;
  }
  EXPECT_GE(rows, 20);
}

TEST(Summary, StructItemsSummarizeLikeJsonItems) {
  std::vector<SummaryItem> items = {{"Call Mira", "2026-12-03"}, {"Call Mira", "2026-12-05"}};
  EXPECT_EQ(
      SummarizeRecords("Added", "task", "tasks", items),
      "Added 2 tasks: \u201CCall Mira\u201D (due 3 Dec) and \u201CCall Mira\u201D (due 5 Dec).");
}

TEST(Summary, LargeCountsAreGrouped) {
  std::vector<SummaryItem> items;
  for (int i = 0; i < 1200; ++i) items.push_back({"Task " + std::to_string(i), ""});
  std::string out = SummarizeRecords("Imported", "task", "tasks", items);
  EXPECT_EQ(out.rfind("Imported 1,200 tasks: \u201CTask 0\u201D, ", 0), 0u) << out;
  EXPECT_NE(out.find(" and 1,195 more."), std::string::npos) << out;
}

TEST(Summary, NeverPrintsAnIdEvenWhenTitlesAreIds) {
  const std::string id = "01JCTASK000000000000000001";
  std::vector<SummaryItem> items = {{id, ""}, {"  " + id + "\n", ""}, {"Draft brief", ""}};
  std::string out = SummarizeRecords("Added", "task", "tasks", items);
  EXPECT_EQ(out.find(id), std::string::npos) << out;
  EXPECT_EQ(
      out,
      "Added 3 tasks: an untitled task (1), an untitled task (2) and \u201CDraft brief\u201D.");
}

TEST(Summary, MalformedUtf8InATitleIsRepaired) {
  std::string out =
      SummarizeRecords("Added", "task", "tasks", std::vector<SummaryItem>{{"Bad \xC0 title", ""}});
  EXPECT_EQ(out, "Added 1 task: \u201CBad \uFFFD title\u201D.");
}

TEST(FormatDueDate, AcceptsOnlyRealCalendarDates) {
  struct Row {
    const char* date;
    bool with_year;
    const char* expect;
  } rows[] = {
      {"2026-12-03", false, "3 Dec"},
      {"2026-12-03", true, "3 Dec 2026"},
      {"2026-01-31", false, "31 Jan"},
      {"2028-02-29", false, "29 Feb"},
      {"2027-02-29", false, ""},
      {"2100-02-29", false, ""},
      {"2000-02-29", true, "29 Feb 2000"},
      {"2026-04-31", false, ""},
      {"2026-00-10", false, ""},
      {"2026-12-00", false, ""},
      {"2026-12-3", false, ""},
      {"2026-12-03T10:00", false, ""},
      {"", false, ""},
      {"2026/12/03", false, ""},
  };
  for (const Row& r : rows) EXPECT_EQ(FormatDueDate(r.date, r.with_year), r.expect) << r.date;
}

}  // namespace
}  // namespace ensemble::core::refs
