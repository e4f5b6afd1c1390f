// Reads a .wasm file's sections, its functions' body sizes and (when the
// module was linked with --profiling-funcs) their names. The one wasm binary
// reader of tools/size/report.mjs and its test.

function readU32(bytes, at) {
  let result = 0;
  let shift = 0;
  for (;;) {
    const b = bytes[at.pos++];
    result += (b & 0x7f) * 2 ** shift;
    if (!(b & 0x80)) return result;
    shift += 7;
  }
}

function readName(bytes, at) {
  const n = readU32(bytes, at);
  const s = Buffer.from(bytes.buffer, bytes.byteOffset + at.pos, n).toString('utf8');
  at.pos += n;
  return s;
}

const kSectionNames = ['custom', 'type', 'import', 'function', 'table', 'memory', 'global',
                       'export', 'start', 'element', 'code', 'data', 'datacount', 'tag'];

// {sections: [{id, name, size}], functions: [{index, name, size}], dataSize}
export function readWasm(bytes) {
  if (bytes.readUInt32LE(0) !== 0x6d736100) throw new Error('not a wasm module');
  const at = {pos: 8};
  const sections = [];
  let importedFunctions = 0;
  const bodies = [];
  const names = new Map();
  while (at.pos < bytes.length) {
    const id = bytes[at.pos++];
    const size = readU32(bytes, at);
    const start = at.pos;
    const end = start + size;
    let name = kSectionNames[id] ?? `section ${id}`;
    if (id === 0) {
      const custom = readName(bytes, at);
      name = `custom:${custom}`;
      if (custom === 'name') readNames(bytes, at, end, names);
    } else if (id === 2) {
      const count = readU32(bytes, at);
      for (let i = 0; i < count; ++i) {
        readName(bytes, at);
        readName(bytes, at);
        const kind = bytes[at.pos++];
        if (kind === 0) {
          readU32(bytes, at);
          ++importedFunctions;
        } else {
          break;  // Only the functions' count matters, and they come first in practice.
        }
      }
    } else if (id === 10) {
      const count = readU32(bytes, at);
      for (let i = 0; i < count; ++i) {
        const bodySize = readU32(bytes, at);
        bodies.push(bodySize);
        at.pos += bodySize;
      }
    }
    sections.push({id, name, size});
    at.pos = end;
  }
  const functions = bodies.map((size, i) => {
    const index = importedFunctions + i;
    return {index, name: names.get(index) ?? `function ${index}`, size};
  });
  return {sections, functions};
}

function readNames(bytes, at, end, names) {
  while (at.pos < end) {
    const kind = bytes[at.pos++];
    const size = readU32(bytes, at);
    const next = at.pos + size;
    if (kind === 1) {
      const count = readU32(bytes, at);
      for (let i = 0; i < count; ++i) {
        const index = readU32(bytes, at);
        names.set(index, readName(bytes, at));
      }
    }
    at.pos = next;
  }
}
