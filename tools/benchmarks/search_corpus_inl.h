// MedianMs (search_corpus.h): steady_clock is emscripten_get_now in the wasm
// build, so both builds time alike.

#ifndef ENSEMBLE_TOOLS_BENCHMARKS_SEARCH_CORPUS_INL_H_
#define ENSEMBLE_TOOLS_BENCHMARKS_SEARCH_CORPUS_INL_H_

#include <algorithm>
#include <chrono>

namespace ensemble::bench {

template <typename Item, typename Run>
core::Result<double> MedianMs(const std::vector<Item>& items, Run run) {
  if (items.empty()) return core::InvalidArgument("nothing to time");
  for (std::size_t i = 0; i < std::max<std::size_t>(1, items.size() / 10); ++i) {
    ENSEMBLE_RETURN_IF_ERROR(run(items[i]));
  }
  std::vector<double> ms;
  ms.reserve(items.size());
  for (const Item& item : items) {
    const auto start = std::chrono::steady_clock::now();
    ENSEMBLE_RETURN_IF_ERROR(run(item));
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                     .count());
  }
  std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
  return ms[ms.size() / 2];
}

}  // namespace ensemble::bench

#endif  // ENSEMBLE_TOOLS_BENCHMARKS_SEARCH_CORPUS_INL_H_
