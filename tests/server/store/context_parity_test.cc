// The shared retrieval gives one answer on every store and build (spec 004
// §5): the generated corpus of `tools/bench context`, written into SQLite and
// into PostgreSQL, answers its queries (ranked search), its tasks' context
// graphs and their work packets exactly as tests/vectors/context/
// corpus_parity.json says, and tests/wasm/context_parity.test.mjs holds the
// wasm build to the same file.
//
// After an intended change to the ranking, the graph, the packet or the
// corpus, the failure message names a file holding the new answers: review
// it and copy it over the vectors.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "core/context/search_index.h"
#include "core/hub/hub.h"
#include "tests/server/scratch_store.h"
#include "tests/support/source_file.h"
#include "tools/benchmarks/search_corpus.h"

namespace ensemble::testing {
namespace {

using nlohmann::json;

constexpr char kVectors[] = "tests/vectors/context/corpus_parity.json";

class ContextParity : public ::testing::TestWithParam<StoreKind> {
 protected:
  // The corpus the vectors name, seeded into a new store of the kind.
  void SetUp() override {
    ENSEMBLE_SKIP_IF_STORE_MISSING(GetParam());
    vectors_ = LoadJsonFile(kVectors);
    ASSERT_TRUE(vectors_.is_object()) << "cannot read " << kVectors;
    auto store = ScratchStore::Create(GetParam());
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    store_ = std::move(*store);
    auto db = store_->Connect();
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    db_ = std::move(*db);
    ASSERT_TRUE(core::hub::Migrate(*db_).ok());
    ASSERT_TRUE(bench::SeedSearchCorpus(*db_, vectors_["records"], vectors_["nowMs"]).ok());
  }

  // Expects the corpus in `db` to answer as the vectors say; `stage` names
  // the file the answers go to when not.
  void ExpectVectorAnswers(core::store::Database& db, const json& vectors,
                           const std::string& stage) {
    auto answers = bench::CorpusAnswers(db, vectors["queries"], vectors["tasks"], vectors["nowMs"]);
    ASSERT_TRUE(answers.ok()) << answers.status().ToString();
    const json& expected = vectors["answers"];
    // The vectors hold every query and task (an emptied file would pass).
    EXPECT_EQ(expected["search"].size(), vectors["queries"].get<std::size_t>());
    EXPECT_EQ(expected["items"].size(), vectors["tasks"].get<std::size_t>() + 6);
    bool same = true;
    for (const char* part : {"search", "items"}) {
      const json& got = answers->at(part);
      EXPECT_EQ(got.size(), expected[part].size()) << stage << " " << part;
      same = same && got.size() == expected[part].size();
      for (std::size_t i = 0; i < got.size() && i < expected[part].size(); ++i) {
        EXPECT_EQ(got[i], expected[part][i]) << stage << " " << part << " " << i;
        same = same && got[i] == expected[part][i];
      }
    }
    if (!same) {
      json actual = vectors;
      actual["answers"] = *answers;
      const std::string path =
          (std::filesystem::temp_directory_path() /
           ("corpus_parity." + StoreKindTestName({GetParam(), 0}) + "." + stage + ".json"))
              .string();
      std::ofstream(path) << actual.dump(1) << "\n";
      ADD_FAILURE() << "this store's answers are in " << path;
    }
  }

  json vectors_;
  std::unique_ptr<ScratchStore> store_;
  std::unique_ptr<core::store::Database> db_;
};

TEST_P(ContextParity, TheCorpusAnswersAsTheVectorsSay) {
  ExpectVectorAnswers(*db_, vectors_, "seeded");
}

TEST_P(ContextParity, TheSameAnswersWithPartOfTheIndexRecentThenMerged) {
  // A sixth of each kind's records written again: their rows of the search
  // index are then search_recent's, matched in C++ rather than by SQL's key
  // ranges, and supersede what search_terms holds of them; then merged.
  core::store::Database& d = *db_;
  std::vector<std::pair<std::string, std::string>> again;
  for (const auto& [kind, table] : {std::pair{"task", "tasks"},
                                    {"page", "pages"},
                                    {"person", "people"},
                                    {"project", "projects"}}) {
    auto ids = d.Query(std::string("SELECT id FROM ") + table + " ORDER BY id");
    ASSERT_TRUE(ids.ok()) << ids.status().ToString();
    for (std::size_t i = 0; i < ids->size(); i += 6)
      again.emplace_back(kind, core::store::AsText(ids->rows[i][0]));
  }
  ASSERT_TRUE(core::context::IndexRecords(d, again).ok());
  auto recent = d.Query("SELECT COUNT(*) FROM search_recent");
  ASSERT_TRUE(recent.ok());
  // Projects have a second row, their deliverables'; nothing was merged.
  ASSERT_GT(core::store::AsInt(recent->rows[0][0]), static_cast<int64_t>(again.size()) - 1);
  ExpectVectorAnswers(d, vectors_, "recent");
  ASSERT_TRUE(core::context::MergeRecentTerms(d).ok());
  recent = d.Query("SELECT COUNT(*) FROM search_recent");
  ASSERT_TRUE(recent.ok());
  EXPECT_EQ(core::store::AsInt(recent->rows[0][0]), 0);
  ExpectVectorAnswers(d, vectors_, "merged");
}

INSTANTIATE_TEST_SUITE_P(Stores, ContextParity,
                         ::testing::Values(StoreKind::kSqlite, StoreKind::kPostgres),
                         StoreKindTestName);

}  // namespace
}  // namespace ensemble::testing
