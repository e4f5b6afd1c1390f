// Shared by the browser end-to-end tests (tests/e2e) and the benchmarks:
// spawning the sync server on a free port, headless Chromium with a fresh
// profile, and reading the server's database.

import {execFileSync} from 'node:child_process';
import fs from 'node:fs';

import {chromium} from 'playwright-core';

import {freePort, repoRoot, serverBin, ServerProcess, tempDir, wasmDir} from './server_process.mjs';

export {freePort, repoRoot, serverBin, ServerProcess, tempDir, wasmDir};
export const chromiumPath = process.env.ENSEMBLE_CHROMIUM ?? '/usr/bin/chromium';

export const kChromiumArgs = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic',
];

// Headless Chromium with a fresh profile (--user-data-dir), removed on close.
export async function launchBrowser({viewport = {width: 1280, height: 800}} = {}) {
  const profile = tempDir('ensemble-chromium-');
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: kChromiumArgs,
    viewport,
  });
  const page = context.pages()[0] ?? await context.newPage();
  const close = async () => {
    await context.close().catch(() => {});
    fs.rmSync(profile, {recursive: true, force: true});
  };
  return {context, page, close};
}

// SELECT on the server's embedded SQLite database with the sqlite3 CLI.
export function sqliteQuery(dbFile, sql) {
  return execFileSync('sqlite3', ['-readonly', dbFile, sql], {encoding: 'utf8'}).trim();
}

export function psql(url, sql) {
  return execFileSync('psql', [url, '-X', '-q', '-t', '-A', '-v', 'ON_ERROR_STOP=1', '-c', sql],
                      {encoding: 'utf8'}).trim();
}

// A fresh PostgreSQL database next to the one `adminUrl` names; returns its
// URL and a drop() to remove it.
export function createPgDatabase(adminUrl) {
  const name = `ensemble_e2e_${process.pid}_${Date.now().toString(36)}`;
  psql(adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => psql(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

// Single-quoted SQL string literal.
export function sqlString(text) {
  return `'${text.replaceAll("'", "''")}'`;
}
