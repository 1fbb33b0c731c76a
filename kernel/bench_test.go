package kernel_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/asaskevich/EventBus"
	"go.uber.org/zap"

	"github.com/cordon-dev/cordon/kernel"
)

// Targets (issue 2): BenchmarkEmit <= 30 ns/op and BenchmarkWaterfall <= 40 ns/op, both 0 allocs/op.
// For scale: Cordis 4 in Node costs about 9,600 ns per emit and 9,000 ns per waterfall; a bare
// EventBus publish is BenchmarkEventBusPublish.
//
//	go test -run '^$' -bench . -benchmem ./kernel/

type benchPayload struct {
	Path string
	N    int
}

var benchSink int

// benchKernel returns a quiet kernel and a plugin context to register listeners through (a loaded
// plugin, so the stale-listener check runs as it does in production).
func benchKernel(b *testing.B) (root, kc *kernel.Context) {
	b.Helper()
	k := kernel.New(kernel.WithLogger(zap.NewNop()))
	b.Cleanup(func() { _ = k.Close(context.Background()) })
	var pkc *kernel.Context
	if _, err := k.Root().Load(plugin("bench", func(c *kernel.Context) error { pkc = c; return nil }), nil); err != nil {
		b.Fatal(err)
	}
	return k.Root(), pkc
}

func benchEmit(b *testing.B, listeners int) {
	root, kc := benchKernel(b)
	e := kernel.NewEvent[benchPayload]("bench/emit")
	for range listeners {
		if _, err := e.On(kc, func(_ context.Context, p benchPayload) error { benchSink += p.N; return nil }); err != nil {
			b.Fatal(err)
		}
	}
	ctx := context.Background()
	p := benchPayload{Path: "a.txt", N: 1}
	b.ReportAllocs()
	for b.Loop() {
		if err := e.Emit(ctx, root, p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEmit is one synchronous emit to one listener.
func BenchmarkEmit(b *testing.B) { benchEmit(b, 1) }

// BenchmarkEmit8 is one synchronous emit to eight listeners.
func BenchmarkEmit8(b *testing.B) { benchEmit(b, 8) }

// BenchmarkWaterfall is one waterfall run decided by a single decider that does not call next.
func BenchmarkWaterfall(b *testing.B) {
	root, kc := benchKernel(b)
	w := kernel.NewWaterfall[benchPayload, int]("bench/waterfall", kernel.SingleSlot())
	if _, err := w.Decide(kc, func(_ context.Context, p benchPayload) (int, error) { return p.N, nil }); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	p := benchPayload{Path: "a.txt", N: 1}
	inner := func() (int, error) { return 0, nil }
	b.ReportAllocs()
	for b.Loop() {
		r, err := w.Run(ctx, root, p, inner)
		if err != nil {
			b.Fatal(err)
		}
		benchSink += r
	}
}

// BenchmarkWaterfallChain is one waterfall run through three listeners that call next, then the
// inner default.
func BenchmarkWaterfallChain(b *testing.B) {
	root, kc := benchKernel(b)
	w := kernel.NewWaterfall[benchPayload, int]("bench/waterfall-chain")
	for range 3 {
		if _, err := w.On(kc, func(_ context.Context, p benchPayload, next func() (int, error)) (int, error) {
			r, err := next()
			return r + p.N, err
		}); err != nil {
			b.Fatal(err)
		}
	}
	ctx := context.Background()
	p := benchPayload{Path: "a.txt", N: 1}
	inner := func() (int, error) { return 1, nil }
	b.ReportAllocs()
	for b.Loop() {
		r, err := w.Run(ctx, root, p, inner)
		if err != nil {
			b.Fatal(err)
		}
		benchSink += r
	}
}

// BenchmarkBail is one bail run through two listeners, the second of which handles it.
func BenchmarkBail(b *testing.B) {
	root, kc := benchKernel(b)
	bl := kernel.NewBail[benchPayload, int]("bench/bail")
	for i := range 2 {
		if _, err := bl.On(kc, func(_ context.Context, p benchPayload) (int, bool, error) { return p.N, i == 1, nil }); err != nil {
			b.Fatal(err)
		}
	}
	ctx := context.Background()
	p := benchPayload{Path: "a.txt", N: 1}
	b.ReportAllocs()
	for b.Loop() {
		r, _, err := bl.Run(ctx, root, p)
		if err != nil {
			b.Fatal(err)
		}
		benchSink += r
	}
}

// BenchmarkEmitAsync is one emit to one Async listener (queued through EventBus, delivered on
// another goroutine, in order), including the drain at the end of the run.
func BenchmarkEmitAsync(b *testing.B) {
	k := kernel.New(kernel.WithLogger(zap.NewNop()))
	root := k.Root()
	e := kernel.NewEvent[benchPayload]("bench/async")
	var got int
	if _, err := e.On(root, func(_ context.Context, p benchPayload) error { got += p.N; return nil }, kernel.Async()); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	p := benchPayload{Path: "a.txt", N: 1}
	b.ReportAllocs()
	for b.Loop() {
		if err := e.Emit(ctx, root, p); err != nil {
			b.Fatal(err)
		}
	}
	if err := k.Close(ctx); err != nil {
		b.Fatal(err)
	}
	benchSink += got
}

// BenchmarkEventBusPublish is a bare synchronous EventBus publish to one subscriber, for scale
// (reflection on every call, which is why only asynchronous delivery uses EventBus).
func BenchmarkEventBusPublish(b *testing.B) {
	bus := EventBus.New()
	if err := bus.Subscribe("bench", func(p benchPayload) { benchSink += p.N }); err != nil {
		b.Fatal(err)
	}
	p := benchPayload{Path: "a.txt", N: 1}
	b.ReportAllocs()
	for b.Loop() {
		bus.Publish("bench", p)
	}
}

// BenchmarkLoadDispose is one load and dispose of a plugin that registers a listener and an
// OnDispose hook: the lifecycle lock taken from outside, once per operation.
func BenchmarkLoadDispose(b *testing.B) {
	root, _ := benchKernel(b)
	e := kernel.NewEvent[benchPayload]("bench/lifecycle")
	m := plugin("bench-lifecycle", func(kc *kernel.Context) error {
		if _, err := e.On(kc, func(context.Context, benchPayload) error { return nil }); err != nil {
			return err
		}
		return kc.OnDispose(func(context.Context) error { return nil })
	})
	b.ReportAllocs()
	for b.Loop() {
		f, err := root.Load(m, nil)
		if err != nil {
			b.Fatal(err)
		}
		if err := f.Dispose(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadNested is one load of a plugin whose Apply provides a service and loads a child
// that injects it, then disposes the tree: the lifecycle lock re-entered from inside Apply.
func BenchmarkLoadNested(b *testing.B) {
	root, _ := benchKernel(b)
	svc := kernel.NewService[int]("bench.nested")
	child := plugin("bench-child", func(*kernel.Context) error { return nil }, svc.Dep())
	parent := plugin("bench-parent", func(kc *kernel.Context) error {
		if _, err := svc.Provide(kc, 1); err != nil {
			return err
		}
		_, err := kc.Load(child, nil)
		return err
	})
	b.ReportAllocs()
	for b.Loop() {
		f, err := root.Load(parent, nil)
		if err != nil {
			b.Fatal(err)
		}
		if err := f.Dispose(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEmitSlowAsync is one emit to an Async listener that takes 300 ms per event (released
// when the run ends, so the drain is quick); it reports the emitter's p99 latency, which must not
// include the listener's time (docs/kernel.md "Asynchronous listeners").
//
//	go test -run '^$' -bench EmitSlowAsync -benchtime 20x ./kernel/
func BenchmarkEmitSlowAsync(b *testing.B) {
	k := kernel.New(kernel.WithLogger(zap.NewNop()))
	root := k.Root()
	e := kernel.NewEvent[benchPayload]("bench/slow-async")
	done := make(chan struct{})
	if _, err := e.On(root, func(context.Context, benchPayload) error {
		select {
		case <-time.After(300 * time.Millisecond):
		case <-done:
		}
		return nil
	}, kernel.Async()); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	p := benchPayload{Path: "a.txt", N: 1}
	var took []time.Duration
	for b.Loop() {
		start := time.Now()
		if err := e.Emit(ctx, root, p); err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(start))
	}
	close(done)
	if err := k.Close(ctx); err != nil {
		b.Fatal(err)
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[(len(took)*99)/100].Nanoseconds()), "p99-ns/emit")
	b.ReportMetric(float64(took[len(took)-1].Nanoseconds()), "max-ns/emit")
}
