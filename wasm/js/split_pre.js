// Linked with --pre-js into the app's module only, which is split in two
// (wasm/CMakeLists.txt, "Two halves"): ensemble_core.wasm holds what the
// first screen runs, ensemble_core.deferred.wasm everything else. The first
// half reaches a function of the second through a placeholder; the first such
// call loads the second half synchronously (the db worker may block, the page
// never runs this) and installs its functions in the shared table, so later
// calls go straight to them. Module.loadDeferred() loads it ahead of need,
// off the critical path, which is what the worker does once the list shows.
//
// Emscripten's own loader would instantiate the second half again on every
// call through a placeholder that Embind's registrations or the table mirror
// captured before the load, and aborts the whole module when the file cannot
// be read; this one loads it once, and throws (the module stays usable, the
// binding edge turns it into an error value) when it cannot.

var kDeferredFile = 'ensemble_core.deferred.wasm';
// How the second half came: null (not yet), 'call' or 'prefetch'.
Module['deferredLoadedBy'] = null;
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

Module['loadSplitModule'] = function (file, imports, placeholder) {
  if (Module['deferredLoadedBy']) return;
  // Which binding reached the second half first (its JS frame names it):
  // what wasm/split/first_screen.mjs should play when that was the first
  // screen.
  var limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 100;  // Deep enough to reach the binding's frame.
  Module['deferredFirstCall'] = {placeholder: placeholder, stack: String(new Error().stack)};
  Error.stackTraceLimit = limit;
  var bytes = readDeferredSync(locateFile(kDeferredFile));
  installDeferred(new WebAssembly.Module(bytes), 'call');
};

// Resolves once the second half is installed; compiles while it downloads.
Module['loadDeferred'] = function () {
  if (Module['deferredLoadedBy']) return Promise.resolve();
  if (!deferredCompiling) {
    var url = locateFile(kDeferredFile);
    var compiled = ENVIRONMENT_IS_NODE
      ? Promise.resolve().then(function () { return WebAssembly.compile(readBinary(url)); })
      : WebAssembly.compileStreaming(fetch(url, {credentials: 'same-origin'}));
    deferredCompiling = compiled.then(function (module) {
      installDeferred(module, 'prefetch');
    }, function (e) {
      deferredCompiling = null;  // A later call may try again.
      throw e;
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
