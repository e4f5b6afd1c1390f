// Linked with --pre-js into the app's module only, which is split in two
// (wasm/CMakeLists.txt, "Two halves"): ensemble_core.wasm holds what the
// first screen runs, ensemble_core.deferred.wasm everything else. The first
// half reaches a function of the second through a placeholder; the first such
// call loads the second half synchronously (the db worker may block, the page
// never runs this) and installs its functions in the shared table, so later
// calls go straight to them. Module.loadDeferred() loads it ahead of need,
// off the critical path, which is what the worker does once the page has
// shown its first screen.
//
// Emscripten's own loader would instantiate the second half again on every
// call through a placeholder that Embind's registrations or the table mirror
// captured before the load; this one loads it once.
//
// When the synchronous load fails (offline before the service worker kept
// the file, or a new build replaced it), the call cannot go on, and throwing
// would unwind through whatever called the placeholder: SQLite's C frames
// among them (some of its rarer paths are in the second half), which cannot
// be left half-way and used again. So the module is given up instead:
// Module.deferredFailed says why, Module.onDeferredFailed is told, and the
// call ends in a trap, which no cleanup of the core catches on its way out
// (a thrown error would run them, and they would use the connection). The
// database stays as its last commit left it (the journal undoes the rest
// when it is next opened); the db worker stops using this module.

var kDeferredFile = 'ensemble_core.deferred.wasm';
// How the second half came: null (not yet), 'call' or 'prefetch'.
Module['deferredLoadedBy'] = null;
// Why the module was given up (a synchronous load failed), or null.
Module['deferredFailed'] = null;
var deferredCompiling = null;

function deferredImports() {
  return {'primary': Module['asm']};
}

function installDeferred(module, how) {
  if (Module['deferredLoadedBy']) return;
  new WebAssembly.Instance(module, deferredImports());
  Module['deferredLoadedBy'] = how;
}

// The second half's bytes, synchronously: XHR in a worker, the file in Node.
function readDeferredSync(url) {
  if (typeof XMLHttpRequest == 'function') {
    var xhr = new XMLHttpRequest();
    xhr.open('GET', url, false);
    xhr.responseType = 'arraybuffer';
    xhr.send(null);
    if (xhr.status !== 200) throw new Error('cannot load ' + url + ': HTTP ' + xhr.status);
    return new Uint8Array(xhr.response);
  }
  return readBinary(url);
}

// A module of one function whose body is `unreachable`: calling it traps.
var kTrapModule = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,  // magic, version
  0x01, 0x04, 0x01, 0x60, 0x00, 0x00,              // type 0: [] -> []
  0x03, 0x02, 0x01, 0x00,                          // function 0: type 0
  0x07, 0x05, 0x01, 0x01, 0x74, 0x00, 0x00,        // export "t": function 0
  0x0a, 0x05, 0x01, 0x03, 0x00, 0x00, 0x0b,        // body: unreachable, end
]);

function giveUp(error) {
  Module['deferredFailed'] = String((error && error.message) || error);
  if (Module['onDeferredFailed']) {
    try {
      Module['onDeferredFailed'](Module['deferredFailed']);
    } catch (e) {
      // The trap below must happen all the same.
    }
  }
  new WebAssembly.Instance(new WebAssembly.Module(kTrapModule)).exports['t']();
}

Module['loadSplitModule'] = function (file, imports, placeholder) {
  if (Module['deferredLoadedBy']) return;
  if (Module['deferredFailed']) giveUp(Module['deferredFailed']);
  // Which binding reached the second half first (its JS frame names it):
  // what wasm/split/first_screen.mjs should play when that was the first
  // screen.
  var limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 100;  // Deep enough to reach the binding's frame.
  Module['deferredFirstCall'] = {placeholder: placeholder, stack: String(new Error().stack)};
  Error.stackTraceLimit = limit;
  var module;
  try {
    module = new WebAssembly.Module(readDeferredSync(locateFile(kDeferredFile)));
    installDeferred(module, 'call');
  } catch (e) {
    giveUp(e);
  }
};

// Resolves once the second half is installed; compiles while it downloads.
// Rejects when it cannot be had (a later call may try again), unless a call
// installed it meanwhile.
Module['loadDeferred'] = function () {
  if (Module['deferredLoadedBy']) return Promise.resolve();
  if (Module['deferredFailed']) return Promise.reject(new Error(Module['deferredFailed']));
  if (!deferredCompiling) {
    var url = locateFile(kDeferredFile);
    var compiled = ENVIRONMENT_IS_NODE
      ? Promise.resolve().then(function () { return WebAssembly.compile(readBinary(url)); })
      : WebAssembly.compileStreaming(fetch(url, {credentials: 'same-origin'}));
    deferredCompiling = compiled.then(function (module) {
      installDeferred(module, 'prefetch');
    }).catch(function (e) {
      deferredCompiling = null;
      if (!Module['deferredLoadedBy']) throw e;
    });
  }
  return deferredCompiling;
};

// The glue reports each load through a placeholder on stderr ("placeholder
// function called", "instantiated deferred module"): expected here, so
// dropped; everything else passes.
if (!Module['printErr']) {
  Module['printErr'] = function (text) {
    if (/^(placeholder function called|instantiated deferred module)/.test(text)) return;
    console.warn(text);
  };
}
