package kerneltest

import (
	"testing"

	"github.com/cordon-dev/cordon/kernel"
)

// RequireState fails the test now unless f is non-nil and in state want. The failure message
// names the module, the fiber id, the state found and the fiber's stored error.
func RequireState(t testing.TB, f *kernel.Fiber, want kernel.State) {
	t.Helper()
	if f == nil {
		t.Fatalf("kerneltest: fiber is nil, want state %v", want)
		return
	}
	if got := f.State(); got != want {
		t.Fatalf("kerneltest: fiber %d (%s) is %v, want %v (err: %v)", f.ID(), f.Module().ID, got, want, f.Err())
	}
}

// RequireActive is RequireState(t, f, kernel.Active).
func RequireActive(t testing.TB, f *kernel.Fiber) {
	t.Helper()
	RequireState(t, f, kernel.Active)
}

// RequirePending is RequireState(t, f, kernel.Pending).
func RequirePending(t testing.TB, f *kernel.Fiber) {
	t.Helper()
	RequireState(t, f, kernel.Pending)
}

// RequireFailed is RequireState(t, f, kernel.Failed).
func RequireFailed(t testing.TB, f *kernel.Fiber) {
	t.Helper()
	RequireState(t, f, kernel.Failed)
}

// RequireDisposed is RequireState(t, f, kernel.Disposed).
func RequireDisposed(t testing.TB, f *kernel.Fiber) {
	t.Helper()
	RequireState(t, f, kernel.Disposed)
}

// RequireLoad loads m with cfg under kc and fails the test now if Load returns an error. It
// returns the fiber, whatever its state (a module with missing injections is Pending).
func RequireLoad(t testing.TB, kc *kernel.Context, m kernel.Module, cfg any, opts ...kernel.LoadOption) *kernel.Fiber {
	t.Helper()
	f, err := kc.Load(m, cfg, opts...)
	if err != nil {
		t.Fatalf("kerneltest: load %q: %v", m.ID, err)
	}
	return f
}

// RequireDispose disposes f and fails the test now if Dispose returns an error.
func RequireDispose(t testing.TB, f *kernel.Fiber) {
	t.Helper()
	if err := f.Dispose(); err != nil {
		t.Fatalf("kerneltest: dispose fiber %d (%s): %v", f.ID(), f.Module().ID, err)
	}
}
