// tools/assistant-eval: opt-in, so without configuration it explains itself
// and exits 0; a configuration it cannot use is a readable error.

import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {test} from 'node:test';
import {fileURLToPath} from 'node:url';

import {parseEnvFile, readConfig} from '../../tools/assistant-eval/eval.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const evalJs = path.join(root, 'tools', 'assistant-eval', 'eval.mjs');

function runEval(env) {
  const clean = {...process.env};
  delete clean.ENSEMBLE_EVAL_ENV_FILE;
  const r = spawnSync(process.execPath, [evalJs], {encoding: 'utf8', env: {...clean, ...env}});
  return {code: r.status, out: r.stdout, err: r.stderr};
}

function envFile(text) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ensemble-eval-test-'));
  const file = path.join(dir, 'ensemble.env');
  fs.writeFileSync(file, text);
  return file;
}

test('without configuration it explains what it needs and exits 0', () => {
  const r = runEval({});
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /Not configured, so nothing ran/);
  assert.match(r.out, /ENSEMBLE_EVAL_ENV_FILE/);
});

test('a missing env file or one without a model is a readable error', () => {
  const missing = runEval({ENSEMBLE_EVAL_ENV_FILE: '/nonexistent/ensemble.env'});
  assert.equal(missing.code, 2);
  assert.match(missing.err, /does not exist/);
  const incomplete = runEval({ENSEMBLE_EVAL_ENV_FILE: envFile('ENSEMBLE_EVAL_API_KEY=sk-secret-123\n')});
  assert.equal(incomplete.code, 2);
  assert.match(incomplete.err, /needs ENSEMBLE_EVAL_BASE_URL and ENSEMBLE_EVAL_MODEL/);
  assert.doesNotMatch(incomplete.out + incomplete.err, /sk-secret-123/);
});

test('the env file reads KEY=VALUE lines with comments, export and quotes', () => {
  const vars = parseEnvFile('# a comment\nexport A=1\nB="two words"\nC=\'x=y\'\n\nnot a line\n');
  assert.deepEqual(vars, {A: '1', B: 'two words', C: 'x=y'});
  const config = readConfig({
    ENSEMBLE_EVAL_ENV_FILE: envFile('ENSEMBLE_EVAL_BASE_URL=http://127.0.0.1:1/v1\n' +
                                    'ENSEMBLE_EVAL_MODEL=m\nENSEMBLE_EVAL_API_KEY=k\n'),
  });
  assert.deepEqual(config.model, {provider: 'openai', baseUrl: 'http://127.0.0.1:1/v1', model: 'm', apiKey: 'k'});
});

test('against the fake model it runs a scenario, reports tokens and never prints the key', async () => {
  const {spawn} = await import('node:child_process');
  const readline = await import('node:readline');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ensemble-eval-fake-'));
  const key = 'sk-eval-secret-4242';
  fs.writeFileSync(path.join(dir, 'model.json'), JSON.stringify({
    requireKey: key,
    responses: [
      {match: '/./', afterTool: false,
       toolCalls: [{id: 'call_1', name: 'hub_create_tasks', arguments: {tasks: [{title: 'Call Mira'}]}}],
       usage: {prompt_tokens: 900, completion_tokens: 20, cached_tokens: 512}},
      {match: '/./', afterTool: true, text: ['Added ', 'Call Mira.'],
       usage: {prompt_tokens: 950, completion_tokens: 5, cached_tokens: 896}},
    ],
  }));
  fs.writeFileSync(path.join(dir, 'scenarios.json'), JSON.stringify([
    {name: 'add-task', kind: 'action', message: 'Add a task to call Mira', expectTools: ['hub_create_tasks'],
     expectText: '/Call Mira/'},
  ]));
  const fake = spawn(process.execPath, [path.join(root, 'tools', 'fake-model', 'fake_model.mjs'),
                                        path.join(dir, 'model.json')], {stdio: ['pipe', 'pipe', 'inherit']});
  try {
    const {port} = await new Promise((resolve) => {
      readline.createInterface({input: fake.stdout}).once('line', (line) => resolve(JSON.parse(line)));
    });
    const env = envFile(`ENSEMBLE_EVAL_BASE_URL=http://127.0.0.1:${port}/v1\n` +
                        `ENSEMBLE_EVAL_MODEL=fake-model\nENSEMBLE_EVAL_API_KEY=${key}\n`);
    const r = await new Promise((resolve) => {
      const child = spawn(process.execPath, [evalJs], {
        env: {...process.env, ENSEMBLE_EVAL_ENV_FILE: env,
              ENSEMBLE_EVAL_SCENARIO_FILE: path.join(dir, 'scenarios.json')},
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (d) => { out += d; });
      child.stderr.on('data', (d) => { err += d; });
      child.on('exit', (code) => resolve({code, out, err}));
    });
    assert.equal(r.code, 0, r.out + r.err);
    const lines = r.out.trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(lines[0].scenario, 'add-task');
    assert.equal(lines[0].ok, true, JSON.stringify(lines[0]));
    assert.deepEqual(lines[0].tools, ['hub_create_tasks']);
    assert.equal(lines[0].inputTokens, 1850);
    assert.equal(lines[0].outputTokens, 25);
    assert.equal(lines[0].cachedTokens, 1408);
    assert.equal(lines.at(-1).summary, true);
    assert.equal(lines.at(-1).passed, 1);
    assert.doesNotMatch(r.out + r.err, new RegExp(key));
  } finally {
    fake.stdin.end();
    fake.kill('SIGTERM');
  }
});
