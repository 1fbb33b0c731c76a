package kerneltest

import (
	"context"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest"
	"go.uber.org/zap/zaptest/observer"

	"github.com/cordon-dev/cordon/kernel"
)

// CloseTimeout bounds the Close that NewRoot and NewKernel register as a test cleanup.
const CloseTimeout = 10 * time.Second

// NewKernel returns a kernel whose logger writes to the test log (zaptest, debug level) and
// registers its Close as a test cleanup. Extra options are applied after the logger option, so a
// test may still replace the logger. A Close error at cleanup is reported with t.Errorf, because
// every disposer should succeed unless the test says otherwise; a test that expects Close to fail
// calls Close itself first (Close is idempotent).
func NewKernel(t testing.TB, opts ...kernel.Option) *kernel.Kernel {
	t.Helper()
	all := append([]kernel.Option{kernel.WithLogger(zaptest.NewLogger(t))}, opts...)
	k := kernel.New(all...)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), CloseTimeout)
		defer cancel()
		if err := k.Close(ctx); err != nil {
			t.Errorf("kerneltest: close kernel: %v", err)
		}
	})
	return k
}

// NewRoot is NewKernel(t, opts...).Root(): the root context of a kernel bound to the test.
func NewRoot(t testing.TB, opts ...kernel.Option) *kernel.Context {
	t.Helper()
	return NewKernel(t, opts...).Root()
}

// NewObservedRoot is NewRoot with a logger that writes both to the test log and to an in-memory
// observer, so a test can assert on warnings and errors the kernel or a plugin logs. Entries at
// level and above are recorded.
func NewObservedRoot(t testing.TB, level zapcore.Level, opts ...kernel.Option) (*kernel.Context, *observer.ObservedLogs) {
	t.Helper()
	core, logs := observer.New(level)
	logger := zap.New(zapcore.NewTee(zaptest.NewLogger(t).Core(), core))
	all := append([]kernel.Option{kernel.WithLogger(logger)}, opts...)
	return NewRoot(t, all...), logs
}
