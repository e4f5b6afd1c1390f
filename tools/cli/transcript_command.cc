// `tools/ensemble transcript preview FILE` and `transcript cues FILE`: the
// core's transcript parser on a file, as JSON (core/meetings/preview.h).
// `transcript parse FILE` prints the whole parsed transcript.

#include <iostream>
#include <string>
#include <vector>

#include "core/meetings/preview.h"
#include "core/meetings/transcript.h"
#include "tools/cli/command.h"

namespace ensemble::cli {
namespace {

namespace meetings = ensemble::core::meetings;

constexpr char kUsage[] =
    "  transcript preview FILE   the upload preview (format, speakers, first lines, ...)\n"
    "  transcript parse FILE     every merged turn, summary, decisions and action items\n"
    "  transcript cues FILE      caption cues (vtt, srt) before merging, times in seconds\n";

int Fail(const std::string& message) {
  std::cerr << "ensemble transcript: " << message << "\n";
  return 1;
}

std::string BaseName(const std::string& path) {
  size_t slash = path.find_last_of("/\\");
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

int Run(const std::vector<std::string>& args) {
  if (args.size() != 2 || (args[0] != "preview" && args[0] != "parse" && args[0] != "cues")) {
    std::cerr << "usage:\n" << kUsage;
    return 2;
  }
  std::string bytes, error;
  if (!ReadFile(args[1], &bytes, &error)) return Fail(error);
  nlohmann::json out;
  if (args[0] == "cues") {
    auto cues = meetings::ParseCaptionCues(bytes);
    if (!cues.ok()) return Fail(args[1] + ": " + cues.status().message());
    out = meetings::CuesJson(*cues);
  } else {
    auto transcript = meetings::ParseTranscriptFile(bytes, BaseName(args[1]));
    if (!transcript.ok()) return Fail(args[1] + ": " + transcript.status().message());
    out = args[0] == "preview" ? meetings::PreviewJson(*transcript)
                               : meetings::TranscriptJson(*transcript);
  }
  std::cout << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  return 0;
}

const CommandRegistrar kRegistrar("transcript", Command{Run, kUsage});

}  // namespace
}  // namespace ensemble::cli
