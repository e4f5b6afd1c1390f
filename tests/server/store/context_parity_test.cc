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
#include <nlohmann/json.hpp>
#include <string>

#include "core/hub/hub.h"
#include "tests/server/scratch_store.h"
#include "tests/support/source_file.h"
#include "tools/benchmarks/search_corpus.h"

namespace ensemble::testing {
namespace {

using nlohmann::json;

constexpr char kVectors[] = "tests/vectors/context/corpus_parity.json";

class ContextParity : public ::testing::TestWithParam<StoreKind> {};

TEST_P(ContextParity, TheCorpusAnswersAsTheVectorsSay) {
  ENSEMBLE_SKIP_IF_STORE_MISSING(GetParam());
  const json vectors = LoadJsonFile(kVectors);
  ASSERT_TRUE(vectors.is_object()) << "cannot read " << kVectors;
  auto store = ScratchStore::Create(GetParam());
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  auto db = (*store)->Connect();
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  ASSERT_TRUE(core::hub::Migrate(**db).ok());
  const int64_t now_ms = vectors["nowMs"];
  ASSERT_TRUE(bench::SeedSearchCorpus(**db, vectors["records"], now_ms).ok());
  auto answers = bench::CorpusAnswers(**db, vectors["queries"], vectors["tasks"], now_ms);
  ASSERT_TRUE(answers.ok()) << answers.status().ToString();
  const json& expected = vectors["answers"];
  // The vectors hold every query and task (an emptied file would pass).
  EXPECT_EQ(expected["search"].size(), vectors["queries"].get<std::size_t>());
  EXPECT_EQ(expected["items"].size(), vectors["tasks"].get<std::size_t>() + 6);
  bool same = true;
  for (const char* part : {"search", "items"}) {
    const json& got = answers->at(part);
    EXPECT_EQ(got.size(), expected[part].size()) << part;
    same = same && got.size() == expected[part].size();
    for (std::size_t i = 0; i < got.size() && i < expected[part].size(); ++i) {
      EXPECT_EQ(got[i], expected[part][i]) << part << " " << i;
      same = same && got[i] == expected[part][i];
    }
  }
  if (!same) {
    json actual = vectors;
    actual["answers"] = *answers;
    const std::string path = (std::filesystem::temp_directory_path() /
                              ("corpus_parity." + StoreKindTestName({GetParam(), 0}) + ".json"))
                                 .string();
    std::ofstream(path) << actual.dump(1) << "\n";
    ADD_FAILURE() << "this store's answers are in " << path;
  }
}

INSTANTIATE_TEST_SUITE_P(Stores, ContextParity,
                         ::testing::Values(StoreKind::kSqlite, StoreKind::kPostgres),
                         StoreKindTestName);

}  // namespace
}  // namespace ensemble::testing
