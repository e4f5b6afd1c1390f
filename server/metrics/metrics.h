// Metrics: the server's counters, gauges and histograms, and their rendering
// in the Prometheus text exposition format (version 0.0.4) for GET /metrics.
//
// A metric is found by family name and label values; the first use creates
// it, so the families a server exposes are the ones it has used, plus those
// registered up front (Registry::Describe) so that a scrape shows them at 0.
// Callers on hot paths keep the reference they get: a metric lives as long as
// its Registry, and updating one is a relaxed atomic operation.
//
// Label values come from the server's own vocabulary (route patterns, status
// codes, outcome names), never from what a client sent, so the number of
// series stays bounded.
//
// Thread-safety: every member of every class here may be called from any
// thread at once.

#ifndef ENSEMBLE_SERVER_METRICS_METRICS_H_
#define ENSEMBLE_SERVER_METRICS_METRICS_H_

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ensemble::server::metrics {

// Upper bounds, in seconds, of the latency histograms' buckets: from a
// request served from memory (1 ms) to a model call (30 s).
inline constexpr std::array<double, 14> kLatencyBuckets = {
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30};

// Label names and values, in the order the family declares them.
using Labels = std::vector<std::pair<std::string, std::string>>;

class Counter {
 public:
  void Add(uint64_t n = 1) { value_.fetch_add(n, std::memory_order_relaxed); }
  uint64_t value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<uint64_t> value_{0};
};

class Gauge {
 public:
  void Add(int64_t n) { value_.fetch_add(n, std::memory_order_relaxed); }
  void Set(int64_t n) { value_.store(n, std::memory_order_relaxed); }
  int64_t value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<int64_t> value_{0};
};

// Adds 1 to a gauge while alive (an open stream, a job in flight).
class GaugeHold {
 public:
  explicit GaugeHold(Gauge* gauge) : gauge_(gauge) {
    if (gauge_) gauge_->Add(1);
  }
  ~GaugeHold() {
    if (gauge_) gauge_->Add(-1);
  }
  GaugeHold(const GaugeHold&) = delete;
  GaugeHold& operator=(const GaugeHold&) = delete;

 private:
  Gauge* gauge_;
};

class Histogram {
 public:
  // `bounds`: the buckets' upper bounds, ascending; +Inf is implied.
  explicit Histogram(std::span<const double> bounds);

  void Observe(double value);

  struct Snapshot {
    std::vector<uint64_t> cumulative;  // One per bound, then +Inf.
    double sum = 0;
    uint64_t count = 0;
  };
  Snapshot Read() const;
  std::span<const double> bounds() const { return bounds_; }

 private:
  std::vector<double> bounds_;
  std::unique_ptr<std::atomic<uint64_t>[]> buckets_;  // One per bound, then +Inf.
  std::atomic<uint64_t> count_{0};
  std::atomic<double> sum_{0};
};

class Registry {
 public:
  Registry() = default;
  Registry(const Registry&) = delete;
  Registry& operator=(const Registry&) = delete;

  // The metric of family `name` with `labels`; `help` describes the family
  // and is kept from its first use. A name used as two kinds is a bug: the
  // second kind's metric is still returned, but never rendered.
  Counter& GetCounter(std::string_view name, std::string_view help, const Labels& labels = {});
  Gauge& GetGauge(std::string_view name, std::string_view help, const Labels& labels = {});
  Histogram& GetHistogram(std::string_view name, std::string_view help, const Labels& labels = {},
                          std::span<const double> bounds = kLatencyBuckets);

  // Every family in the text format, by name, each series by its labels.
  std::string Render() const;

 private:
  enum class Kind { kCounter, kGauge, kHistogram };
  struct Series {
    Labels labels;
    std::unique_ptr<Counter> counter;
    std::unique_ptr<Gauge> gauge;
    std::unique_ptr<Histogram> histogram;
  };
  struct Family {
    Kind kind;
    std::string help;
    std::map<std::string, Series> series;  // By rendered labels.
  };

  Series& Find(std::string_view name, std::string_view help, Kind kind, const Labels& labels,
               std::span<const double> bounds);

  mutable std::mutex mu_;
  std::map<std::string, Family, std::less<>> families_;  // Guarded by mu_.
  std::vector<std::unique_ptr<Series>> strays_;          // A kind clash's metrics.
};

// `labels` as the text format writes them: {a="x",b="y"}, with \, " and
// newlines escaped; empty for no labels.
std::string RenderLabels(const Labels& labels);

}  // namespace ensemble::server::metrics

#endif  // ENSEMBLE_SERVER_METRICS_METRICS_H_
