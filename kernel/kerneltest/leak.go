package kerneltest

import (
	"testing"

	"go.uber.org/goleak"
)

// LeakOptions are the goleak options every kernel test shares. No goroutine is ignored: the
// kernel and its async delivery must leave nothing behind once Close returns.
func LeakOptions(extra ...goleak.Option) []goleak.Option {
	return append([]goleak.Option(nil), extra...)
}

// VerifyTestMain runs the package's tests and then fails the run if any goroutine is left.
// Use it as the body of TestMain.
func VerifyTestMain(m *testing.M, extra ...goleak.Option) {
	goleak.VerifyTestMain(m, LeakOptions(extra...)...)
}

// VerifyNone fails t if a goroutine other than the test's own is running. Call it after Close;
// it is only meaningful when no other test runs in parallel.
func VerifyNone(t testing.TB, extra ...goleak.Option) {
	t.Helper()
	goleak.VerifyNone(t, LeakOptions(extra...)...)
}

// IgnoreCurrent returns an option that ignores the goroutines running now, for a VerifyNone at
// the end of a test that shares the process with long-lived helpers.
func IgnoreCurrent() goleak.Option { return goleak.IgnoreCurrent() }
