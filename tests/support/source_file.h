// Reading the repository's own files (test vectors, samples) from a test.
//
// ctest sets ENSEMBLE_SOURCE_DIR to the repository; a binary run by hand from
// the repository's root finds the files too.

#ifndef ENSEMBLE_TESTS_SUPPORT_SOURCE_FILE_H_
#define ENSEMBLE_TESTS_SUPPORT_SOURCE_FILE_H_

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace ensemble::testing {

inline std::string SourcePath(std::string_view relative) {
  const char* root = std::getenv("ENSEMBLE_SOURCE_DIR");
  return std::string(root ? root : ".") + "/" + std::string(relative);
}

// The JSON file at `relative`; a discarded value when it is missing or
// malformed, so a test can assert on that instead of throwing.
template <typename Json = nlohmann::json>
Json LoadJsonFile(std::string_view relative) {
  std::ifstream in(SourcePath(relative));
  return Json::parse(in, nullptr, /*allow_exceptions=*/false);
}

}  // namespace ensemble::testing

#endif  // ENSEMBLE_TESTS_SUPPORT_SOURCE_FILE_H_
