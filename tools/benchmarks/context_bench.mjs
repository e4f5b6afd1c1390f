#!/usr/bin/env node
// The context suite of tools/bench (issue 31): prints one JSON object per
// line, {"metric", "value", "unit", "better"}.
//
//   search.query_ms_p50.native   median ranked search (20 results) over a
//                                generated space of 50,000 records (tasks,
//                                their pages, projects, people, pages) and
//                                200 queries of 1-6 words
//   search.fts5_bm25_ms_p50      a plain FTS5 MATCH ... ORDER BY bm25 on the
//                                same rows and words, same process
//   search.vs_fts5_bm25          the first over the second (goal <= 1.5)
//   context.item_ms_p50          a task's context graph (goal <= 2 ms)
//   context.packet_ms_p50        its 5,000-character work packet (goal <= 5 ms)
//   search.query_ms_p50.wasm     the ranked search in the wasm build under
//                                Node, the same corpus made in its own memory
//   search.wasm_over_native      the wasm median over the native one (goal <= 2)
//
// The native figures come from context_bench (ENSEMBLE_BENCH_DIR); the wasm
// build generates the very same corpus (tools/benchmarks/search_corpus.cc
// is integer arithmetic only). --quick: 20,000 records and 100 queries.

import {spawnSync} from 'node:child_process';
import path from 'node:path';

import {loadTestCore, repoRoot} from '../lib/core_loader.mjs';

const quick = process.argv.includes('--quick');
const records = quick ? 20000 : 50000;
const queries = quick ? 100 : 200;
const benchDir = process.env.ENSEMBLE_BENCH_DIR ??
                 path.join(repoRoot, 'build', 'native', 'tools', 'benchmarks');
const log = (...args) => console.error('[context_bench]', ...args);
const emit = (metric, value, unit, better) =>
  console.log(JSON.stringify({metric, value: Math.round(value * 1000) / 1000, unit, better}));

log(`native: ${records} records, ${queries} queries`);
const native = spawnSync(path.join(benchDir, 'context_bench'),
                         ['--records', String(records), '--queries', String(queries)],
                         {encoding: 'utf8'});
if (native.status !== 0) {
  console.error(native.stderr);
  process.exit(1);
}
const metrics = {};
for (const line of native.stdout.trim().split('\n')) {
  const m = JSON.parse(line);
  metrics[m.metric] = m.value;
  console.log(line);
}

log('wasm');
const core = await loadTestCore();
const answer = JSON.parse(core.benchContextSearch(records, queries));
if (!answer.ok) {
  console.error(answer);
  process.exit(1);
}
emit('search.query_ms_p50.wasm', answer.searchMs, 'ms', 'lower');
emit('search.wasm_over_native', answer.searchMs / metrics['search.query_ms_p50.native'], 'ratio',
     'lower');
