#!/usr/bin/env node
// tools/assistant-eval: opt-in evaluation of the assistant against a real
// OpenAI-compatible endpoint (spec 000 "Evaluation"). Each scenario runs on a
// fresh server with a fresh person (its own data folder), sends its messages
// through the server's assistant routes and checks what ran; it reports
// input, output and cached tokens per scenario, one JSON object per line,
// then a summary line.
//
// Configuration comes from an env file (ENSEMBLE_EVAL_ENV_FILE, KEY=VALUE
// lines): ENSEMBLE_EVAL_BASE_URL, ENSEMBLE_EVAL_MODEL, ENSEMBLE_EVAL_API_KEY
// (optional for a local model), ENSEMBLE_EVAL_PROVIDER (default openai). The
// key is handed to the server and never printed. Without configuration the
// tool says what it needs and exits 0.
//
// ENSEMBLE_EVAL_SCENARIOS=a,b picks scenarios; ENSEMBLE_EVAL_REPEAT=N repeats
// each; ENSEMBLE_EVAL_SCENARIO_FILE replaces the built-in scenarios.json.

import fs from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

import {freePort, ServerProcess, tempDir} from '../lib/server_process.mjs';
import {AssistantClient} from './turn_client.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const kSpaceId = 'eval-space';
const kMaxRepeat = 20;

const kUsage = `tools/assistant-eval: evaluates the assistant against a real model.

Not configured, so nothing ran. To run it, write an env file such as
~/ensemble-test/ensemble.env with

  ENSEMBLE_EVAL_BASE_URL=https://your-endpoint/v1   (OpenAI, Azure OpenAI, Ollama, vLLM, ...)
  ENSEMBLE_EVAL_MODEL=the-model-name
  ENSEMBLE_EVAL_API_KEY=...                          (omit for a local model)
  ENSEMBLE_EVAL_PROVIDER=openai                      (or azure, ollama, ...)

and run ENSEMBLE_EVAL_ENV_FILE=~/ensemble-test/ensemble.env tools/assistant-eval/eval.mjs
(the key is read from the file and never printed). Options: ENSEMBLE_EVAL_SCENARIOS=a,b
ENSEMBLE_EVAL_REPEAT=3.`;

// KEY=VALUE lines; # comments; optional quotes around the value.
export function parseEnvFile(text) {
  const out = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    if (eq <= 0) continue;
    const key = line.slice(0, eq).replace(/^export\s+/, '').trim();
    let value = line.slice(eq + 1).trim();
    if (/^(['"]).*\1$/.test(value)) value = value.slice(1, -1);
    out[key] = value;
  }
  return out;
}

function matches(pattern, text) {
  const m = /^\/(.*)\/([a-z]*)$/.exec(pattern);
  return m ? new RegExp(m[1], m[2]).test(text) : text.toLowerCase().includes(pattern.toLowerCase());
}

function toolsRun(turn) {
  return turn.frames.filter((f) => f.event === 'tool' && f.data.phase === 'started')
      .map((f) => f.data.name);
}

function addUsage(total, usage) {
  if (!usage) return;
  total.input += usage.promptTokens ?? 0;
  total.output += usage.completionTokens ?? 0;
  total.cached += usage.cachedTokens ?? 0;
}

async function runScenario(scenario, model) {
  const dataDir = tempDir('ensemble-eval-');
  const server = new ServerProcess({port: await freePort(), dataDir});
  const usage = {input: 0, output: 0, cached: 0};
  const failures = [];
  const started = performance.now();
  try {
    await server.start();
    const client = new AssistantClient(server.url);
    await client.setModel(model);
    const conversation = await client.createConversation(kSpaceId, scenario.name);
    for (const setup of scenario.setup ?? []) {
      const turn = await client.turn(conversation.id, setup);
      addUsage(usage, turn.done?.usage);
    }
    const turn = await client.turn(conversation.id, scenario.message);
    addUsage(usage, turn.done?.usage);
    const ran = toolsRun(turn);
    if (turn.error) failures.push(`error frame: ${turn.error.code}: ${turn.error.message}`);
    for (const tool of scenario.expectTools ?? []) {
      const held = turn.frames.some((f) => f.event === 'proposal' && JSON.stringify(f.data).includes(tool));
      if (!ran.includes(tool) && !held) failures.push(`expected ${tool}; ran ${ran.join(', ') || 'nothing'}`);
    }
    if (scenario.expectText && !matches(scenario.expectText, turn.text)) {
      failures.push(`the reply does not match ${scenario.expectText}`);
    }
    if (scenario.expectNoWrites && turn.frames.some((f) => f.event === 'proposal')) {
      failures.push('proposed a write');
    }
    return {scenario: scenario.name, kind: scenario.kind, ok: failures.length === 0, failures,
            tools: ran, inputTokens: usage.input, outputTokens: usage.output,
            cachedTokens: usage.cached, ms: Math.round(performance.now() - started),
            reply: turn.text.slice(0, 300)};
  } catch (err) {
    return {scenario: scenario.name, kind: scenario.kind, ok: false, failures: [String(err.message)],
            inputTokens: usage.input, outputTokens: usage.output, cachedTokens: usage.cached};
  } finally {
    await server.stop();
    fs.rmSync(dataDir, {recursive: true, force: true});
  }
}

// The configuration, or null when there is none.
export function readConfig(env = process.env) {
  const file = env.ENSEMBLE_EVAL_ENV_FILE;
  if (!file) return null;
  const expanded = file.replace(/^~(?=\/)/, env.HOME ?? '');
  if (!fs.existsSync(expanded)) return {error: `ENSEMBLE_EVAL_ENV_FILE names ${file}, which does not exist`};
  const vars = parseEnvFile(fs.readFileSync(expanded, 'utf8'));
  if (!vars.ENSEMBLE_EVAL_BASE_URL || !vars.ENSEMBLE_EVAL_MODEL) {
    return {error: `${file} needs ENSEMBLE_EVAL_BASE_URL and ENSEMBLE_EVAL_MODEL`};
  }
  return {
    model: {
      provider: vars.ENSEMBLE_EVAL_PROVIDER || 'openai',
      baseUrl: vars.ENSEMBLE_EVAL_BASE_URL,
      model: vars.ENSEMBLE_EVAL_MODEL,
      apiKey: vars.ENSEMBLE_EVAL_API_KEY || '',
    },
  };
}

async function main() {
  const config = readConfig();
  if (!config) {
    console.log(kUsage);
    return 0;
  }
  if (config.error) {
    console.error(`assistant-eval: ${config.error}`);
    return 2;
  }
  const file = process.env.ENSEMBLE_EVAL_SCENARIO_FILE ?? path.join(here, 'scenarios.json');
  let scenarios = JSON.parse(fs.readFileSync(file, 'utf8'));
  const picked = (process.env.ENSEMBLE_EVAL_SCENARIOS ?? '').split(',').filter(Boolean);
  if (picked.length) {
    const unknown = picked.filter((n) => !scenarios.some((s) => s.name === n));
    if (unknown.length) {
      console.error(`assistant-eval: no scenario called ${unknown.join(', ')}`);
      return 2;
    }
    scenarios = scenarios.filter((s) => picked.includes(s.name));
  }
  const repeat = Math.min(kMaxRepeat, Math.max(1, Number(process.env.ENSEMBLE_EVAL_REPEAT ?? 1) || 1));
  const totals = {scenarios: 0, passed: 0, inputTokens: 0, outputTokens: 0, cachedTokens: 0};
  for (let round = 1; round <= repeat; round++) {
    for (const scenario of scenarios) {
      const result = await runScenario(scenario, config.model);
      console.log(JSON.stringify({round, ...result}));
      totals.scenarios++;
      if (result.ok) totals.passed++;
      totals.inputTokens += result.inputTokens;
      totals.outputTokens += result.outputTokens;
      totals.cachedTokens += result.cachedTokens;
    }
  }
  console.log(JSON.stringify({summary: true, model: config.model.model, ...totals}));
  return totals.passed === totals.scenarios ? 0 : 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main();
}
