// transcript.mb_s.native: how fast the core reads transcripts (spec target
// >= 100 MB/s). Parses a few MB of generated transcripts in five formats
// (teams-vtt, zoom-txt, teams-copy, speaker-lines, fireflies-json), each file
// under the 400,000-character cap, through the whole pipeline (detection,
// reading, merging, phrase suggestions), and prints one JSON line.
// --quick parses each file fewer times; --by-format also prints each
// format's speed on stderr. Timed in process CPU time, so other
// work on a busy machine does not skew it (the parser is single-threaded).

#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "core/meetings/transcript.h"

namespace {

namespace meetings = ensemble::core::meetings;

constexpr size_t kFileBytes = 350'000;  // Under the 400,000-character cap.
constexpr int kFilesPerFormat = 3;

const char* const kSpeakers[] = {"Ana Silva", "Ben Okafor", "Chen Li", "Dana Kim", "Elena Petrova"};
const char* const kSentences[] = {
    "Thanks everyone for joining, let's look at the numbers from last week.",
    "The conversion rate went up a little after the pricing page change.",
    "I'll send the updated forecast to finance by Thursday.",
    "Could you review the onboarding copy before we ship it?",
    "We agreed to keep the current plan for the enterprise tier.",
    "There is still an open question about the data retention policy.",
    "Support tickets dropped by about fifteen percent this month.",
    "Action item: schedule a follow-up with the design team.",
    "I think the mobile release can go out on Monday if QA signs off.",
    "Let's park that topic and come back to it next week.",
};

std::string Clock(int seconds, bool hours) {
  char buffer[32];
  if (hours) {
    std::snprintf(buffer, sizeof buffer, "%02d:%02d:%02d", seconds / 3600, (seconds / 60) % 60, seconds % 60);
  } else {
    std::snprintf(buffer, sizeof buffer, "%d:%02d", seconds / 60, seconds % 60);
  }
  return buffer;
}

std::string Generate(int format, int seed) {
  std::string out;
  int t = 0;
  if (format == 0) out = "WEBVTT\n\n";
  if (format == 4) out = "{\"title\":\"Weekly sync\",\"sentences\":[";
  for (int i = 0; out.size() < kFileBytes; ++i) {
    // Runs of one speaker, so merging is exercised.
    const char* speaker = kSpeakers[((i / 3) + seed) % 5];
    const char* text = kSentences[(i * 7 + seed) % 10];
    int next = t + 3 + (i % 5);
    switch (format) {
      case 0:
        out += Clock(t, true) + ".000 --> " + Clock(next, true) + ".000\n<v " + speaker + ">" + text + "</v>\n\n";
        break;
      case 1:
        out += std::string("[") + speaker + "] " + Clock(t, true) + "\n" + text + "\n";
        break;
      case 2:
        out += std::string(speaker) + "   " + Clock(t, false) + "\n" + text + "\n\n";
        break;
      case 3:
        out += "[" + Clock(t, false) + "] " + speaker + ": " + text + "\n";
        break;
      default:
        if (i) out += ",";
        out += std::string("{\"speaker_name\":\"") + speaker + "\",\"text\":\"" + text +
               "\",\"start_time\":" + std::to_string(t) + ",\"end_time\":" + std::to_string(next) + "}";
        break;
    }
    t = next;
  }
  if (format == 4) out += "]}";
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::string_view(argv[1]) == "--quick";
  std::vector<std::string> files;
  size_t bytes = 0;
  for (int format = 0; format < 5; ++format) {
    for (int seed = 0; seed < kFilesPerFormat; ++seed) {
      files.push_back(Generate(format, seed));
      bytes += files.back().size();
    }
  }
  // Warm up, and check every file parses.
  size_t turns = 0;
  for (const std::string& file : files) {
    auto t = meetings::ParseTranscript(file, "Weekly sync 2025-03-14.txt");
    if (!t.ok() || t->turns.empty() || !t->warnings.empty()) {
      std::fprintf(stderr, "transcript_bench: a generated file failed: %s\n", t.status().ToString().c_str());
      return 1;
    }
    turns += t->turns.size();
  }
  const int rounds = quick ? 3 : 20;
  const bool by_format = argc > 1 && std::string_view(argv[argc - 1]) == "--by-format";
  auto cpu_seconds = [] {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
  };
  if (by_format) {
    const char* const names[] = {"teams-vtt", "zoom-txt", "teams-copy", "speaker-lines", "fireflies-json"};
    for (int format = 0; format < 5; ++format) {
      double begin = cpu_seconds();
      size_t format_bytes = 0;
      for (int r = 0; r < rounds; ++r) {
        for (int seed = 0; seed < kFilesPerFormat; ++seed) {
          const std::string& file = files[format * kFilesPerFormat + seed];
          auto t = meetings::ParseTranscript(file, "Weekly sync 2025-03-14.txt");
          format_bytes += t.ok() ? file.size() : 0;
        }
      }
      std::fprintf(stderr, "%-15s %7.1f MB/s\n", names[format],
                   static_cast<double>(format_bytes) / (1024.0 * 1024.0) / (cpu_seconds() - begin));
    }
  }
  const double start = cpu_seconds();
  for (int r = 0; r < rounds; ++r) {
    for (const std::string& file : files) {
      auto t = meetings::ParseTranscript(file, "Weekly sync 2025-03-14.txt");
      turns += t.ok() ? t->turns.size() : 0;
    }
  }
  const double seconds = cpu_seconds() - start;
  double mb_s = static_cast<double>(bytes) * rounds / (1024.0 * 1024.0) / seconds;
  std::printf("{\"metric\":\"transcript.mb_s.native\",\"value\":%.1f,\"unit\":\"MB/s\",\"better\":\"higher\"}\n", mb_s);
  return turns > 0 ? 0 : 1;
}
