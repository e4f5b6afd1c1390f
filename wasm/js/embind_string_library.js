// Linked with --js-library after Embind's own library, so this definition of
// _embind_register_std_string replaces Embind's (later definitions win).
//
// Why: Emscripten 3.1.6's std::string conversions walk every byte in JS, three
// times for an answer (a scan for embedded NULs, a scan for the terminator,
// then the decode) and twice for an argument (lengthBytesUTF8, stringToUTF8).
// On a 1 MB reply that was most of formatEntityText's time in the browser
// (issue 30, part 4). Here long strings cross in native code: TextEncoder's
// encodeInto writes straight into the heap, TextDecoder reads the bytes the
// length prefix gives (embedded NULs included, as Embind's own join did).
// Short ASCII strings keep a byte loop, which beats a TextEncoder call. And a
// lone surrogate now becomes U+FFFD in every length, as TextEncoder makes it:
// Emscripten's own encoder turned "\ud800b" into one wrong four-byte
// character, losing the "b".
//
// Everything else is Embind's contract unchanged: the same wire layout (a u32
// length, the bytes, a NUL), typed arrays and ArrayBuffers accepted as bytes,
// the same errors for anything else, and non-UTF-8 names (such as
// std::basic_string<unsigned char>) as Latin-1.

mergeInto(LibraryManager.library, {
  _embind_register_std_string__deps: [
    '$readLatin1String', '$registerType', '$simpleReadValueFromPointer',
    '$throwBindingError'],
  _embind_register_std_string: function(rawType, name) {
    name = readLatin1String(name);
    var isUtf8 = name === 'std::string';
    // Below this many UTF-16 units (or bytes) the JS loops are faster than a
    // call into TextEncoder / TextDecoder and its subarray.
    var kShort = 64;
    // encodeInto needs room for the worst case, three bytes per UTF-16 unit;
    // past this many units the string is encoded to a copy of its exact size
    // instead, so a 100 MB argument does not reserve 300 MB of heap.
    var kReserveAtMost = 1 << 20;
    var encoder = null;
    var decoder = null;

    function toHeap(value) {
      var units = value.length;
      if (units < kShort) {
        var ptr = allocate(units);
        if (asciiToHeap(value, ptr + 4)) {
          HEAPU32[ptr >> 2] = units;
          return ptr;
        }
        _free(ptr);
      }
      if (encoder === null) encoder = new TextEncoder();
      var length;
      if (units <= kReserveAtMost) {
        var capacity = units * 3;
        ptr = allocate(capacity);
        // Read HEAPU8 after _malloc: growing memory replaces the view.
        length = encoder.encodeInto(value, HEAPU8.subarray(ptr + 4, ptr + 4 + capacity)).written;
      } else {
        var bytes = encoder.encode(value);
        length = bytes.length;
        ptr = allocate(length);
        HEAPU8.set(bytes, ptr + 4);
      }
      HEAPU8[ptr + 4 + length] = 0;
      HEAPU32[ptr >> 2] = length;
      return ptr;
    }

    // Copies an all-ASCII string and its NUL to `at`; false (and a partial
    // copy) at the first unit that is not ASCII. Emscripten's own
    // stringToUTF8 is not used: it joins a lone high surrogate with whatever
    // unit follows it into one wrong character, where TextEncoder writes
    // U+FFFD.
    function asciiToHeap(value, at) {
      for (var i = 0; i < value.length; ++i) {
        var unit = value.charCodeAt(i);
        if (unit > 0x7f) return false;
        HEAPU8[at + i] = unit;
      }
      HEAPU8[at + value.length] = 0;
      return true;
    }

    // The string if its bytes are all ASCII (NUL aside), else null.
    function shortAscii(start, length) {
      var str = '';
      for (var i = 0; i < length; ++i) {
        var byte = HEAPU8[start + i];
        if (byte === 0 || byte > 0x7f) return null;
        str += String.fromCharCode(byte);
      }
      return str;
    }

    // A length prefix, the bytes and a NUL; its address is 4-byte aligned.
    function allocate(length) {
      var ptr = _malloc(4 + length + 1);
      if (!ptr) throwBindingError('Out of memory passing a string of ' + length + ' bytes');
      return ptr;
    }

    registerType(rawType, {
      name: name,
      'fromWireType': function(value) {
        var length = HEAPU32[value >> 2];
        var start = value + 4;
        var str;
        if (!isUtf8) {
          str = '';
          for (var i = 0; i < length; ++i) str += String.fromCharCode(HEAPU8[start + i]);
        } else {
          str = length < kShort ? shortAscii(start, length) : null;
          if (str === null) {
            // ignoreBOM: a leading U+FEFF is text, as Embind kept it.
            if (decoder === null) decoder = new TextDecoder('utf-8', {ignoreBOM: true});
            str = decoder.decode(HEAPU8.subarray(start, start + length));
          }
        }
        _free(value);
        return str;
      },
      'toWireType': function(destructors, value) {
        if (value instanceof ArrayBuffer) value = new Uint8Array(value);
        var isString = typeof value == 'string';
        if (!(isString || value instanceof Uint8Array || value instanceof Uint8ClampedArray ||
              value instanceof Int8Array)) {
          throwBindingError('Cannot pass non-string to std::string');
        }
        var ptr;
        if (isString && isUtf8) {
          ptr = toHeap(value);
        } else {
          var length = value.length;
          ptr = allocate(length);
          for (var i = 0; i < length; ++i) {
            var code = isString ? value.charCodeAt(i) : value[i];
            if (code > 255) {
              _free(ptr);
              throwBindingError('String has UTF-16 code units that do not fit in 8 bits');
            }
            HEAPU8[ptr + 4 + i] = code;
          }
          HEAPU8[ptr + 4 + length] = 0;
          HEAPU32[ptr >> 2] = length;
        }
        if (destructors !== null) destructors.push(_free, ptr);
        return ptr;
      },
      'argPackAdvance': 8,
      'readValueFromPointer': simpleReadValueFromPointer,
      destructorFunction: function(ptr) { _free(ptr); },
    });
  },
});
