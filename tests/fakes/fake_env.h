// Deterministic fakes of the platform interfaces for tests: a clock that
// moves only when told, a seeded random source, and a logger that keeps lines.
//
// Thread-safety: none; one test at a time.

#ifndef ENSEMBLE_TESTS_FAKES_FAKE_ENV_H_
#define ENSEMBLE_TESTS_FAKES_FAKE_ENV_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/platform/env.h"

namespace ensemble::testing {

class FakeClock : public core::platform::Clock {
 public:
  explicit FakeClock(int64_t now_ms = 1'764'000'000'000) : now_(now_ms) {}
  int64_t NowMillis() const override { return now_; }
  void Advance(int64_t ms) { now_ += ms; }
  void Set(int64_t ms) { now_ = ms; }

 private:
  int64_t now_;
};

// xorshift64*: the same seed gives the same bytes on every platform.
class FakeRandom : public core::platform::Random {
 public:
  explicit FakeRandom(uint64_t seed = 42) : state_(seed ? seed : 1) {}
  void Fill(uint8_t* out, size_t size) override {
    for (size_t i = 0; i < size; ++i) {
      state_ ^= state_ >> 12;
      state_ ^= state_ << 25;
      state_ ^= state_ >> 27;
      out[i] = static_cast<uint8_t>((state_ * 0x2545F4914F6CDD1DULL) >> 56);
    }
  }

 private:
  uint64_t state_;
};

class FakeLogger : public core::platform::Logger {
 public:
  void Log(core::platform::LogLevel, std::string_view message) override {
    lines.emplace_back(message);
  }
  std::vector<std::string> lines;
};

struct FakeEnv {
  FakeClock clock;
  FakeRandom random;
  FakeLogger logger;
  core::platform::Env env() { return {&clock, &random, &logger}; }
};

}  // namespace ensemble::testing

#endif  // ENSEMBLE_TESTS_FAKES_FAKE_ENV_H_
