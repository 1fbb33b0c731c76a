package kernel_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap/zaptest/observer"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
)

// TestMain fails the package run if any test leaves a goroutine behind (goleak, as fx does).
func TestMain(m *testing.M) { kerneltest.VerifyTestMain(m) }

var bg = context.Background()

// plugin builds a module without configuration.
func plugin(id string, apply func(kc *kernel.Context) error, deps ...kernel.Dep) kernel.Module {
	return kernel.Module{ID: id, Inject: deps, Apply: func(kc *kernel.Context, _ any) error { return apply(kc) }}
}

// noop is a module that registers nothing.
func noop(id string) kernel.Module {
	return plugin(id, func(*kernel.Context) error { return nil })
}

// trace records labels from any goroutine, in call order.
type trace struct {
	mu  sync.Mutex
	got []string
}

func (r *trace) add(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, fmt.Sprintf(format, args...))
}

// take returns the labels recorded so far and forgets them.
func (r *trace) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.got
	r.got = nil
	return out
}

// hook returns an OnDispose function that records label.
func (r *trace) hook(label string) func(context.Context) error {
	return func(context.Context) error { r.add("%s", label); return nil }
}

// listener returns an emit listener that records label.
func (r *trace) listener(label string) func(context.Context, string) error {
	return func(context.Context, string) error { r.add("%s", label); return nil }
}

// mustOn registers fn on e through kc or fails the test.
func mustOn[P any](t testing.TB, e *kernel.Event[P], kc *kernel.Context, fn func(context.Context, P) error, opts ...kernel.ListenOption) kernel.Disposer {
	t.Helper()
	d, err := e.On(kc, fn, opts...)
	if err != nil {
		t.Fatalf("On: %v", err)
	}
	return d
}

// within runs fn in a goroutine and fails the test if it does not return within d (a deadlock
// detector for reentrancy tests).
func within(t testing.TB, d time.Duration, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("did not return within %v (deadlock?)", d)
	}
}

// entryText flattens a log entry (logger name, message, fields) for substring assertions.
func entryText(e observer.LoggedEntry) string {
	return fmt.Sprintf("%s %s %v", e.LoggerName, e.Message, e.ContextMap())
}

// logsContaining returns the observed entries whose text contains every one of subs.
func logsContaining(logs *observer.ObservedLogs, subs ...string) []observer.LoggedEntry {
	return logs.Filter(func(e observer.LoggedEntry) bool {
		text := entryText(e)
		for _, s := range subs {
			if !strings.Contains(text, s) {
				return false
			}
		}
		return true
	}).All()
}
