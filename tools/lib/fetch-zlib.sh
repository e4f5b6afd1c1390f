#!/usr/bin/env bash
# Puts zlib's inflate sources into third_party/zlib/, taken from a pinned npm
# package tarball (zlib-sync vendors zlib 1.3.1 unchanged) whose sha256 is
# checked. The native and the wasm builds compile these same files; the core
# uses them to read word/document.xml out of a .docx transcript.
set -euo pipefail

readonly PACKAGE="zlib-sync@0.1.10"
readonly TARBALL_SHA256="bd2180fc18426cf464ecab1321bb31a1af81c36b927a28cdb26c3a56f302f2b6"
readonly ZLIB_VERSION="1.3.1"
# Only what inflate needs (no deflate, no gz* file I/O).
readonly FILES=(adler32.c crc32.c crc32.h inffast.c inffast.h inffixed.h inflate.c inflate.h
                inftrees.c inftrees.h zconf.h zlib.h zutil.c zutil.h gzguts.h)

root="$(cd "$(dirname "$0")/../.." && pwd)"
dest="$root/third_party/zlib"
if [[ -f "$dest/inflate.c" && "$(cat "$dest/VERSION" 2>/dev/null)" == "$ZLIB_VERSION" ]]; then
  exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "$PACKAGE" >/dev/null)
tarball="$(ls "$work"/*.tgz)"
actual="$(sha256sum "$tarball" | cut -d' ' -f1)"
if [[ "$actual" != "$TARBALL_SHA256" ]]; then
  echo "fetch-zlib: $PACKAGE tarball sha256 is $actual, expected $TARBALL_SHA256" >&2
  exit 1
fi
tar -xzf "$tarball" -C "$work" package/deps/zlib package/LICENSE
if ! grep -q "#define ZLIB_VERSION \"$ZLIB_VERSION\"" "$work/package/deps/zlib/zlib.h"; then
  echo "fetch-zlib: $PACKAGE does not ship zlib $ZLIB_VERSION" >&2
  exit 1
fi
mkdir -p "$dest"
for f in "${FILES[@]}"; do cp "$work/package/deps/zlib/$f" "$dest/"; done
echo "$ZLIB_VERSION" >"$dest/VERSION"
echo "fetch-zlib: zlib $ZLIB_VERSION from $PACKAGE (sha256 verified)"
