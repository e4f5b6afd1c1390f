#!/usr/bin/env python3
"""Generates core/calendar/tz_data.inc from the system's IANA zone files.

The core ships its own zone data so the native and the wasm builds give the
same answer for every TZID. For each zone (the "Z" lines of tzdata.zi, links
from its "L" lines) it reads the compiled TZif file and keeps:
  - the UTC offset in effect on 1970-01-01,
  - the transitions from 1970 up to the point where the POSIX TZ footer rule
    reproduces every later one (so US zones stop at 2007, not 2037),
  - the footer rule itself, which the core evaluates for later instants.

Regenerate after a tzdata update (Debian package tzdata):
    python3 tools/gen/gen_tzdata.py > core/calendar/tz_data.inc
"""

import os
import re
import struct
import sys

ZONEINFO = os.environ.get("ZONEINFO", "/usr/share/zoneinfo")
START_1970 = 0


def read_tzif(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"TZif":
        raise ValueError(path + ": not a TZif file")
    version = data[4]

    def counts(off):
        return struct.unpack(">6l", data[off + 20:off + 44])

    isut, isstd, leap, timecnt, typecnt, charcnt = counts(0)
    v1_len = timecnt * 5 + typecnt * 6 + charcnt + leap * 8 + isstd + isut
    if version < ord("2"):
        raise ValueError(path + ": TZif version 1 has no footer")
    off = 44 + v1_len
    isut, isstd, leap, timecnt, typecnt, charcnt = counts(off)
    off += 44
    times = struct.unpack(">%dq" % timecnt, data[off:off + timecnt * 8])
    off += timecnt * 8
    idx = data[off:off + timecnt]
    off += timecnt
    types = []
    for i in range(typecnt):
        utoff, isdst, _ = struct.unpack(">lBB", data[off + i * 6:off + i * 6 + 6])
        types.append(utoff)
    off += typecnt * 6 + charcnt + leap * 12 + isstd + isut
    footer = data[off:].strip(b"\n").decode("ascii")
    return [(t, types[i]) for t, i in zip(times, idx)], types, footer


# --- A minimal POSIX TZ evaluator (the same rules as core/calendar/posix_tz.cc).

def parse_posix(s):
    pos = [0]

    def name():
        if s[pos[0]] == "<":
            end = s.index(">", pos[0])
            pos[0] = end + 1
        else:
            while pos[0] < len(s) and s[pos[0]].isalpha():
                pos[0] += 1

    def hms():
        m = re.match(r"([+-]?)(\d+)(?::(\d+))?(?::(\d+))?", s[pos[0]:])
        pos[0] += m.end()
        v = int(m.group(2)) * 3600 + int(m.group(3) or 0) * 60 + int(m.group(4) or 0)
        return -v if m.group(1) == "-" else v

    def rule():
        m = re.match(r"(?:M(\d+)\.(\d+)\.(\d+)|J(\d+)|(\d+))", s[pos[0]:])
        pos[0] += m.end()
        t = 7200
        if pos[0] < len(s) and s[pos[0]] == "/":
            pos[0] += 1
            t = hms()
        if m.group(1):
            return ("M", int(m.group(1)), int(m.group(2)), int(m.group(3)), t)
        if m.group(4):
            return ("J", int(m.group(4)), 0, 0, t)
        return ("N", int(m.group(5)), 0, 0, t)

    name()
    std = -hms()
    if pos[0] >= len(s):
        return (std, None, None, None)
    name()
    dst = std + 3600
    if pos[0] < len(s) and s[pos[0]] != ",":
        dst = -hms()
    pos[0] += 1
    r1 = rule()
    pos[0] += 1
    r2 = rule()
    return (std, dst, r1, r2)


def days_from_civil(y, m, d):
    y -= m <= 2
    era = (y if y >= 0 else y - 399) // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def is_leap(y):
    return y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)


def rule_local(y, r):
    kind, a, b, c, t = r
    if kind == "J":
        day = a - 1
        if is_leap(y) and a >= 60:
            day += 1
        return (days_from_civil(y, 1, 1) + day) * 86400 + t
    if kind == "N":
        return (days_from_civil(y, 1, 1) + a) * 86400 + t
    first = days_from_civil(y, a, 1)
    wd = (first + 4) % 7  # 1970-01-01 was a Thursday.
    d = first + (c - wd) % 7 + (b - 1) * 7
    mdays = [31, 29 if is_leap(y) else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][a - 1]
    while d >= first + mdays:
        d -= 7
    return d * 86400 + t


def footer_transitions(rule, y0, y1):
    std, dst, r1, r2 = rule
    if dst is None:
        return []
    out = []
    for y in range(y0, y1):
        out.append((rule_local(y, r1) - std, dst))
        out.append((rule_local(y, r2) - dst, std))
    out.sort()
    return out


def footer_offset(rule, t):
    std, dst, _, _ = rule
    if dst is None:
        return std
    off = None
    y = 1970 + t // 31556952
    for tt, o in footer_transitions(rule, y - 1, y + 2):
        if tt <= t:
            off = o
    return off if off is not None else std


def compact(transitions, types, footer):
    """Initial offset at 1970 and the transitions the footer cannot derive."""
    before = [o for t, o in transitions if t < START_1970]
    initial = before[-1] if before else types[0]
    kept = [(t, o) for t, o in transitions if t >= START_1970]
    # Drop redundant transitions (no offset change: a name or isdst change).
    dedup, last = [], initial
    for t, o in kept:
        if o != last:
            dedup.append((t, o))
            last = o
    kept = dedup
    if not footer:
        return initial, kept
    rule = parse_posix(footer)
    derived, last = [], None
    last_year = 1970 + (kept[-1][0] // 31556952 if kept else 0) + 2
    for t, o in footer_transitions(rule, 1969, max(2038, last_year)):
        if o != last:
            derived.append((t, o))
            last = o

    def footer_suffices(k):
        # True when the footer gives every answer after kept[:k]'s last change.
        boundary, offset = (kept[k - 1] if k > 0 else (START_1970, initial))
        if footer_offset(rule, boundary) != offset:
            return False
        end = kept[-1][0] if kept else START_1970
        want = [x for x in derived if boundary < x[0] <= end]
        return want == kept[k:]

    k = len(kept)
    if not footer_suffices(k):
        raise ValueError("footer %r disagrees after the last transition" % footer)
    while k > 0 and footer_suffices(k - 1):
        k -= 1
    return initial, kept[:k]


def main():
    zones, links = [], []
    with open(os.path.join(ZONEINFO, "tzdata.zi")) as f:
        version = f.readline().strip().lstrip("# ")
        for line in f:
            parts = line.split()
            if parts and parts[0] == "Z":
                zones.append(parts[1])
            elif parts and parts[0] == "L":
                links.append((parts[2], parts[1]))
    out = sys.stdout
    out.write("// Generated by tools/gen/gen_tzdata.py from IANA tzdata (%s). Do not edit.\n" % version)
    out.write("// Each zone: name, POSIX TZ rule for instants after the last transition,\n")
    out.write("// offset (seconds east) on 1970-01-01, then transitions as\n")
    out.write("// \"<seconds since the previous one or 1970>:<new offset>\" separated by spaces.\n")
    out.write("// clang-format off\n")
    out.write("static constexpr ZoneRecord kZoneRecords[] = {\n")
    for name in sorted(zones):
        transitions, types, footer = read_tzif(os.path.join(ZONEINFO, name))
        initial, kept = compact(transitions, types, footer)
        prev, parts = 0, []
        for t, o in kept:
            parts.append("%d:%d" % (t - prev, o))
            prev = t
        out.write('{"%s","%s",%d,"%s"},\n' % (name, footer, initial, " ".join(parts)))
    out.write("};\n")
    out.write("static constexpr ZoneLink kZoneLinks[] = {\n")
    zone_set = set(zones)
    for alias, target in sorted(links):
        if target in zone_set:
            out.write('{"%s","%s"},\n' % (alias, target))
    out.write("};\n")
    out.write("// clang-format on\n")


if __name__ == "__main__":
    main()
