// Test helper: the sample transcripts in tests/data/transcripts/.

#ifndef ENSEMBLE_TESTS_CORE_MEETINGS_SAMPLES_H_
#define ENSEMBLE_TESTS_CORE_MEETINGS_SAMPLES_H_

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace ensemble::testing {

inline std::filesystem::path SourceDir() {
  const char* root = std::getenv("ENSEMBLE_SOURCE_DIR");
  return std::filesystem::path(root ? root : ".");
}

inline std::filesystem::path SampleDir() { return SourceDir() / "tests" / "data" / "transcripts"; }

inline std::string ReadBytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

inline std::string ReadSample(const std::string& name) { return ReadBytes(SampleDir() / name); }

}  // namespace ensemble::testing

#endif  // ENSEMBLE_TESTS_CORE_MEETINGS_SAMPLES_H_
