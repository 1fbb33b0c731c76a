package kernel_test

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
)

// stressMsg carries the logical time at which its dispatch started.
type stressMsg struct{ start int64 }

// stressLoad is one load of one plugin instance; disposedAt is the logical time taken after the
// Dispose (or the provider withdrawal) that ended it returned, 0 while it may still run.
type stressLoad struct {
	name       string
	disposedAt atomic.Int64
}

// stressWorld is the shared state of TestStressDispatchWhileLoadingAndDisposing.
type stressWorld struct {
	clock      atomic.Int64 // logical time: every dispatch start and every dispose end takes a tick
	calls      atomic.Int64
	dispatches atomic.Int64
	loads      atomic.Int64
	violations atomic.Int64
	first      atomic.Pointer[string]

	emit  *kernel.Event[stressMsg]
	wf    *kernel.Waterfall[stressMsg, int]
	bail  *kernel.Bail[stressMsg, int]
	svc   *kernel.Service[int]
	depMu sync.Mutex
	dep   *stressLoad // the dependent's current load
}

// seen is called by every listener: it fails when the dispatch started after the load had ended.
func (w *stressWorld) seen(l *stressLoad, m stressMsg) {
	w.calls.Add(1)
	if d := l.disposedAt.Load(); d != 0 && m.start > d {
		if w.violations.Add(1) == 1 {
			s := fmt.Sprintf("%s invoked by a dispatch that started at %d, after its Dispose returned at %d", l.name, m.start, d)
			w.first.Store(&s)
		}
	}
}

// register adds an emit, a waterfall and a bail listener for load l.
func (w *stressWorld) register(kc *kernel.Context, l *stressLoad) error {
	if _, err := w.emit.On(kc, func(_ context.Context, m stressMsg) error { w.seen(l, m); return nil }); err != nil {
		return err
	}
	if _, err := w.wf.On(kc, func(_ context.Context, m stressMsg, next func() (int, error)) (int, error) {
		w.seen(l, m)
		return next()
	}); err != nil {
		return err
	}
	_, err := w.bail.On(kc, func(_ context.Context, m stressMsg) (int, bool, error) { w.seen(l, m); return 0, false, nil })
	return err
}

func (w *stressWorld) dispatch(ctx context.Context, root *kernel.Context, i int) {
	m := stressMsg{start: w.clock.Add(1)}
	w.dispatches.Add(1)
	switch i % 3 {
	case 0:
		_ = w.emit.Emit(ctx, root, m)
	case 1:
		_, _ = w.wf.Run(ctx, root, m, func() (int, error) { return 0, nil })
	default:
		_, _, _ = w.bail.Run(ctx, root, m)
	}
}

// churnPlugins loads plugins and disposes them oldest first, keeping up to four alive.
func (w *stressWorld) churnPlugins(t *testing.T, root *kernel.Context, stop <-chan struct{}) {
	type live struct {
		f *kernel.Fiber
		l *stressLoad
	}
	var alive []live
	for n := 0; ; n++ {
		select {
		case <-stop:
			for _, a := range alive {
				_ = a.f.Dispose()
				a.l.disposedAt.Store(w.clock.Add(1))
			}
			return
		default:
		}
		l := &stressLoad{name: fmt.Sprintf("plugin #%d", n)}
		f, err := root.Load(plugin("stress-plugin", func(kc *kernel.Context) error { return w.register(kc, l) }), nil, kernel.Rank(n%7))
		if err != nil {
			t.Errorf("load: %v", err)
			return
		}
		w.loads.Add(1)
		alive = append(alive, live{f, l})
		if len(alive) > 4 || n%3 == 0 {
			a := alive[0]
			alive = alive[1:]
			if err := a.f.Dispose(); err != nil {
				t.Errorf("dispose: %v", err)
			}
			a.l.disposedAt.Store(w.clock.Add(1))
		}
	}
}

// churnService loads and disposes the provider of a service that a long-lived dependent injects:
// each withdrawal ends the dependent's load, each provide starts a new one.
func (w *stressWorld) churnService(t *testing.T, root *kernel.Context, stop <-chan struct{}) {
	dependent := plugin("stress-dependent", func(kc *kernel.Context) error {
		l := &stressLoad{name: fmt.Sprintf("dependent load (service %d)", w.svc.Must(kc))}
		w.depMu.Lock()
		w.dep = l
		w.depMu.Unlock()
		return w.register(kc, l)
	}, w.svc.Dep())
	dep, err := root.Load(dependent, nil)
	if err != nil {
		t.Errorf("load dependent: %v", err)
		return
	}
	defer func() { _ = dep.Dispose() }()
	for n := 0; ; n++ {
		select {
		case <-stop:
			return
		default:
		}
		p, err := root.Load(provides("stress-provider", w.svc, n), nil)
		if err != nil {
			t.Errorf("load provider: %v", err)
			return
		}
		w.loads.Add(1)
		w.depMu.Lock()
		cur := w.dep
		w.depMu.Unlock()
		if err := p.Dispose(); err != nil {
			t.Errorf("dispose provider: %v", err)
		}
		if cur != nil {
			cur.disposedAt.Store(w.clock.Add(1))
		}
	}
}

// Issue 2 "Show": 8 goroutines dispatch (emit, waterfall, bail) while plugins load and dispose in a
// loop, and a provider comes and goes under a dependent, for two seconds under -race. No race, no
// deadlock, and no listener is invoked by a dispatch that started after its plugin's Dispose (or
// its provider's withdrawal) returned (docs/kernel.md "Events and dispatch modes": no listener runs
// once its instance has begun to unload).
func TestStressDispatchWhileLoadingAndDisposing(t *testing.T) {
	duration := 2 * time.Second
	if testing.Short() {
		duration = 300 * time.Millisecond
	}
	k := kerneltest.NewKernel(t, kernel.WithLogger(zap.NewNop()))
	root := k.Root()
	w := &stressWorld{
		emit: kernel.NewEvent[stressMsg]("stress/emit"),
		wf:   kernel.NewWaterfall[stressMsg, int]("stress/waterfall"),
		bail: kernel.NewBail[stressMsg, int]("stress/bail"),
		svc:  kernel.NewService[int]("stress.service"),
	}

	stop := make(chan struct{})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := g; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				w.dispatch(bg, root, i)
				if i%16 == 0 {
					runtime.Gosched() // leave the lifecycle goroutines room to churn on 2 cores
				}
			}
		})
	}
	wg.Go(func() { w.churnPlugins(t, root, stop) })
	wg.Go(func() { w.churnService(t, root, stop) })

	time.Sleep(duration)
	close(stop)
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		buf := make([]byte, 1<<20)
		n := runtime.Stack(buf, true)
		t.Fatalf("deadlock: goroutines did not stop within 30s of the end of the run\n%s", buf[:n])
	}

	if v := w.violations.Load(); v != 0 {
		t.Errorf("%d stale invocations; first: %s", v, *w.first.Load())
	}
	t.Logf("%d dispatches, %d listener calls, %d loads in %v", w.dispatches.Load(), w.calls.Load(), w.loads.Load(), duration)
	if w.dispatches.Load() == 0 || w.calls.Load() == 0 || w.loads.Load() < 10 {
		t.Errorf("the run did too little to mean anything")
	}
	if n := w.emit.Listeners(root) + w.wf.Listeners(root); n != 0 {
		t.Errorf("%d listeners left after every plugin was disposed", n)
	}
	if n := k.ListenerCount(); n != 0 {
		t.Errorf("kernel reports %d listeners after every plugin was disposed", n)
	}
}
