// The native half of `tools/bench core` (tools/benchmarks/core_bench.mjs
// writes the inputs, so the native and the wasm builds time the same work):
//
//   format.mb_s.native   FormatEntityText over a reply (--reply FILE) with its
//                        known refs (--refs FILE, a JSON array of refs)
//   route.turn_us.native routing one message: each of the requests in
//                        --route FILE (a JSON array of request strings, as
//                        routeMessage takes them) parsed, routed against the
//                        real playbooks and the hub's tool registry
//                        (TurnRouter::RouteText, checked against
//                        RouteTurnJson first) and its answer written
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
#include <vector>

#include "core/assistant/hub_tools.h"
#include "core/assistant/route_turn.h"
#include "core/hub/hub_tools.h"
#include "core/playbooks/embedded.h"
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
              static_cast<int>(metric.size()), metric.data(), value, static_cast<int>(unit.size()),
              unit.data(), static_cast<int>(better.size()), better.data());
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

// Routes every request in turn until at least `min_seconds` of CPU time have
// passed; returns microseconds per routed message, or -1 on an error. With
// `parsed`, each request is parsed once up front and the answer is not
// written: what is left is the routing and tool selection alone.
double RouteMicroseconds(const std::vector<std::string>& requests, double min_seconds,
                         bool parsed) {
  namespace assistant = ensemble::core::assistant;
  namespace hub = ensemble::core::hub;
  namespace playbooks = ensemble::core::playbooks;
  auto set = playbooks::PlaybookSet::Build(playbooks::EmbeddedPlaybooks());
  if (!set.ok()) return -1;
  const playbooks::Router router(std::move(set).value());
  const auto& registry = hub::HubToolRegistry();
  // Built once, as the Router is: the registry's tools and the playbooks'
  // defaults. Each request below is still parsed, routed and answered whole.
  const assistant::TurnRouter turn_router(router, registry);
  std::vector<nlohmann::json> parsed_requests;
  for (const std::string& text : requests) {
    parsed_requests.push_back(nlohmann::json::parse(text));
    // The timed answer is the json tree's answer, byte for byte.
    auto tree = assistant::RouteTurnJson(router, registry, parsed_requests.back());
    auto answer = turn_router.RouteText(text);
    if (!tree.ok() || !answer.ok() || tree->dump() != *answer) {
      std::fprintf(stderr, "core_bench: RouteText differs from RouteTurnJson on %s\n",
                   text.c_str());
      return -1;
    }
  }
  size_t sink = 0;
  long routed = 0;
  const double start = CpuSeconds();
  double elapsed = 0;
  do {
    if (parsed) {
      for (const nlohmann::json& request : parsed_requests) {
        auto route = assistant::TurnRouteRequest(router, registry, request);
        if (!route.ok()) return -1;
        sink += router.Route(*route).tools.size();
        ++routed;
      }
      elapsed = CpuSeconds() - start;
      continue;
    }
    for (const std::string& text : requests) {
      auto answer = turn_router.RouteText(text);
      if (!answer.ok()) {
        std::fprintf(stderr, "core_bench: %s\n", answer.status().ToString().c_str());
        return -1;
      }
      sink += answer->size();
      ++routed;
    }
    elapsed = CpuSeconds() - start;
  } while (elapsed < min_seconds);
  if (sink == 0) std::fprintf(stderr, "core_bench: empty output\n");
  return elapsed * 1e6 / static_cast<double>(routed);
}

}  // namespace

int main(int argc, char** argv) {
  const char* reply_path = nullptr;
  const char* refs_path = nullptr;
  const char* route_path = nullptr;
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--reply") == 0 && i + 1 < argc) {
      reply_path = argv[++i];
    } else if (std::strcmp(argv[i], "--refs") == 0 && i + 1 < argc) {
      refs_path = argv[++i];
    } else if (std::strcmp(argv[i], "--route") == 0 && i + 1 < argc) {
      route_path = argv[++i];
    } else if (std::strcmp(argv[i], "--quick") == 0) {
      quick = true;
    } else {
      return Fail("usage: core_bench --reply FILE --refs FILE --route FILE [--quick]");
    }
  }
  if (reply_path == nullptr || refs_path == nullptr || route_path == nullptr) {
    return Fail("usage: core_bench --reply FILE --refs FILE --route FILE [--quick]");
  }
  std::string reply, refs_text, route_text;
  if (!ReadFile(reply_path, &reply) || !ReadFile(refs_path, &refs_text) ||
      !ReadFile(route_path, &route_text)) {
    return Fail("cannot read the input files");
  }
  nlohmann::json refs_json = nlohmann::json::parse(refs_text, nullptr, false);
  if (refs_json.is_discarded()) return Fail("the refs file is not JSON");
  auto set = refs::RefSetFromJson(refs_json);
  if (!set.ok()) return Fail(set.status().message().c_str());

  nlohmann::json route_json = nlohmann::json::parse(route_text, nullptr, false);
  if (!route_json.is_array() || route_json.empty()) return Fail("--route must be a JSON array");
  std::vector<std::string> requests;
  for (const auto& request : route_json) {
    if (!request.is_string()) return Fail("--route must hold request strings");
    requests.push_back(request.get<std::string>());
  }
  const double route_us = RouteMicroseconds(requests, quick ? 0.5 : 2.0, /*parsed=*/false);
  const double select_us = RouteMicroseconds(requests, quick ? 0.5 : 2.0, /*parsed=*/true);
  if (route_us < 0 || select_us < 0) return Fail("routing failed");
  Emit("route.turn_us.native", route_us, "us", "lower");
  Emit("route.select_us.native", select_us, "us", "lower");
  Emit("format.mb_s.native", FormatMbPerSecond(reply, *set, quick ? 0.5 : 2.0), "MB/s", "higher");
  return 0;
}
