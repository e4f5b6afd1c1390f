// Linked with --extern-pre-js, so it sits at the top of the ES module, outside
// the factory. This Emscripten's ES-module output still uses the CommonJS
// globals __dirname and require() when it runs under Node; an ES module has
// neither, so define them here (browsers skip this block).
var __dirname = '';
var require;
if (typeof process == 'object' && typeof process.versions == 'object' &&
    typeof process.versions.node == 'string') {
  __dirname = decodeURIComponent(new URL('.', import.meta.url).pathname);
  require = (await import('node:module')).createRequire(import.meta.url);
}
