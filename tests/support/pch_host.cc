// The translation unit that carries the test binaries' shared precompiled
// header (tests/CMakeLists.txt, ensemble_reuse_test_pch); it defines nothing.
