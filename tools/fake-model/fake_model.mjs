#!/usr/bin/env node
// A fake OpenAI-compatible model server for tests, driven by a scenario file.
//
//   node tools/fake-model/fake_model.mjs SCENARIO.json [--port N] [--host H] [--no-stdin]
//        [--tls-cert CERT.pem --tls-key KEY.pem]
//
// Serves POST /v1/chat/completions (streamed SSE or one JSON object, as the
// request's "stream" asks) and GET /v1/models. Each request gets the next
// response of the scenario, or the first response whose "match" fits the
// last user message. Every request is recorded: GET /__requests returns them
// (and whether the client closed its stream early); POST /__reset forgets
// them and starts the scenario over.
//
// It listens on 127.0.0.1 (port 0 = a free one, unless --port) and prints
// {"port": N} as its first line on stdout. It exits when its stdin closes
// (so a test that dies takes it along; --no-stdin turns that off) or on
// SIGTERM / SIGINT. With --tls-cert and --tls-key it speaks HTTPS, so tests
// can check certificate verification, and prints {"port", "controlPort"}:
// the same routes over plain HTTP, for reading /__requests. No npm packages: Node 20's standard library only.
// See README.md for the scenario format.

import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import process from 'node:process';

const MAX_REQUEST_BYTES = 16 * 1024 * 1024;

function parseArgs(argv) {
  const opts = { scenario: null, port: 0, host: '127.0.0.1', stdin: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--port') opts.port = Number(argv[++i]);
    else if (a === '--host') opts.host = argv[++i];
    else if (a === '--no-stdin') opts.stdin = false;
    else if (a === '--tls-cert') opts.tlsCert = argv[++i];
    else if (a === '--tls-key') opts.tlsKey = argv[++i];
    else if (a === '--help' || a === '-h') opts.help = true;
    else if (!opts.scenario) opts.scenario = a;
    else throw new Error(`unexpected argument: ${a}`);
  }
  return opts;
}

function loadScenario(path) {
  const scenario = path ? JSON.parse(readFileSync(path, 'utf8')) : { responses: [] };
  if (Array.isArray(scenario)) return { responses: scenario };
  if (!Array.isArray(scenario.responses)) throw new Error('a scenario needs "responses": [...]');
  return scenario;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// The text of the last user message (string content or text parts).
function lastUserText(body) {
  const messages = Array.isArray(body?.messages) ? body.messages : [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== 'user') continue;
    if (typeof m.content === 'string') return m.content;
    if (Array.isArray(m.content)) {
      return m.content.map((p) => (typeof p?.text === 'string' ? p.text : '')).join('');
    }
    return '';
  }
  return '';
}

function matches(pattern, text) {
  const re = /^\/(.*)\/([a-z]*)$/s.exec(pattern);
  if (re) return new RegExp(re[1], re[2]).test(text);
  return text.toLowerCase().includes(String(pattern).toLowerCase());
}

class Scenario {
  constructor(spec) {
    this.spec = spec;
    this.reset();
  }
  reset() {
    this.next = 0;
  }
  pick(body) {
    const text = lastUserText(body);
    const messages = Array.isArray(body?.messages) ? body.messages : [];
    const afterTool = messages.length > 0 && messages[messages.length - 1]?.role === 'tool';
    const fits = (r) => r.afterTool === undefined || r.afterTool === afterTool;
    const matched = this.spec.responses.find((r) => r.match !== undefined && fits(r) && matches(r.match, text));
    if (matched) return matched;
    const ordered = this.spec.responses.filter((r) => r.match === undefined);
    if (this.next < ordered.length) return ordered[this.next++];
    if (this.spec.exhausted === 'repeat-last' && ordered.length) return ordered[ordered.length - 1];
    return null;
  }
}

const pieces = (v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const argumentPieces = (a) =>
  a === undefined ? ['{}'] : typeof a === 'string' || Array.isArray(a) ? pieces(a) : [JSON.stringify(a)];

function usageJson(u) {
  if (!u) return undefined;
  const out = { prompt_tokens: u.prompt_tokens ?? 0, completion_tokens: u.completion_tokens ?? 0 };
  out.total_tokens = u.total_tokens ?? out.prompt_tokens + out.completion_tokens;
  if (u.cached_tokens !== undefined) out.prompt_tokens_details = { cached_tokens: u.cached_tokens };
  return out;
}

function finishReason(r) {
  return r.finishReason ?? (r.toolCalls?.length ? 'tool_calls' : 'stop');
}

// The chunk objects of a streamed answer, in order.
function streamChunks(r, model, includeUsage) {
  const base = { id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 1764000000, model };
  const chunk = (delta, finish = null) => ({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
  const out = [chunk({ role: 'assistant', content: '' })];
  for (const t of pieces(r.text)) out.push(chunk({ content: t }));
  (r.toolCalls ?? []).forEach((call, index) => {
    argumentPieces(call.arguments).forEach((args, i) => {
      const tc = { index, function: { arguments: args } };
      if (i === 0) {
        if (call.id !== null) tc.id = call.id ?? `call_${index + 1}`;
        tc.type = 'function';
        tc.function = { name: call.name, arguments: args };
      }
      out.push(chunk({ tool_calls: [tc] }));
    });
  });
  out.push(chunk({}, finishReason(r)));
  if (includeUsage && r.usage) out.push({ ...base, choices: [], usage: usageJson(r.usage) });
  return out;
}

function completion(r, model) {
  const message = { role: 'assistant', content: pieces(r.text).join('') || null };
  if (r.toolCalls?.length) {
    message.tool_calls = r.toolCalls.map((call, index) => ({
      id: call.id ?? `call_${index + 1}`,
      type: 'function',
      function: { name: call.name, arguments: argumentPieces(call.arguments).join('') },
    }));
  }
  const out = {
    id: 'chatcmpl-fake', object: 'chat.completion', created: 1764000000, model,
    choices: [{ index: 0, message, finish_reason: finishReason(r) }],
  };
  if (r.usage) out.usage = usageJson(r.usage);
  return out;
}

function sendJson(res, status, value, headers = {}) {
  const body = typeof value === 'string' ? value : JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body);
}

async function serveChat(req, res, body, scenario, record) {
  if (scenario.spec.requireKey && req.headers.authorization !== `Bearer ${scenario.spec.requireKey}`) {
    return sendJson(res, 401, { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' } });
  }
  const r = scenario.pick(body);
  if (!r) {
    return sendJson(res, 500, { error: { message: 'the fake model has no response left in its scenario', type: 'fake_exhausted' } });
  }
  record.response = scenario.spec.responses.indexOf(r);
  if (r.firstByteDelayMs) await sleep(r.firstByteDelayMs);
  if (r.silent === 'no-headers') return; // Nothing at all, until the client gives up.
  const status = r.status ?? 200;
  if (status >= 400) {
    return sendJson(res, status, r.body ?? { error: r.error ?? { message: `fake error ${status}` } }, r.headers);
  }
  const model = body?.model ?? 'fake-model';
  if (!body?.stream) {
    if (r.silent === 'headers') return res.writeHead(200, { 'content-type': 'application/json' }).flushHeaders();
    return sendJson(res, 200, completion(r, model), r.headers);
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...r.headers });
  res.flushHeaders();
  if (r.silent === 'headers') return; // Headers, then nothing.
  const eol = r.crlf ? '\r\n' : '\n';
  const writes = r.rawSse
    ? pieces(r.rawSse)
    : streamChunks(r, model, body?.stream_options?.include_usage === true).map((c) => `data: ${JSON.stringify(c)}${eol}${eol}`);
  if (r.streamError && !r.rawSse) {
    writes.splice(writes.length - 1, 0, `data: ${JSON.stringify({ error: r.streamError })}${eol}${eol}`);
  }
  if (!r.rawSse && r.cutAfter === undefined) writes.push(`data: [DONE]${eol}${eol}`);
  const limit = r.cutAfter ?? writes.length;
  // The role chunk and the first content go out together; delays come between
  // the content events after that.
  const firstDelayed = r.rawSse ? 1 : 2;
  for (let i = 0; i < Math.min(limit, writes.length); i++) {
    if (res.destroyed || record.clientClosed) return;
    if (i >= firstDelayed && r.delayMs) {
      if (r.heartbeatMs) {
        for (let waited = 0; waited < r.delayMs; waited += r.heartbeatMs) {
          await sleep(Math.min(r.heartbeatMs, r.delayMs - waited));
          if (!res.destroyed) res.write(`: keep-alive${eol}${eol}`);
        }
      } else {
        await sleep(r.delayMs);
      }
    }
    if (res.destroyed || record.clientClosed) return;
    // Stamped chunks carry their send time, so a client can measure delivery delay.
    const write = r.stampChunks ? writes[i].replaceAll('{{now}}', String(Date.now())) : writes[i];
    await new Promise((resolve) => res.write(write, resolve));
  }
  if (r.cutAfter !== undefined) return res.destroy(); // Cut off: no [DONE], no end.
  res.end();
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.help) {
    process.stdout.write('usage: fake_model.mjs SCENARIO.json [--port N] [--host H] [--no-stdin] [--tls-cert C --tls-key K]\n');
    return;
  }
  const scenario = new Scenario(loadScenario(opts.scenario));
  const requests = [];
  // Each connection gets a number, so a test can see a client reuse one.
  const connectionIds = new WeakMap();
  let connections = 0;
  const handler = (req, res) => {
    if (!connectionIds.has(req.socket)) connectionIds.set(req.socket, ++connections);
    const chunks = [];
    let size = 0;
    req.on('data', (c) => {
      size += c.length;
      if (size <= MAX_REQUEST_BYTES) chunks.push(c);
    });
    req.on('end', async () => {
      const url = new URL(req.url, 'http://fake');
      const raw = Buffer.concat(chunks).toString('utf8');
      if (url.pathname === '/__requests' && req.method === 'GET') return sendJson(res, 200, requests);
      if (url.pathname === '/__close-idle' && req.method === 'POST') {
        server.closeIdleConnections(); // As a provider's keep-alive limit would.
        return sendJson(res, 200, { ok: true });
      }
      if (url.pathname === '/__reset' && req.method === 'POST') {
        requests.length = 0;
        scenario.reset();
        return sendJson(res, 200, { ok: true });
      }
      let body = raw;
      try { body = raw ? JSON.parse(raw) : null; } catch { /* recorded as text */ }
      const record = {
        method: req.method, path: url.pathname, headers: req.headers, body,
        connection: connectionIds.get(req.socket), clientClosed: false, finished: false,
      };
      requests.push(record);
      res.on('close', () => { if (!res.writableFinished) record.clientClosed = true; });
      res.on('finish', () => { record.finished = true; });
      try {
        if (req.method === 'GET' && url.pathname.endsWith('/models')) {
          const models = scenario.spec.models ?? [{ id: 'fake-model' }];
          return sendJson(res, 200, { object: 'list', data: models.map((m) => ({ object: 'model', owned_by: 'fake', created: 1764000000, ...m })) });
        }
        if (req.method === 'POST' && url.pathname.endsWith('/chat/completions')) {
          if (size > MAX_REQUEST_BYTES) return sendJson(res, 413, { error: { message: 'request too large' } });
          if (typeof body !== 'object' || body === null) {
            return sendJson(res, 400, { error: { message: 'the body is not JSON', type: 'invalid_request_error' } });
          }
          return await serveChat(req, res, body, scenario, record);
        }
        sendJson(res, 404, { error: { message: `no route ${req.method} ${url.pathname}` } });
      } catch (e) {
        if (!res.headersSent) sendJson(res, 500, { error: { message: String(e?.message ?? e) } });
        else res.destroy();
      }
    });
  };
  const server = opts.tlsCert
    ? https.createServer({ cert: readFileSync(opts.tlsCert), key: readFileSync(opts.tlsKey) }, handler)
    : http.createServer(handler);
  const quit = () => {
    server.closeAllConnections?.();
    process.exit(0);
  };
  process.on('SIGTERM', quit);
  process.on('SIGINT', quit);
  if (opts.stdin) {
    process.stdin.on('end', quit);
    process.stdin.on('error', quit);
    process.stdin.resume();
  }
  server.listen(opts.port, opts.host, () => {
    if (!opts.tlsCert) {
      process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
      return;
    }
    // Under TLS the same routes are also served over plain HTTP on a second
    // port, so a test can read /__requests without trusting the certificate.
    const control = http.createServer(handler);
    control.listen(0, opts.host, () => {
      process.stdout.write(`${JSON.stringify({ port: server.address().port, controlPort: control.address().port })}\n`);
    });
  });
}

main();
