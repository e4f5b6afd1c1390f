#!/usr/bin/env bash
# Regenerates tests/vectors/transcripts/*.json from the samples in this folder
# with the native CLI: {"file", "preview", "transcript", "cues"} (cues only for
# caption files). tests/core/meetings/vectors_test.cc (native) and
# tests/wasm/transcript_parity.test.mjs (wasm) both check against them. Review
# the diff before committing: a changed vector is a changed behaviour.
# usage: tests/data/transcripts/update_vectors.sh [path/to/ensemble]
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
bin="${1:-$root/build/native/tools/cli/ensemble}"
out="$root/tests/vectors/transcripts"
mkdir -p "$out"
for f in "$root"/tests/data/transcripts/*; do
  name="$(basename "$f")"
  case "$name" in *.sh|*.py) continue ;; esac
  preview="$("$bin" transcript preview "$f")"
  transcript="$("$bin" transcript parse "$f")"
  cues="null"
  if cues_out="$("$bin" transcript cues "$f" 2>/dev/null)"; then cues="$cues_out"; fi
  python3 -c '
import json, sys
name, path = sys.argv[1], sys.argv[2]
preview, transcript, cues = (json.loads(x) for x in sys.argv[3:6])
vector = {"file": name, "preview": preview, "transcript": transcript}
if cues is not None:
    vector["cues"] = cues
with open(path, "w", encoding="utf-8") as f:
    json.dump(vector, f, indent=1, ensure_ascii=False, sort_keys=True)
    f.write("\n")
' "$name" "$out/$name.json" "$preview" "$transcript" "$cues"
done
echo "wrote $(ls "$out" | wc -l) vectors to $out"
