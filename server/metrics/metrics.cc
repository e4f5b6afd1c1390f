#include "server/metrics/metrics.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace ensemble::server::metrics {
namespace {

// A number as the text format writes it: integers without a fraction, and
// +Inf, -Inf and NaN by name.
std::string FormatNumber(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  if (v == std::floor(v) && std::fabs(v) < 1e15) {
    return std::to_string(static_cast<long long>(v));
  }
  // The shortest text that reads back as the same number.
  char buf[32];
  for (int precision = 6; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof(buf), "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

void EscapeInto(std::string_view text, bool quote_too, std::string* out) {
  for (char c : text) {
    if (c == '\\') {
      *out += "\\\\";
    } else if (c == '\n') {
      *out += "\\n";
    } else if (c == '"' && quote_too) {
      *out += "\\\"";
    } else {
      *out += c;
    }
  }
}

// `labels` with one more pair, rendered (a histogram bucket's "le").
std::string LabelsWith(const Labels& labels, std::string_view name, const std::string& value) {
  Labels all = labels;
  all.emplace_back(std::string(name), value);
  return RenderLabels(all);
}

}  // namespace

std::string RenderLabels(const Labels& labels) {
  if (labels.empty()) return "";
  std::string out = "{";
  for (size_t i = 0; i < labels.size(); ++i) {
    if (i) out += ',';
    out += labels[i].first;
    out += "=\"";
    EscapeInto(labels[i].second, /*quote_too=*/true, &out);
    out += '"';
  }
  out += '}';
  return out;
}

Histogram::Histogram(std::span<const double> bounds)
    : bounds_(bounds.begin(), bounds.end()),
      buckets_(new std::atomic<uint64_t>[bounds.size() + 1]) {
  for (size_t i = 0; i <= bounds_.size(); ++i) buckets_[i].store(0, std::memory_order_relaxed);
}

void Histogram::Observe(double value) {
  const size_t bucket =
      std::lower_bound(bounds_.begin(), bounds_.end(), value) - bounds_.begin();  // le: <=.
  buckets_[bucket].fetch_add(1, std::memory_order_relaxed);
  sum_.fetch_add(value, std::memory_order_relaxed);
  count_.fetch_add(1, std::memory_order_relaxed);
}

Histogram::Snapshot Histogram::Read() const {
  Snapshot s;
  uint64_t running = 0;
  for (size_t i = 0; i <= bounds_.size(); ++i) {
    running += buckets_[i].load(std::memory_order_relaxed);
    s.cumulative.push_back(running);
  }
  // Read apart from the buckets: a scrape during an Observe may see the
  // count one off the +Inf bucket, which the format tolerates.
  s.count = running;
  s.sum = sum_.load(std::memory_order_relaxed);
  return s;
}

Registry::Series& Registry::Find(std::string_view name, std::string_view help, Kind kind,
                                 const Labels& labels, std::span<const double> bounds) {
  std::lock_guard lock(mu_);
  auto family = families_.find(name);
  if (family == families_.end()) {
    family = families_.emplace(std::string(name), Family{kind, std::string(help), {}}).first;
  }
  auto make = [&](Series& s) {
    s.labels = labels;
    if (kind == Kind::kCounter) s.counter = std::make_unique<Counter>();
    if (kind == Kind::kGauge) s.gauge = std::make_unique<Gauge>();
    if (kind == Kind::kHistogram) s.histogram = std::make_unique<Histogram>(bounds);
  };
  if (family->second.kind != kind) {
    strays_.push_back(std::make_unique<Series>());
    make(*strays_.back());
    return *strays_.back();
  }
  auto [it, inserted] = family->second.series.try_emplace(RenderLabels(labels));
  if (inserted) make(it->second);
  return it->second;
}

Counter& Registry::GetCounter(std::string_view name, std::string_view help, const Labels& labels) {
  return *Find(name, help, Kind::kCounter, labels, {}).counter;
}

Gauge& Registry::GetGauge(std::string_view name, std::string_view help, const Labels& labels) {
  return *Find(name, help, Kind::kGauge, labels, {}).gauge;
}

Histogram& Registry::GetHistogram(std::string_view name, std::string_view help,
                                  const Labels& labels, std::span<const double> bounds) {
  return *Find(name, help, Kind::kHistogram, labels, bounds).histogram;
}

std::string Registry::Render() const {
  std::lock_guard lock(mu_);
  std::string out;
  for (const auto& [name, family] : families_) {
    out += "# HELP " + name + ' ';
    EscapeInto(family.help, /*quote_too=*/false, &out);
    out += "\n# TYPE " + name + ' ';
    out += family.kind == Kind::kCounter ? "counter"
           : family.kind == Kind::kGauge ? "gauge"
                                         : "histogram";
    out += '\n';
    for (const auto& [labels, series] : family.series) {
      if (series.counter) {
        out += name + labels + ' ' + std::to_string(series.counter->value()) + '\n';
      } else if (series.gauge) {
        out += name + labels + ' ' + std::to_string(series.gauge->value()) + '\n';
      } else if (series.histogram) {
        const Histogram::Snapshot s = series.histogram->Read();
        const std::span<const double> bounds = series.histogram->bounds();
        for (size_t i = 0; i <= bounds.size(); ++i) {
          const std::string le = i < bounds.size() ? FormatNumber(bounds[i]) : "+Inf";
          out += name + "_bucket" + LabelsWith(series.labels, "le", le) + ' ' +
                 std::to_string(s.cumulative[i]) + '\n';
        }
        out += name + "_sum" + labels + ' ' + FormatNumber(s.sum) + '\n';
        out += name + "_count" + labels + ' ' + std::to_string(s.count) + '\n';
      }
    }
  }
  return out;
}

}  // namespace ensemble::server::metrics
