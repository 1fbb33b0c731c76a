// Package sandboxtest holds test helpers for code that exercises sandbox confinement.
//
// OutsideDir gives a test a directory that no workspace-write policy can write: not under /tmp,
// not under the temp directory, so a write landing there is an escape.
//
//	out := sandboxtest.OutsideDir(t)
//
// The helpers take a testing.TB and fail or skip the test through it; none of them is safe to use
// outside a test.
package sandboxtest
