// Linked with --pre-js: routeMessage(requestJson), the JS half of
// route_bindings.cc. The request goes into the module's request buffer as
// UTF-8 (TextEncoder.encodeInto, native code) and the answer comes back as
// UTF-8 bytes read with TextDecoder: Embind's std::string conversions loop
// over every byte in JS, which cost more than the routing. Anything that is
// not a string gets the binding's error answer, as before.

Module['routeMessage'] = (function () {
  let encoder = null;
  let decoder = null;
  return function routeMessage(requestJson) {
    if (encoder === null) {
      encoder = new TextEncoder();
      decoder = new TextDecoder();
    }
    const isString = typeof requestJson === 'string';
    let size = 0;
    if (isString) {
      // A UTF-16 code unit takes at most three bytes of UTF-8.
      const capacity = requestJson.length * 3;
      const buffer = Module['_ensemble_route_request_buffer'](capacity) >>> 0;
      if (buffer === 0) return '{"ok":false,"code":"INTERNAL","message":"out of memory"}';
      // Read the heap after the call: growing memory replaces the view.
      const heap = Module['HEAPU8'];
      size = encoder.encodeInto(requestJson, heap.subarray(buffer, buffer + capacity)).written;
    }
    const answer = Module['_ensemble_route_message'](size, isString ? 1 : 0) >>> 0;
    const words = Module['HEAPU32'];
    const data = words[answer >>> 2];
    const length = words[(answer >>> 2) + 1];
    return decoder.decode(Module['HEAPU8'].subarray(data, data + length));
  };
})();
