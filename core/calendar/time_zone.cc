#include "core/calendar/time_zone.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "core/calendar/civil_time.h"
#include "core/text/ascii.h"

namespace ensemble::core::calendar {
namespace {

struct ZoneRecord {
  const char* name;
  const char* posix;
  int32_t initial_offset;
  const char* transitions;
};
struct ZoneLink {
  const char* alias;
  const char* target;
};
struct WindowsZone {
  const char* windows;
  const char* iana;
};

#include "core/calendar/tz_data.inc"
#include "core/calendar/windows_zones.inc"

template <typename T, size_t N, typename Key>
const T* FindSorted(const T (&table)[N], std::string_view name, Key key) {
  auto it = std::lower_bound(std::begin(table), std::end(table), name,
                             [&](const T& row, std::string_view n) { return key(row) < n; });
  if (it != std::end(table) && key(*it) == name) return it;
  return nullptr;
}

const ZoneRecord* FindRecord(std::string_view name) {
  auto zone_name = [](const ZoneRecord& r) { return std::string_view(r.name); };
  if (const ZoneRecord* r = FindSorted(kZoneRecords, name, zone_name)) return r;
  auto alias = [](const ZoneLink& l) { return std::string_view(l.alias); };
  if (const ZoneLink* l = FindSorted(kZoneLinks, name, alias)) {
    return FindSorted(kZoneRecords, l->target, zone_name);
  }
  return nullptr;
}

const ZoneRecord* FindRecordAnyCase(std::string_view name) {
  if (const ZoneRecord* r = FindRecord(name)) return r;
  for (const ZoneRecord& r : kZoneRecords) {
    if (text::EqualsIgnoringAsciiCase(r.name, name)) return &r;
  }
  for (const ZoneLink& l : kZoneLinks) {
    if (text::EqualsIgnoringAsciiCase(l.alias, name)) return FindRecord(l.target);
  }
  return nullptr;
}

std::shared_ptr<const TimeZone> Build(const ZoneRecord& record) {
  std::vector<TransitionZone::Transition> transitions;
  std::string_view rest = record.transitions;
  int64_t at = 0;
  while (!rest.empty()) {
    const size_t colon = rest.find(':');
    size_t end = rest.find(' ');
    if (end == std::string_view::npos) end = rest.size();
    int64_t delta = 0;
    int32_t offset = 0;
    std::from_chars(rest.data(), rest.data() + colon, delta);
    std::from_chars(rest.data() + colon + 1, rest.data() + end, offset);
    at += delta;
    transitions.push_back({at, offset});
    rest.remove_prefix(std::min(end + 1, rest.size()));
  }
  return std::make_shared<TransitionZone>(record.initial_offset, std::move(transitions),
                                          PosixTz::Parse(record.posix));
}

}  // namespace

int64_t TimeZone::LocalToUtc(int64_t local) const {
  // At most one transition lies within a day of any instant in real zones.
  const int32_t before = OffsetAt(local - kSecondsPerDay);
  const int32_t after = OffsetAt(local + kSecondsPerDay);
  const int64_t a = local - before;
  const int64_t b = local - after;
  const bool a_ok = OffsetAt(a) == before;
  const bool b_ok = OffsetAt(b) == after;
  if (a_ok && b_ok) return std::min(a, b);  // Overlap: the first occurrence.
  if (a_ok) return a;
  if (b_ok) return b;
  return a;  // Gap: the offset before the gap.
}

int32_t TransitionZone::OffsetAt(int64_t utc) const {
  int64_t from, to;
  return OffsetSpan(utc, &from, &to);
}

int32_t TransitionZone::OffsetSpan(int64_t utc, int64_t* from, int64_t* to) const {
  if (transitions_.empty()) {
    if (rule_after_ && utc >= 0) {
      const int32_t offset = rule_after_->OffsetSpan(utc, from, to);
      *from = std::max<int64_t>(*from, 0);
      return offset;
    }
    *from = INT64_MIN;
    *to = rule_after_ ? 0 : INT64_MAX;
    return initial_offset_;
  }
  if (utc < transitions_.front().at) {
    *from = INT64_MIN;
    *to = transitions_.front().at;
    return initial_offset_;
  }
  if (rule_after_ && utc >= transitions_.back().at) {
    const int32_t offset = rule_after_->OffsetSpan(utc, from, to);
    *from = std::max(*from, transitions_.back().at);
    return offset;
  }
  auto it = std::upper_bound(transitions_.begin(), transitions_.end(), utc,
                             [](int64_t t, const Transition& tr) { return t < tr.at; });
  *from = std::prev(it)->at;
  *to = it == transitions_.end() ? INT64_MAX : it->at;
  return std::prev(it)->offset;
}

std::string_view WindowsZoneToIana(std::string_view windows_name) {
  auto key = [](const WindowsZone& w) { return std::string_view(w.windows); };
  if (const WindowsZone* w = FindSorted(kWindowsZones, windows_name, key)) return w->iana;
  for (const WindowsZone& w : kWindowsZones) {
    if (text::EqualsIgnoringAsciiCase(w.windows, windows_name)) return w.iana;
  }
  return {};
}

std::vector<BuiltinZoneInfo> BuiltinZones() {
  std::vector<BuiltinZoneInfo> out;
  for (const ZoneRecord& r : kZoneRecords) out.push_back({r.name, r.posix});
  return out;
}

std::vector<std::string_view> WindowsZoneNames() {
  std::vector<std::string_view> out;
  for (const WindowsZone& w : kWindowsZones) out.push_back(w.windows);
  return out;
}

std::shared_ptr<const TimeZone> FindBuiltinZone(std::string_view name) {
  while (!name.empty() && (name.front() == ' ' || name.front() == '"')) name.remove_prefix(1);
  while (!name.empty() && (name.back() == ' ' || name.back() == '"')) name.remove_suffix(1);
  if (name.empty()) return nullptr;
  if (text::EqualsIgnoringAsciiCase(name, "Z") || text::EqualsIgnoringAsciiCase(name, "UTC") ||
      text::EqualsIgnoringAsciiCase(name, "GMT")) {
    return std::make_shared<FixedZone>(0);
  }
  if (const ZoneRecord* r = FindRecordAnyCase(name)) return Build(*r);
  std::string_view iana = WindowsZoneToIana(name);
  if (!iana.empty()) {
    if (const ZoneRecord* r = FindRecord(iana)) return Build(*r);
  }
  // Vendor prefixes ("/mozilla.org/20050126_1/America/New_York",
  // "/softwarestudio.org/Olson_20011030_5/Europe/Paris"): try each suffix
  // that starts after a slash.
  for (size_t slash = name.find('/'); slash != std::string_view::npos;
       slash = name.find('/', slash + 1)) {
    if (const ZoneRecord* r = FindRecord(name.substr(slash + 1))) return Build(*r);
  }
  return nullptr;
}

}  // namespace ensemble::core::calendar
