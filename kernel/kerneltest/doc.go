// Package kerneltest holds test helpers for code built on package kernel: a kernel root bound to a
// test (zaptest logger, Close on cleanup), an observed root whose log entries can be asserted,
// fiber state assertions, a leak snapshot of listener and service counts, and goroutine-leak
// helpers around goleak.
//
// The helpers take a testing.TB and fail the test through it; none of them is safe to use outside
// a test.
package kerneltest
