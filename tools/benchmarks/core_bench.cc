// The native half of `tools/bench core` (tools/benchmarks/core_bench.mjs
// writes the inputs, so the native and the wasm builds time the same work):
//
//   format.mb_s.native   FormatEntityText over a reply (--reply FILE) with its
//                        known refs (--refs FILE, a JSON array of refs)
//
// Prints one JSON object per metric line. Timed in process CPU time, so other
// work on a busy machine skews it less (the code is single-threaded).

#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "core/refs/format_entity_text.h"
#include "core/refs/ref_json.h"

namespace {

namespace refs = ensemble::core::refs;

double CpuSeconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

bool ReadFile(const char* path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  out->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return true;
}

void Emit(std::string_view metric, double value, std::string_view unit, std::string_view better) {
  std::printf("{\"metric\": \"%.*s\", \"value\": %.2f, \"unit\": \"%.*s\", \"better\": \"%.*s\"}\n",
              static_cast<int>(metric.size()), metric.data(), value,
              static_cast<int>(unit.size()), unit.data(), static_cast<int>(better.size()),
              better.data());
}

int Fail(const char* message) {
  std::fprintf(stderr, "core_bench: %s\n", message);
  return 1;
}

// Formats `reply` until at least `min_seconds` of CPU time have passed and
// returns the throughput in MB/s (1 MB = 1e6 bytes).
double FormatMbPerSecond(const std::string& reply, const refs::RefSet& set, double min_seconds) {
  refs::FormatOptions options;
  size_t sink = 0;
  int runs = 0;
  const double start = CpuSeconds();
  double elapsed = 0;
  do {
    sink += refs::FormatEntityText(reply, set, options).size();
    ++runs;
    elapsed = CpuSeconds() - start;
  } while (elapsed < min_seconds);
  if (sink == 0) std::fprintf(stderr, "core_bench: empty output\n");
  return static_cast<double>(reply.size()) * runs / elapsed / 1e6;
}

}  // namespace

int main(int argc, char** argv) {
  const char* reply_path = nullptr;
  const char* refs_path = nullptr;
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--reply") == 0 && i + 1 < argc) {
      reply_path = argv[++i];
    } else if (std::strcmp(argv[i], "--refs") == 0 && i + 1 < argc) {
      refs_path = argv[++i];
    } else if (std::strcmp(argv[i], "--quick") == 0) {
      quick = true;
    } else {
      return Fail("usage: core_bench --reply FILE --refs FILE [--quick]");
    }
  }
  if (reply_path == nullptr || refs_path == nullptr) {
    return Fail("usage: core_bench --reply FILE --refs FILE [--quick]");
  }
  std::string reply, refs_text;
  if (!ReadFile(reply_path, &reply) || !ReadFile(refs_path, &refs_text)) {
    return Fail("cannot read the input files");
  }
  nlohmann::json refs_json = nlohmann::json::parse(refs_text, nullptr, false);
  if (refs_json.is_discarded()) return Fail("the refs file is not JSON");
  auto set = refs::RefSetFromJson(refs_json);
  if (!set.ok()) return Fail(set.status().message().c_str());

  Emit("format.mb_s.native", FormatMbPerSecond(reply, *set, quick ? 0.5 : 2.0), "MB/s", "higher");
  return 0;
}
