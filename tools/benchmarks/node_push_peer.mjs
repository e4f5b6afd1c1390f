#!/usr/bin/env node
// The peer of sync_bench's push figures: a push endpoint of the shape people
// write today, a Replicache-style push handler ("global version" strategy) in
// Node with node-postgres (npm `pg`). sync_bench starts it as a child process
// beside our server and drives both with the same client, in alternating
// rounds, to report `sync.push_ratio_node_peer` (our pushes/s ÷ its).
//
// Why it is a fair peer:
// - Same request and answer: it serves POST /api/sync/push with our body
//   ({clientGroupId, clientId, mutations: [{id, name, args, clientTime}]}) and
//   answers {lastMutationId, results} as ours does, so the client's JSON and
//   HTTP work are the same for both.
// - Same guarantees for a push: one transaction; the client's row locked
//   (SELECT … FOR UPDATE) so its pushes apply in order, once; a global
//   version bumped (UPDATE … SET version = version + 1 RETURNING version)
//   and stamped on the row, which serializes writers as our version counter
//   does and is what a pull's cursor needs; the task inserted into a table
//   of our `tasks` table's columns and indexes; lastMutationId saved on the
//   client row; COMMIT; the answer.
// - Same store: the same PostgreSQL cluster (a fresh database of its own),
//   with as many connections as our server's store pool has by default (4;
//   pg's default of 10 was no faster here) and named prepared statements
//   (parsed once per connection, as ours are; unnamed ones, pg's default,
//   made it 5-20 % slower).
// - Its own process, one Node event loop, as such a handler is deployed.
// What it leaves out, and ours does: authorization by account, the
// per-space record cap, rejected mutations' verdicts, rate and size limits,
// and the poke: ours sends a NOTIFY in every push's commit and LISTENs for
// them (other servers' pushes reach this server's pullers that way).
// PEER_NOTIFY=1 adds that to the peer too (pg_notify sent with its COMMIT,
// no extra round trip, and a LISTEN connection in the same process), to see
// what the poke costs; sync_bench runs it without, the bare pattern.
//
// Usage (sync_bench does this): PEER_DATABASE_URL=postgresql://… node
// node_push_peer.mjs. It creates its tables, listens on a free port of
// 127.0.0.1 and prints `listening PORT` on stdout; it stops on SIGTERM or
// when its stdin closes (the bench exiting, however it exits).

import http from 'node:http';

import pg from 'pg';

const kPoolSize = Number(process.env.PEER_POOL_SIZE ?? 4);
const kNotify = process.env.PEER_NOTIFY === '1';
const kMaxBodyBytes = 8 << 20;
const kMaxPushMutations = 1000;
const kMaxIdChars = 64;
const kMaxTitleChars = 500;
const kRecordId = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;

const kSchema = `
  CREATE TABLE peer_server (id INT PRIMARY KEY, version BIGINT NOT NULL);
  INSERT INTO peer_server VALUES (1, 0);
  CREATE TABLE peer_clients (
    client_id TEXT PRIMARY KEY, client_group_id TEXT NOT NULL,
    last_mutation_id BIGINT NOT NULL, updated_at BIGINT NOT NULL);
  CREATE TABLE tasks (
    id TEXT PRIMARY KEY, space_id TEXT NOT NULL, title TEXT NOT NULL, status TEXT NOT NULL,
    due TEXT, version BIGINT NOT NULL, deleted BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL, row_version BIGINT NOT NULL DEFAULT 0,
    description TEXT NOT NULL DEFAULT '', priority TEXT NOT NULL DEFAULT 'none', project TEXT,
    people TEXT NOT NULL DEFAULT '[]', labels TEXT NOT NULL DEFAULT '[]',
    depends_on TEXT NOT NULL DEFAULT '[]', blocks TEXT NOT NULL DEFAULT '[]', page TEXT);
  CREATE INDEX tasks_space ON tasks (space_id, id);
  CREATE INDEX tasks_row_version ON tasks (row_version);
  CREATE INDEX tasks_project ON tasks (space_id, project);`;

// Named: node-postgres parses each once per connection.
const kLockClient = {
  name: 'lock_client',
  text: 'SELECT last_mutation_id, client_group_id FROM peer_clients WHERE client_id = $1 FOR UPDATE',
};
const kNewClient = {
  name: 'new_client',
  text: 'INSERT INTO peer_clients (client_id, client_group_id, last_mutation_id, updated_at)' +
        ' VALUES ($1, $2, 0, $3) ON CONFLICT (client_id) DO NOTHING',
};
const kNextVersion = {
  name: 'next_version',
  text: 'UPDATE peer_server SET version = version + 1 WHERE id = 1 RETURNING version',
};
const kInsertTask = {
  name: 'insert_task',
  text: 'INSERT INTO tasks (id, space_id, title, status, due, description, priority, project,' +
        ' people, labels, depends_on, blocks, page, version, deleted, created_at, updated_at,' +
        " row_version) VALUES ($1, $2, $3, 'todo', NULL, '', 'none', NULL, '[]', '[]', '[]'," +
        " '[]', NULL, 1, 0, $4, $4, $5)",
};
const kSaveClient = {
  name: 'save_client',
  text: 'UPDATE peer_clients SET last_mutation_id = $2, updated_at = $3 WHERE client_id = $1',
};

class BadRequest extends Error {}

const isId = (v) => typeof v === 'string' && v.length > 0 && v.length <= kMaxIdChars;

// The checks our ValidatePush and task.create make, as a handler would with
// a schema library.
function parsePush(text) {
  let push;
  try {
    push = JSON.parse(text);
  } catch {
    throw new BadRequest('the push body must be JSON');
  }
  if (push === null || typeof push !== 'object') throw new BadRequest('the body must be an object');
  if (!isId(push.clientGroupId)) throw new BadRequest('clientGroupId must be an id');
  if (!isId(push.clientId)) throw new BadRequest('clientId must be an id');
  if (!Array.isArray(push.mutations) || push.mutations.length > kMaxPushMutations) {
    throw new BadRequest('mutations must be an array of at most 1,000');
  }
  let previous = 0;
  for (const m of push.mutations) {
    if (m === null || typeof m !== 'object' || !Number.isSafeInteger(m.id) || m.id <= previous) {
      throw new BadRequest('mutation ids must be increasing positive integers');
    }
    previous = m.id;
    if (m.name !== 'task.create') throw new BadRequest(`no mutation called ${m.name}`);
    if (!Number.isSafeInteger(m.clientTime)) throw new BadRequest('clientTime must be an integer');
    const a = m.args;
    if (a === null || typeof a !== 'object') throw new BadRequest('args must be an object');
    if (typeof a.id !== 'string' || !kRecordId.test(a.id)) throw new BadRequest('id must be a record id');
    if (!isId(a.spaceId)) throw new BadRequest('spaceId must name a space');
    if (typeof a.title !== 'string' || !a.title.trim() || a.title.length > kMaxTitleChars) {
      throw new BadRequest('title must be 1 to 500 characters');
    }
  }
  return push;
}

// One push, one transaction: lock the client, then per mutation the next
// global version and the row, then the client's progress, COMMIT.
async function applyPush(pool, push) {
  const db = await pool.connect();
  try {
    await db.query('BEGIN');
    let rows = (await db.query({...kLockClient, values: [push.clientId]})).rows;
    if (rows.length === 0) {
      // First contact: create the row, then lock it like any other.
      await db.query({...kNewClient, values: [push.clientId, push.clientGroupId, Date.now()]});
      rows = (await db.query({...kLockClient, values: [push.clientId]})).rows;
    }
    if (rows[0].client_group_id !== push.clientGroupId) {
      throw new BadRequest('clientId belongs to another client group');
    }
    let last = Number(rows[0].last_mutation_id);
    let version = 0;
    const results = [];
    for (const m of push.mutations) {
      if (m.id <= last) {
        results.push({id: m.id, status: 'skipped'});
        continue;
      }
      if (m.id > last + 1) throw new BadRequest(`mutation ${m.id} arrived before ${last + 1}`);
      ({rows: [{version}]} = await db.query(kNextVersion));
      const now = Date.now();
      await db.query({...kInsertTask, values: [m.args.id, m.args.spaceId, m.args.title.trim(), now, version]});
      results.push({id: m.id, status: 'applied'});
      last = m.id;
    }
    await db.query({...kSaveClient, values: [push.clientId, last, Date.now()]});
    // The poke (when something was written) goes with COMMIT in one
    // simple-protocol query, as ours goes in COMMIT's pipeline; the version
    // is an integer, safe to inline.
    await db.query(kNotify && version ? `SELECT pg_notify('poke', '${version}'); COMMIT` : 'COMMIT');
    return {lastMutationId: last, results};
  } catch (e) {
    await db.query('ROLLBACK').catch(() => {});
    throw e;
  } finally {
    db.release();
  }
}

function answer(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, {'content-type': 'application/json', 'content-length': Buffer.byteLength(text)});
  res.end(text);
}

async function main() {
  const url = process.env.PEER_DATABASE_URL;
  if (!url) throw new Error('PEER_DATABASE_URL is not set');
  const pool = new pg.Pool({connectionString: url, max: kPoolSize});
  await pool.query(kSchema);
  if (kNotify) {
    // Like ours, each poke is read and its version parsed; nobody is
    // subscribed here, so that is all.
    const listener = new pg.Client({connectionString: url});
    await listener.connect();
    let pokedVersion = 0;
    listener.on('notification', (n) => { pokedVersion = Math.max(pokedVersion, Number(n.payload)); });
    await listener.query('LISTEN poke');
  }

  const server = http.createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/api/sync/push') {
      answer(res, 404, {error: 'not found'});
      return;
    }
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > kMaxBodyBytes) req.destroy();
      chunks.push(chunk);
    });
    req.on('end', () => {
      Promise.resolve()
          .then(() => applyPush(pool, parsePush(Buffer.concat(chunks).toString('utf8'))))
          .then((body) => answer(res, 200, body))
          .catch((e) => answer(res, e instanceof BadRequest ? 400 : 500, {error: e.message}));
    });
  });
  server.on('clientError', (e, socket) => socket.destroy());
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    server.close();
    server.closeAllConnections();
    pool.end().finally(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.stdin.on('end', stop);
  process.stdin.resume();
  process.stdout.write(`listening ${server.address().port}\n`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
