#!/usr/bin/env bash
# Puts the SQLite amalgamation (sqlite3.c, sqlite3.h) into third_party/sqlite/,
# taken from a pinned npm package tarball whose sha256 is checked. The native
# and the wasm builds compile this same file.
set -euo pipefail

readonly PACKAGE="better-sqlite3@12.11.1"
readonly TARBALL_SHA256="ebf0ed75a7a59dbcb3b24bbd014ef49d9f15bc328e4adcbf516f2a8fadfa2835"
readonly SQLITE_VERSION="3.53.2"

root="$(cd "$(dirname "$0")/../.." && pwd)"
dest="$root/third_party/sqlite"
if [[ -f "$dest/sqlite3.c" && "$(cat "$dest/VERSION" 2>/dev/null)" == "$SQLITE_VERSION" ]]; then
  exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "$PACKAGE" >/dev/null)
tarball="$(ls "$work"/*.tgz)"
actual="$(sha256sum "$tarball" | cut -d' ' -f1)"
if [[ "$actual" != "$TARBALL_SHA256" ]]; then
  echo "fetch-sqlite: $PACKAGE tarball sha256 is $actual, expected $TARBALL_SHA256" >&2
  exit 1
fi
tar -xzf "$tarball" -C "$work" package/deps/sqlite3/sqlite3.c package/deps/sqlite3/sqlite3.h
if ! grep -q "#define SQLITE_VERSION *\"$SQLITE_VERSION\"" "$work/package/deps/sqlite3/sqlite3.h"; then
  echo "fetch-sqlite: $PACKAGE does not ship SQLite $SQLITE_VERSION" >&2
  exit 1
fi
mkdir -p "$dest"
cp "$work/package/deps/sqlite3/sqlite3.c" "$work/package/deps/sqlite3/sqlite3.h" "$dest/"
echo "$SQLITE_VERSION" >"$dest/VERSION"
echo "fetch-sqlite: SQLite $SQLITE_VERSION from $PACKAGE (sha256 verified)"
