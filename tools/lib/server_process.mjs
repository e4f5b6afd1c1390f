// The sync server as a child process on a free loopback port, for the tests,
// the benchmarks and tools/assistant-eval.

import {spawn} from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const serverBin = process.env.ENSEMBLE_SERVER_BIN ??
                         path.join(repoRoot, 'build', 'native', 'server', 'ensemble_server');
export const wasmDir = process.env.ENSEMBLE_WASM_DIR ?? path.join(repoRoot, 'build', 'wasm', 'wasm');

export function tempDir(prefix) {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const {port} = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// The sync server as a child process; start() and stop() can be repeated
// (same port, same data) to take it down and bring it back.
export class ServerProcess {
  // `env` adds to (or, with undefined values, removes from) the server's
  // environment.
  constructor({port, dataDir, databaseUrl = null, webRoot = path.join(repoRoot, 'web-shell'),
               env = {}}) {
    this.port = port;
    this.env = {
      ...process.env,
      ENSEMBLE_HTTP_ADDR: '127.0.0.1',
      ENSEMBLE_PORT: String(port),
      ENSEMBLE_DATA_DIR: dataDir,
      ENSEMBLE_WEB_ROOT: webRoot,
      ENSEMBLE_WASM_DIR: wasmDir,
      // The build's precompressed copies of web-shell/ (none for another root).
      ENSEMBLE_WEB_COMPRESSED_DIR: webRoot === path.join(repoRoot, 'web-shell')
        ? path.join(repoRoot, 'build', 'wasm', 'web-shell') : '',
    };
    if (databaseUrl) {
      this.env.ENSEMBLE_DATABASE_URL = databaseUrl;
    } else {
      delete this.env.ENSEMBLE_DATABASE_URL;
    }
    for (const [key, value] of Object.entries(env)) {
      if (value === undefined) {
        delete this.env[key];
      } else {
        this.env[key] = String(value);
      }
    }
    this.child = null;
    this.log = '';
  }

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  async start() {
    if (!fs.existsSync(serverBin)) {
      throw new Error(`no server binary at ${serverBin} (set ENSEMBLE_SERVER_BIN)`);
    }
    const child = spawn(serverBin, [], {env: this.env, stdio: ['ignore', 'pipe', 'pipe']});
    this.child = child;
    const keep = (chunk) => {
      this.log += chunk.toString();
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    this.exited = exited;
    const deadline = Date.now() + 15000;
    while (Date.now() < deadline) {
      const gone = await Promise.race([exited.then(() => true), sleep(0).then(() => false)]);
      if (gone) throw new Error(`the server exited at start:\n${this.log}`);
      try {
        const res = await fetch(`${this.url}/healthz`);
        if (res.ok) return;
      } catch {
        // Not listening yet.
      }
      await sleep(100);
    }
    throw new Error(`the server did not answer /healthz within 15 s:\n${this.log}`);
  }

  // SIGTERM, then wait for the exit (SIGKILL after 10 s).
  async stop() {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 10000);
    await this.exited;
    clearTimeout(killer);
    this.child = null;
  }
}
