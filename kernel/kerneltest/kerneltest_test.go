package kerneltest_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zapcore"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
)

func TestMain(m *testing.M) { kerneltest.VerifyTestMain(m) }

// fakeT records failures instead of failing; Fatalf stops the helper with a sentinel panic.
type fakeT struct {
	testing.TB
	failures []string
}

type fatal struct{}

func (f *fakeT) Helper() {}

func (f *fakeT) Errorf(format string, args ...any) {
	f.failures = append(f.failures, fmt.Sprintf(format, args...))
}

func (f *fakeT) Fatalf(format string, args ...any) {
	f.Errorf(format, args...)
	panic(fatal{})
}

// run calls fn with a fakeT and returns the failures it recorded.
func run(t *testing.T, fn func(tb testing.TB)) []string {
	ft := &fakeT{TB: t}
	func() {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(fatal); !ok {
					panic(r)
				}
			}
		}()
		fn(ft)
	}()
	return ft.failures
}

func mod(id string, apply func(kc *kernel.Context) error) kernel.Module {
	return kernel.Module{ID: id, Apply: func(kc *kernel.Context, _ any) error { return apply(kc) }}
}

func TestRequireStateHelpers(t *testing.T) {
	root := kerneltest.NewRoot(t)
	f := kerneltest.RequireLoad(t, root, mod("helper", func(*kernel.Context) error { return nil }), nil)

	assert.Empty(t, run(t, func(tb testing.TB) { kerneltest.RequireActive(tb, f) }))
	failures := run(t, func(tb testing.TB) { kerneltest.RequireDisposed(tb, f) })
	require.Len(t, failures, 1)
	assert.Contains(t, failures[0], "(helper) is active, want disposed")
	assert.NotEmpty(t, run(t, func(tb testing.TB) { kerneltest.RequireState(tb, nil, kernel.Active) }))

	kerneltest.RequireDispose(t, f)
	kerneltest.RequireDisposed(t, f)

	failures = run(t, func(tb testing.TB) {
		kerneltest.RequireLoad(tb, root, mod("broken", func(*kernel.Context) error { return errors.New("nope") }), nil)
	})
	require.Len(t, failures, 1)
	assert.Contains(t, failures[0], `load "broken": nope`)
}

func TestBaselineDetectsLeakedListener(t *testing.T) {
	k := kerneltest.NewKernel(t)
	e := kernel.NewEvent[int]("kerneltest/leak")
	probes := append(kerneltest.KernelCounts(k), kerneltest.Listeners("leak", e, k.Root()))
	unchanged := kerneltest.Baseline(t, probes...)
	dispose, err := e.On(k.Root(), func(context.Context, int) error { return nil })
	require.NoError(t, err)

	failures := run(t, func(tb testing.TB) { kerneltest.Baseline(tb, probes...)() })
	assert.Empty(t, failures, "a baseline taken now matches now")

	leaked := kerneltest.Take(probes...)
	assert.Equal(t, 1, leaked["listeners leak"])
	assert.Equal(t, 1, leaked["kernel listeners"])
	require.NoError(t, dispose())
	unchanged()

	before := kerneltest.Snapshot{"a": 1, "b": 2}
	diff := before.Diff(kerneltest.Snapshot{"a": 1, "b": 3, "c": 0})
	assert.Equal(t, "b: 2 -> 3; c: absent -> 0", diff)
	assert.Equal(t, "a=1, b=2", before.String())
}

func TestServiceProbe(t *testing.T) {
	root := kerneltest.NewRoot(t)
	svc := kernel.NewService[string]("kerneltest.probe")
	p := kerneltest.Service(svc, root)
	assert.Equal(t, "service kerneltest.probe", p.Name)
	assert.Equal(t, 0, p.Count())
	withdraw, err := svc.Provide(root, "x")
	require.NoError(t, err)
	assert.Equal(t, 1, p.Count())
	require.NoError(t, withdraw())
	assert.Equal(t, 0, kerneltest.Func("fixed", func() int { return 0 }).Count())
}

func TestNewObservedRootRecordsWarnings(t *testing.T) {
	root, logs := kerneltest.NewObservedRoot(t, zapcore.WarnLevel)
	root.Logger().Info("not recorded")
	root.Logger().Warn("recorded warning")
	require.Equal(t, 1, logs.Len())
	assert.True(t, strings.Contains(logs.All()[0].Message, "recorded warning"))
}

func TestVerifyNoneAfterClose(t *testing.T) {
	k := kerneltest.NewKernel(t)
	e := kernel.NewEvent[int]("kerneltest/async")
	_, err := e.On(k.Root(), func(context.Context, int) error { return nil }, kernel.Async())
	require.NoError(t, err)
	require.NoError(t, e.Emit(context.Background(), k.Root(), 1))
	require.NoError(t, k.Close(context.Background()))
	kerneltest.VerifyNone(t)
}
