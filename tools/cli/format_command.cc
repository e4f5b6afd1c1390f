// `tools/ensemble format --refs FILE [--plain] [--keep-ids]`: formats the
// reply text on standard input as the app shows it (spec §4.1): records named
// by id become their titles. FILE holds the turn's refs as JSON
// ([{kind, id, label, detail?}]). Prints the text, not JSON.

#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "core/refs/format_entity_text.h"
#include "core/refs/ref_json.h"
#include "tools/cli/command.h"

namespace ensemble::cli {
namespace {

constexpr char kUsage[] =
    "  format --refs FILE [--plain] [--keep-ids]   format the reply on stdin with the turn's refs\n";

int Fail(const std::string& message) {
  std::cerr << "ensemble format: " << message << "\n";
  return 1;
}

int Run(const std::vector<std::string>& args) {
  std::string refs_path;
  core::refs::FormatOptions options;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--refs" && i + 1 < args.size()) {
      refs_path = args[++i];
    } else if (args[i] == "--plain") {
      options.plain = true;
    } else if (args[i] == "--keep-ids") {
      options.keep_ids = true;
    } else {
      std::cerr << "usage:\n" << kUsage;
      return 2;
    }
  }
  if (refs_path.empty()) {
    std::cerr << "ensemble format: --refs FILE is required\nusage:\n" << kUsage;
    return 2;
  }
  std::string refs_text, error;
  if (!ReadFile(refs_path, &refs_text, &error)) return Fail(error);
  nlohmann::json refs_json = nlohmann::json::parse(refs_text, nullptr, /*allow_exceptions=*/false);
  if (refs_json.is_discarded()) return Fail(refs_path + ": not valid JSON");
  auto refs = core::refs::RefSetFromJson(refs_json);
  if (!refs.ok()) return Fail(refs_path + ": " + refs.status().message());
  std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
  std::cout << core::refs::FormatEntityText(text, *refs, options);
  return 0;
}

const CommandRegistrar kRegistrar("format", Command{Run, kUsage});

}  // namespace
}  // namespace ensemble::cli
