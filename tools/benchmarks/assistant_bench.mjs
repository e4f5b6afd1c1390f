#!/usr/bin/env node
// The assistant suite of tools/bench: prints one JSON object per line,
// {"metric", "value", "unit", "better"}. A real server process (Release,
// embedded SQLite, ENSEMBLE_SERVER_BIN) talks to the fake model server
// (tools/fake-model) on 127.0.0.1.
//
//   assistant.turn_overhead_p50_ms,   the server's time per turn without the
//   assistant.turn_overhead_p99_ms    model: 1,000 turns (200 with --quick),
//                                     one after another, each one tool call
//                                     (hub_list_tasks) and an answer, the
//                                     fake model answering at once. Per turn:
//                                     the done frame's timing.serverMs (from
//                                     the server having the request to its
//                                     done frame, less its wait for the
//                                     model's two answers)
//   assistant.turn_roundtrip_p50_ms,  the same turns seen from the client:
//   assistant.turn_roundtrip_p99_ms   from sending the message to the last
//                                     frame, less the model's time
//                                     (timing.modelMs): the server's time
//                                     plus the HTTP exchange and the Node
//                                     client's own work
//   assistant.concurrent_turns        the most turns held streaming at once
//                                     (25, 50, 100, 200, ... up to 400) with
//                                     the p99 delay of a text frame (from the
//                                     fake model writing the chunk to the
//                                     client reading its frame) under 50 ms
//   assistant.frame_delay_p99_ms.cN   that p99 at each N tried
//
// Progress goes to stderr.

import {spawn} from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';

import {freePort, repoRoot, ServerProcess, tempDir} from '../lib/server_process.mjs';
import {AssistantClient} from '../assistant-eval/turn_client.mjs';

const quick = process.argv.includes('--quick');
const kOverheadTurns = quick ? 200 : 1000;
const kWarmupTurns = 20;
const kFrameDelayBudgetMs = 50;
const kConcurrencySteps = quick ? [25, 50, 100] : [25, 50, 100, 200, 400];
const kChunksPerTurn = 20;
const kChunkIntervalMs = 100;
const kSpaceId = 'bench-space';

const emit = (metric, value, unit, better) =>
  console.log(JSON.stringify({metric, value: Number(value.toFixed(3)), unit, better}));
const progress = (...a) => console.error('[bench assistant]', ...a);

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function startFakeModel(scenario) {
  const dir = tempDir('ensemble-bench-model-');
  const file = path.join(dir, 'scenario.json');
  fs.writeFileSync(file, JSON.stringify(scenario));
  const child = spawn(process.execPath, [path.join(repoRoot, 'tools', 'fake-model', 'fake_model.mjs'), file],
                      {stdio: ['pipe', 'pipe', 'inherit']});
  const first = await new Promise((resolve, reject) => {
    const rl = readline.createInterface({input: child.stdout});
    rl.once('line', (line) => resolve(JSON.parse(line)));
    child.once('exit', (code) => reject(new Error(`the fake model exited (${code})`)));
  });
  return {
    baseUrl: `http://127.0.0.1:${first.port}/v1`,
    stop: () => {
      child.stdin.end();
      child.kill('SIGTERM');
      fs.rmSync(dir, {recursive: true, force: true});
    },
  };
}

async function withServer(model, fn) {
  const dataDir = tempDir('ensemble-bench-assistant-');
  // The concurrency steps hold hundreds of one account's turns at once: a
  // measure of the server, past the per-account cap a person meets.
  const server = new ServerProcess({port: await freePort(), dataDir,
                                    env: {ENSEMBLE_MAX_TURNS_PER_ACCOUNT: '100000'}});
  await server.start();
  try {
    const client = new AssistantClient(server.url);
    await client.setModel({provider: 'openai', baseUrl: model.baseUrl, model: 'fake-model', apiKey: 'sk-bench'});
    return await fn(client, server);
  } finally {
    await server.stop();
    fs.rmSync(dataDir, {recursive: true, force: true});
  }
}

async function turnOverhead() {
  const model = await startFakeModel({
    responses: [
      {match: '/./', afterTool: false, toolCalls: [{id: 'call_1', name: 'hub_list_tasks', arguments: {limit: 5}}]},
      {match: '/./', afterTool: true, text: ['You have ', 'no open tasks.']},
    ],
  });
  try {
    await withServer(model, async (client) => {
      const overheads = [];
      const roundtrips = [];
      let subtracted = false;
      let id = null;
      for (let i = 0; i < kWarmupTurns + kOverheadTurns; i++) {
        // A fresh conversation every 6 turns keeps the history (and so the
        // request) the same size throughout.
        if (i % 6 === 0) id = (await client.createConversation(kSpaceId, `t${i}`)).id;
        const started = performance.now();
        const turn = await client.turn(id, 'list my tasks');
        let ms = performance.now() - started;
        if (turn.error) throw new Error(`turn failed: ${JSON.stringify(turn.error)}`);
        const {modelMs, serverMs} = turn.done?.timing ?? {};
        if (typeof modelMs === 'number') {
          ms -= modelMs;
          subtracted = true;
        }
        if (i >= kWarmupTurns) {
          roundtrips.push(ms);
          // An older server without serverMs: the round trip is the upper bound.
          overheads.push(typeof serverMs === 'number' ? serverMs : ms);
        }
      }
      if (!subtracted) progress('the done frame carries no timing: overhead includes the fake model');
      emit('assistant.turn_overhead_p50_ms', percentile(overheads, 50), 'ms', 'lower');
      emit('assistant.turn_overhead_p99_ms', percentile(overheads, 99), 'ms', 'lower');
      emit('assistant.turn_roundtrip_p50_ms', percentile(roundtrips, 50), 'ms', 'lower');
      emit('assistant.turn_roundtrip_p99_ms', percentile(roundtrips, 99), 'ms', 'lower');
    });
  } finally {
    model.stop();
  }
}

// N turns streaming at once; each text chunk carries the time the fake model
// wrote it. Returns the p99 delay from write to frame.
async function frameDelayAt(client, n) {
  const delays = [];
  const conversations = [];
  for (let i = 0; i < n; i++) conversations.push((await client.createConversation(kSpaceId, `c${i}`)).id);
  await Promise.all(conversations.map((id) =>
    client.turn(id, 'stream please', {
      onFrame: (frame) => {
        if (frame.event !== 'text') return;
        const text = typeof frame.data === 'string' ? frame.data : frame.data.text ?? '';
        for (const m of text.matchAll(/<(\d+)>/g)) delays.push(Date.now() - Number(m[1]));
      },
    })));
  return percentile(delays, 99);
}

async function concurrentTurns() {
  const chunks = Array.from({length: kChunksPerTurn}, () => '<{{now}}> ');
  const model = await startFakeModel({
    responses: [{match: '/./', text: chunks, delayMs: kChunkIntervalMs, stampChunks: true}],
  });
  try {
    await withServer(model, async (client) => {
      let best = 0;
      for (const n of kConcurrencySteps) {
        const p99 = await frameDelayAt(client, n);
        progress(`${n} turns at once: p99 frame delay ${p99.toFixed(1)} ms`);
        emit(`assistant.frame_delay_p99_ms.c${n}`, p99, 'ms', 'lower');
        if (!(p99 < kFrameDelayBudgetMs)) break;
        best = n;
      }
      emit('assistant.concurrent_turns', best, 'turns', 'higher');
    });
  } finally {
    model.stop();
  }
}

await turnOverhead();
await concurrentTurns();
