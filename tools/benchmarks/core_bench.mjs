#!/usr/bin/env node
// The core suite of tools/bench: prints one JSON object per line,
// {"metric", "value", "unit", "better"}.
//
//   format.mb_s.native / .wasm   formatEntityText over a 1 MB reply that names
//                                200 known records (bare ids, record links,
//                                titles followed by their id, mentions, code,
//                                quotes and URLs that must stay untouched)
//   route.turn_us.native / .wasm routing one message (guides and offered tools)
//                                with the real playbooks and the hub's tool
//                                registry plus connected-app tools (>= 150)
//                                (the request JSON in and the answer JSON
//                                out, as routeMessage takes and gives them)
//   route.select_us.native       the routing and tool selection alone, from a
//                                parsed request (no JSON text either way)
//   route.wasm_over_native       the wasm time over the native time
//   format.wasm_over_native      format.mb_s.native over format.mb_s.wasm (issue 30:
//                                the browser's core within 2x of the server's)
//
// The native numbers come from core_bench (ENSEMBLE_BENCH_DIR), given the same
// input files this script writes, so both builds time the same work. Every
// figure is process CPU time after a warm-up, natively and in wasm.
// --quick: shorter runs. Progress goes to stderr.

import {spawnSync} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import {loadTestCore, repoRoot} from '../lib/core_loader.mjs';

const quick = process.argv.includes('--quick');
const benchDir = process.env.ENSEMBLE_BENCH_DIR ??
                 path.join(repoRoot, 'build', 'native', 'tools', 'benchmarks');
const kReplyBytes = 1_000_000;
const kRefs = 200;

const log = (...args) => console.error('[core_bench]', ...args);
const emit = (metric, value, unit, better) =>
  console.log(JSON.stringify({metric, value: Math.round(value * 100) / 100, unit, better}));

// --- Inputs. A deterministic generator (no Math.random), so runs compare.

let seed = 12345;
const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
const kCrockford = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const makeId = () => {
  let id = '01J';
  while (id.length < 26) id += kCrockford[next() % 32];
  return id;
};

const kKinds = ['task', 'person', 'project', 'page', 'board', 'meeting'];
const kWords = ['Draft', 'brief', 'Call', 'Mira', 'budget', 'review', 'launch', 'plan',
                'Q3', 'hiring', 'notes', 'contract', 'design', 'sync', 'roadmap', 'invoice'];

export function makeRefs() {
  const refs = [];
  for (let i = 0; i < kRefs; ++i) {
    const words = 2 + (next() % 3);
    let label = '';
    for (let w = 0; w < words; ++w) label += (w ? ' ' : '') + kWords[next() % kWords.length];
    // Every tenth title is shared, so disambiguation runs too.
    if (i % 10 === 9) label = refs[i - 1].label;
    const ref = {kind: kKinds[i % kKinds.length], id: makeId(), label};
    if (i % 4 === 0) ref.detail = `due 2026-12-${String(1 + (i % 28)).padStart(2, '0')}`;
    refs.push(ref);
  }
  return refs;
}

export function makeReply(refs) {
  const unknown = makeId();
  const parts = [];
  let size = 0;
  for (let i = 0; size < kReplyBytes; ++i) {
    const r = refs[next() % refs.length];
    let p;
    switch (i % 8) {
      case 0: p = `I updated ${r.id} and moved it to Doing. `; break;
      case 1: p = `See [@${r.label}](ensemble://${r.kind}/${r.id}) for the details. `; break;
      case 2: p = `“${r.label}” (${r.id}) is due on Friday; ${unknown} was not found. `; break;
      case 3: p = `- [${r.label}](ensemble://${r.kind}/${r.id}): waiting on review\n`; break;
      case 4: p = `Run \`ensemble show ${r.id}\` to check, or open https://example.com/t/${r.id}.\n`; break;
      case 5: p = `\n\`\`\`\n${r.id} stays as written in code\n\`\`\`\n`; break;
      case 6: p = `> Quoted: ${r.id} is left alone.\n`; break;
      default: p = 'The team agreed to ship the plan next week, after one more review. ';
    }
    parts.push(p);
    size += Buffer.byteLength(p);
  }
  return parts.join('');
}

// A turn's routing requests: everyday messages in a space with three connected
// apps whose 80 tools join the hub's 77 registered ones (157 in all).
export function makeRouteRequests() {
  const apps = [{catalogName: 'Jira & Confluence', id: 'atlassian', vendor: 'Atlassian'},
                {catalogName: 'Box', id: 'box', vendor: 'Box'},
                {catalogName: 'Fireflies', id: 'fireflies', vendor: 'Fireflies', meetingNotes: true}];
  const appTools = [];
  for (const app of ['jira', 'confluence', 'box', 'fireflies']) {
    for (let i = 0; i < 20; ++i) appTools.push(`${app}_action_${String(i).padStart(2, '0')}`);
  }
  const messages = [
    'Add a task to call Mira tomorrow',
    'what tasks are overdue for the launch project? move the first one to Doing',
    'summarise the meeting notes from yesterday and add the action items as tasks',
    'find the open bugs in Jira and make a page with them',
    'move this card to Done',
    "what's on my calendar this week, and when am I free on Thursday?",
    'remind me to send the contract to @people:Mira Chen on Friday',
    'look up the latest pricing on the web and save it to a page',
  ];
  return messages.map((message, i) => JSON.stringify({
    message,
    mentions: i === 6 ? [{kind: 'person', id: makeId(), label: 'Mira Chen'}] : [],
    surface: {path: i === 4 ? '/board' : '/tasks', customBoard: i === 4},
    apps,
    appTools,
  }));
}

// --- Timing helpers.

// Process CPU time in milliseconds, as core_bench measures natively
// (std::clock), so the wasm/native ratio compares like with like on a shared,
// noisy machine.
function cpuMs() {
  const {user, system} = process.cpuUsage();
  return (user + system) / 1000;
}

// Runs `fn` untimed for a quarter of `minMs` first, so the timed loop sees
// the optimized code rather than the JIT warming up.
function timeLoop(fn, minMs) {
  const warmEnd = cpuMs() + minMs / 4;
  while (cpuMs() < warmEnd) fn();
  let runs = 0;
  const start = cpuMs();
  let elapsed = 0;
  do {
    fn();
    ++runs;
    elapsed = cpuMs() - start;
  } while (elapsed < minMs);
  return {runs, ms: elapsed};
}

function runNative(args) {
  const bin = path.join(benchDir, 'core_bench');
  if (!fs.existsSync(bin)) throw new Error(`${bin} is missing; build the native preset first`);
  const out = spawnSync(bin, args, {encoding: 'utf8'});
  if (out.status !== 0) throw new Error(`core_bench failed: ${out.stderr}`);
  const metrics = {};
  for (const line of out.stdout.trim().split('\n')) {
    const m = JSON.parse(line);
    metrics[m.metric] = m;
  }
  return metrics;
}

export async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'core-bench-'));
  try {
    const refs = makeRefs();
    const reply = makeReply(refs);
    const refsJson = JSON.stringify(refs);
    fs.writeFileSync(path.join(dir, 'reply.txt'), reply);
    fs.writeFileSync(path.join(dir, 'refs.json'), refsJson);
    const requests = makeRouteRequests();
    fs.writeFileSync(path.join(dir, 'route.json'), JSON.stringify(requests));

    log('native');
    const args = ['--reply', path.join(dir, 'reply.txt'), '--refs', path.join(dir, 'refs.json'),
                  '--route', path.join(dir, 'route.json')];
    if (quick) args.push('--quick');
    const native = runNative(args);
    for (const m of Object.values(native)) emit(m.metric, m.value, m.unit, m.better);

    log('wasm');
    // The test build: routeMessage is not in the module the app ships.
    const core = await loadTestCore();
    for (const request of requests) {
      const routed = JSON.parse(core.routeMessage(request));
      if (routed.error) throw new Error(`routeMessage: ${routed.error.message}`);
    }
    let routed = 0;
    const route = timeLoop(() => {
      for (const request of requests) core.routeMessage(request);
      routed += requests.length;
    }, quick ? 500 : 2000);
    const routeUs = (route.ms * 1000) / routed;
    emit('route.turn_us.wasm', routeUs, 'us', 'lower');
    const nativeUs = native['route.turn_us.native'].value;
    emit('route.wasm_over_native', routeUs / nativeUs, 'ratio', 'lower');

    const first = JSON.parse(core.formatEntityText(reply, refsJson, '{}'));
    if (first.error) throw new Error(`formatEntityText: ${first.error.message}`);
    const {runs, ms} = timeLoop(() => core.formatEntityText(reply, refsJson, '{}'), quick ? 500 : 2000);
    const formatMbS = (Buffer.byteLength(reply) * runs) / (ms / 1000) / 1e6;
    emit('format.mb_s.wasm', formatMbS, 'MB/s', 'higher');
    emit('format.wasm_over_native', native['format.mb_s.native'].value / formatMbS, 'ratio', 'lower');
  } finally {
    fs.rmSync(dir, {recursive: true, force: true});
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main().catch((e) => {
  console.error(e);
  process.exit(1);
});
