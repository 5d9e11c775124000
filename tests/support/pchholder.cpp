// The source of the libraries that hold the tests' precompiled headers (tests/CMakeLists.txt,
// hourglass_test_pch): they compile nothing of their own.
