// tools/size/: the wasm reader behind the size report of docs/PERFORMANCE.md,
// on a module written byte by byte here, and the areas names are charged to.

import assert from 'node:assert/strict';
import {test} from 'node:test';

import {areaOf, report} from '../../tools/size/report.mjs';
import {readWasm} from '../../tools/size/wasm_sections.mjs';

const u32 = (n) => {  // LEB128
  const out = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
};
const str = (s) => [...u32(Buffer.byteLength(s)), ...Buffer.from(s)];
const section = (id, body) => [id, ...u32(body.length), ...body];

// One imported function, then two defined ones of 3 and 200 body bytes,
// named in a "name" custom section.
function module() {
  const type = section(1, [1, 0x60, 0, 0]);
  const imports = section(2, [1, ...str('env'), ...str('f'), 0, 0]);
  const funcs = section(3, [2, 0, 0]);
  const small = [0x02, 0x00, 0x0b];  // Body size 3: no locals, nop, end.
  const big = [...u32(199), 0x00, ...new Array(197).fill(0x01), 0x0b];  // 200 bytes.
  const code = section(10, [2, ...u32(small.length), ...small, ...u32(200), ...big.slice(u32(199).length)]);
  const fnNames = [3, ...u32(0), ...str('import'), ...u32(1), ...str('sqlite3VdbeExec'),
                   ...u32(2), ...str('ensemble::core::tasks::ListTasks(int)')];
  const names = [1, ...u32(fnNames.length), ...fnNames];  // Subsection 1: function names.
  const custom = section(0, [...str('name'), ...names]);
  return Buffer.from([0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0, ...type, ...imports, ...funcs, ...code,
                      ...custom]);
}

test('readWasm lists sections and defined functions with their names and sizes', () => {
  const {sections, functions} = readWasm(module());
  assert.deepEqual(sections.map((s) => s.name),
                   ['type', 'import', 'function', 'code', 'custom:name']);
  assert.deepEqual(functions.map((f) => [f.index, f.name]),
                   [[1, 'sqlite3VdbeExec'], [2, 'ensemble::core::tasks::ListTasks(int)']]);
  assert.ok(functions[1].size > functions[0].size);
  assert.throws(() => readWasm(Buffer.from('not wasm')), /not a wasm module/);
});

test('areas follow our namespaces first, then the library a name comes from', () => {
  assert.equal(areaOf('ensemble::core::calendar::ExpandIcs(int)'), 'core/calendar');
  assert.equal(areaOf('std::__2::vector<ensemble::core::tasks::Task>::push_back(int)'), 'core/tasks');
  assert.equal(areaOf('ensemble::wasm::(anonymous namespace)::NewId()'), 'wasm bindings');
  assert.equal(areaOf('sqlite3Select'), 'SQLite');
  assert.equal(areaOf('void valijson::SchemaParser::populateSchema<int>(int)'), 'valijson');
  assert.equal(areaOf('std::__2::basic_regex<char>::__parse(char const*)'), 'std::regex');
  assert.equal(areaOf('nlohmann::json_abi_v3_11_2::basic_json<>::dump() const'), 'nlohmann::json');
  assert.equal(areaOf('std::__2::basic_string<char>::append(char const*)'), 'libc++ / libc++abi');
  assert.equal(areaOf('dlmalloc'), 'C, unprefixed (SQLite statics, libc, dlmalloc)');
  const {rows, code} = report(module());
  assert.equal(rows[0].area, 'core/tasks');
  assert.equal(rows.reduce((n, r) => n + r.bytes, 0), code);
});
