// iCalendar parse + expand throughput of the native core:
//   ics_bench FILE... --from ISO --to ISO [--iterations N] [--quick]
// Expands every file over the window N times and prints
// {"metric":"ics.parse_expand_mb_s.native", ...} and the occurrence count
// (ics.occurrences), so tools/benchmarks/calendar_bench.mjs can compare the
// same files with the wasm build and ical.js.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "core/calendar/ics_calendar.h"

namespace calendar = ensemble::core::calendar;

int main(int argc, char** argv) {
  std::vector<std::string> texts;
  std::string from = "2026-03-01T00:00:00Z", to = "2026-04-12T00:00:00Z";
  int iterations = 20;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if ((arg == "--from" || arg == "--to" || arg == "--iterations") && i + 1 < argc) {
      const std::string value = argv[++i];
      if (arg == "--from") from = value;
      if (arg == "--to") to = value;
      if (arg == "--iterations") iterations = std::max(1, std::atoi(value.c_str()));
    } else if (arg == "--quick") {
      iterations = 5;
    } else {
      std::ifstream in(arg, std::ios::binary);
      if (!in) {
        std::cerr << "ics_bench: cannot read " << arg << "\n";
        return 1;
      }
      std::ostringstream s;
      s << in.rdbuf();
      texts.push_back(s.str());
    }
  }
  if (texts.empty()) {
    std::cerr << "usage: ics_bench FILE... [--from ISO] [--to ISO] [--iterations N] [--quick]\n";
    return 2;
  }
  auto from_utc = calendar::ParseIsoInstant(from);
  auto to_utc = calendar::ParseIsoInstant(to);
  if (!from_utc.ok() || !to_utc.ok()) {
    std::cerr << "ics_bench: bad --from or --to\n";
    return 2;
  }
  calendar::ExpandOptions options;
  options.window = {*from_utc, *to_utc};
  options.max_events = SIZE_MAX / 4;  // Measure everything; the cap is the product's.
  size_t bytes = 0, occurrences = 0;
  for (const auto& t : texts) bytes += t.size();
  auto run = [&] {
    occurrences = 0;
    for (const auto& t : texts) {
      auto r = calendar::ExpandIcs(t, "bench", options);
      if (!r.ok()) {
        std::cerr << "ics_bench: " << r.status().ToString() << "\n";
        std::exit(1);
      }
      occurrences += r->events.size();
    }
  };
  run();  // Warm-up.
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < iterations; ++i) run();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double mb_s = static_cast<double>(bytes) * iterations / (1024.0 * 1024.0) / seconds;
  std::printf("{\"metric\":\"ics.parse_expand_mb_s.native\",\"value\":%.2f,\"unit\":\"MB/s\","
              "\"better\":\"higher\"}\n",
              mb_s);
  std::printf("{\"metric\":\"ics.occurrences\",\"value\":%zu,\"unit\":\"events\","
              "\"better\":\"higher\"}\n",
              occurrences);
  return 0;
}
