// The ranking of the shared search (core/context/search_rank.h): the vectors
// in tests/vectors/context/search_rank.json (the wasm build and the stores run
// the same ones), then what a table cannot show well.

#include "core/context/search_rank.h"

#include <gmock/gmock.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/context/search_rank_json.h"
#include "tests/support/source_file.h"

namespace ensemble::core::context {
namespace {

using nlohmann::json;

constexpr char kVectors[] = "tests/vectors/context/search_rank.json";

TEST(SearchRank, EverySplitVectorGivesItsWords) {
  const json table = testing::LoadJsonFile(kVectors);
  ASSERT_TRUE(table.is_object()) << kVectors << " is missing";
  ASSERT_GE(table.at("split").size(), 10u);
  for (const json& row : table.at("split")) {
    SCOPED_TRACE(row.at("name").get<std::string>());
    const json got = SplitQueryJson(row.at("query").get<std::string>());
    EXPECT_EQ(got["words"], row.at("words"));
    EXPECT_EQ(got["phrase"], row.at("phrase"));
  }
}

TEST(SearchRank, EveryRankVectorGivesItsOrderAndScores) {
  const json table = testing::LoadJsonFile(kVectors);
  ASSERT_GE(table.at("rank").size(), 10u);
  for (const json& row : table.at("rank")) {
    SCOPED_TRACE(row.at("name").get<std::string>());
    Result<json> got = RankJson(row);
    ASSERT_TRUE(got.ok()) << got.status().message();
    EXPECT_EQ((*got)["results"], row.at("expect"));
  }
}

TEST(SearchRank, TheOrderNeverDependsOnTheOrderGiven) {
  const json table = testing::LoadJsonFile(kVectors);
  for (json row : table.at("rank")) {
    SCOPED_TRACE(row.at("name").get<std::string>());
    std::reverse(row["records"].begin(), row["records"].end());
    EXPECT_EQ((*RankJson(row))["results"], row.at("expect"));
  }
}

TEST(SearchRank, EachKindGivesAtMostThirtyCandidates) {
  std::vector<SearchRecord> records;
  for (int i = 0; i < 40; ++i) {
    records.push_back({"task", "t" + std::to_string(100 + i), "Launch " + std::to_string(i)});
    records.push_back({"page", "p" + std::to_string(100 + i), "Launch " + std::to_string(i)});
  }
  std::size_t matched = 0;
  const std::vector<RankedRecord> ranked =
      RankRecords(SplitQuery("launch"), records, 0, nullptr, 1000, &matched);
  ASSERT_EQ(ranked.size(), 2 * kCandidatesPerKind);
  EXPECT_EQ(matched, records.size());  // Every match is counted, past the caps too.
  std::size_t tasks = 0;
  for (const RankedRecord& r : ranked) tasks += records[r.index].kind == "task";
  EXPECT_EQ(tasks, kCandidatesPerKind);
  // All tie: pages before tasks, each by id.
  EXPECT_EQ(records[ranked[0].index].id, "p100");
  EXPECT_EQ(records[ranked[kCandidatesPerKind].index].id, "t100");
}

TEST(SearchRank, HostileTextNeitherCrashesNorMatchesByAccident) {
  const std::string broken = "\xFF\xFE launch \xC3";
  EXPECT_EQ(SplitQueryJson(broken)["words"], json::array({"launch"}));
  SearchRecord r{"task", "t1", "\xED\xA0\x80 Launch"};
  EXPECT_TRUE(ScoreRecord(SplitQuery("launch"), r, 0, nullptr).has_value());
  EXPECT_FALSE(ScoreRecord(SplitQuery("\xED\xA0\x80"), r, 0, nullptr).has_value());
  EXPECT_FALSE(ScoreRecord(SplitQuery(std::string(100000, '"')), r, 0, nullptr).has_value());
}

TEST(SearchRank, BadCasesAreRefusedWithTheirReason) {
  EXPECT_EQ(RankJson(json::array()).status().code(), codes::kInvalidArgument);
  EXPECT_THAT(RankJson({{"query", "x"}}).status().message(), ::testing::HasSubstr("records"));
  EXPECT_THAT(
      RankJson({{"query", "x"}, {"records", {{{"kind", "task"}, {"id", "a"}}}}}).status().message(),
      ::testing::HasSubstr("title"));
  EXPECT_EQ(RankJson({{"query", "x"}, {"records", json::array()}, {"limit", 0}}).status().code(),
            codes::kInvalidArgument);
}

}  // namespace
}  // namespace ensemble::core::context
