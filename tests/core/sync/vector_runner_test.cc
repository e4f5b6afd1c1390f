// The native half of the parity test: every case in tests/vectors/*.json must
// give exactly the recorded results and rows. tests/wasm/ runs the same files
// through the wasm build, so both builds agree byte for byte.

#include "core/sync/vector_runner.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "core/hub/hub.h"

namespace ensemble::core::sync {
namespace {

using nlohmann::json;

std::filesystem::path VectorDir() {
  const char* root = std::getenv("ENSEMBLE_SOURCE_DIR");
  return std::filesystem::path(root ? root : ".") / "tests" / "vectors";
}

TEST(VectorRunner, EveryVectorGivesItsRecordedRows) {
  int cases = 0;
  for (const auto& entry : std::filesystem::directory_iterator(VectorDir())) {
    if (entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path());
    json file = json::parse(in);
    for (const json& c : file["cases"]) {
      SCOPED_TRACE(entry.path().filename().string() + ": " + c["name"].get<std::string>());
      auto report = RunMutationVector(c, hub::Config(), hub::Migrate);
      ASSERT_TRUE(report.ok()) << report.status().ToString();
      EXPECT_EQ(report->dump(), c["expect"].dump());
      ++cases;
    }
  }
  EXPECT_GE(cases, 5);
}

TEST(VectorRunner, RefusesACaseWithoutMutations) {
  EXPECT_EQ(RunMutationVector(json::object(), hub::Config(), hub::Migrate).status().code(),
            codes::kInvalidArgument);
}

}  // namespace
}  // namespace ensemble::core::sync
