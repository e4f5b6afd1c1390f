#include "core/model/model_timeout.h"

#include <algorithm>
#include <cstdint>

namespace ensemble::core::model {
namespace {

using std::chrono::milliseconds;

// Longer than any sane value, short of overflowing int64 milliseconds.
constexpr int kMaxDigits = 15;

std::string Count(int64_t n, std::string_view unit) {
  std::string out = std::to_string(n) + " " + std::string(unit);
  if (n != 1) out += "s";
  return out;
}

}  // namespace

Result<milliseconds> ParseModelCallTimeout(std::optional<std::string_view> value) {
  if (!value) return kDefaultModelCallTimeout;
  std::string_view v = *value;
  while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
  while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
  if (v.empty()) return kDefaultModelCallTimeout;
  if (v.size() > kMaxDigits ||
      !std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return Status(codes::kInvalidArgument, std::string(kModelCallTimeoutEnv) +
                                               " must be a whole number of milliseconds, not '" +
                                               std::string(*value) + "'");
  }
  int64_t ms = 0;
  for (char c : v) ms = ms * 10 + (c - '0');
  return std::clamp(milliseconds(ms), kMinModelCallTimeout, kMaxModelCallTimeout);
}

milliseconds EffectiveModelCallTimeout(milliseconds configured,
                                       std::optional<milliseconds> caller_limit) {
  if (caller_limit && caller_limit->count() > 0 && *caller_limit < configured) {
    return *caller_limit;
  }
  return configured;
}

std::string WordDuration(milliseconds duration) {
  int64_t seconds = std::max<int64_t>(1, (duration.count() + 500) / 1000);
  const int64_t minutes = seconds / 60;
  seconds %= 60;
  if (minutes == 0) return Count(seconds, "second");
  if (seconds == 0) return Count(minutes, "minute");
  return Count(minutes, "minute") + " " + Count(seconds, "second");
}

std::string ModelTimeoutMessage(std::string_view model, milliseconds limit) {
  std::string name = model.empty() ? std::string("The model") : std::string(model);
  return name + " did not answer within " + WordDuration(limit) +
         ", so I stopped waiting. Ask again, or try a narrower question.";
}

Status ModelTimeoutError(std::string_view model, milliseconds limit) {
  return Status(codes::kModelTimeout, ModelTimeoutMessage(model, limit));
}

}  // namespace ensemble::core::model
