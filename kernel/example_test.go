package kernel_test

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/cordon-dev/cordon/kernel"
)

// Emit runs every listener in order (Prepend first) and joins their errors; one failing listener
// does not stop the others.
func ExampleEvent_Emit() {
	k := kernel.New()
	defer k.Close(context.Background())

	// Saved is emitted after a file is saved. Mode: emit.
	saved := kernel.NewEvent[string]("example/saved")
	audit := kernel.Define("audit", func(kc *kernel.Context, _ struct{}) error {
		_, err := saved.On(kc, func(_ context.Context, path string) error {
			fmt.Println("audit:", path)
			return errors.New("audit log is full")
		})
		return err
	})
	index := kernel.Define("index", func(kc *kernel.Context, _ struct{}) error {
		_, err := saved.On(kc, func(_ context.Context, path string) error {
			fmt.Println("index:", path)
			return nil
		})
		return err
	})
	if _, err := k.Root().Load(audit, nil); err != nil {
		panic(err)
	}
	if _, err := k.Root().Load(index, nil); err != nil {
		panic(err)
	}

	err := saved.Emit(context.Background(), k.Root(), "notes.txt")
	fmt.Println("error:", err)
	// Output:
	// audit: notes.txt
	// index: notes.txt
	// error: audit log is full
}

// An Async listener runs on another goroutine, receives the events in emit order, and is drained by
// Kernel.Close.
func ExampleEvent_Emit_async() {
	k := kernel.New()
	ticks := kernel.NewEvent[int]("example/tick")
	var mu sync.Mutex
	var seen []int
	_, err := ticks.On(k.Root(), func(_ context.Context, n int) error {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, n)
		return nil
	}, kernel.Async())
	if err != nil {
		panic(err)
	}
	for n := range 5 {
		_ = ticks.Emit(context.Background(), k.Root(), n)
	}
	if err := k.Close(context.Background()); err != nil {
		panic(err)
	}
	mu.Lock()
	defer mu.Unlock()
	fmt.Println(seen)
	// Output:
	// [0 1 2 3 4]
}

// A waterfall's first listener is outermost: it may call next (the rest of the chain, then the
// caller's inner default) and adjust the result, or return without calling it. With no listener the
// inner default runs.
func ExampleWaterfall_Run() {
	k := kernel.New()
	defer k.Close(context.Background())

	// Render turns a path into display text. Mode: waterfall.
	render := kernel.NewWaterfall[string, string]("example/render")
	inner := func() (string, error) { return "plain", nil }

	out, _ := render.Run(context.Background(), k.Root(), "a.md", inner)
	fmt.Println("no listener:", out)

	_, _ = render.On(k.Root(), func(_ context.Context, path string, next func() (string, error)) (string, error) {
		r, err := next()
		return "[" + r + "]", err
	})
	_, _ = render.On(k.Root(), func(_ context.Context, path string, next func() (string, error)) (string, error) {
		r, err := next()
		return r + " " + path, err
	})
	out, _ = render.Run(context.Background(), k.Root(), "a.md", inner)
	fmt.Println("chain:", out)
	// Output:
	// no listener: plain
	// chain: [plain a.md]
}

// Decide registers a listener that never calls next. On a SingleSlot waterfall the first decider in
// the composition owns the decision; removing it falls back to the inner default.
func ExampleWaterfall_Decide() {
	k := kernel.New()
	defer k.Close(context.Background())

	// Guard decides whether a write may proceed. Mode: waterfall, single slot.
	guard := kernel.NewWaterfall[string, bool]("example/guard", kernel.SingleSlot())
	policy := kernel.Define("policy", func(kc *kernel.Context, _ struct{}) error {
		_, err := guard.Decide(kc, func(_ context.Context, path string) (bool, error) { return path != ".env", nil })
		return err
	})
	allowAll := func() (bool, error) { return true, nil }

	f, _ := k.Root().Load(policy, nil)
	ok, _ := guard.Run(context.Background(), k.Root(), ".env", allowAll)
	fmt.Println("with policy:", ok)
	_ = f.Dispose()
	ok, _ = guard.Run(context.Background(), k.Root(), ".env", allowAll)
	fmt.Println("without policy:", ok)
	// Output:
	// with policy: false
	// without policy: true
}

// Bail runs listeners in order until one reports handled (or fails).
func ExampleBail_Run() {
	k := kernel.New()
	defer k.Close(context.Background())

	// Resolve maps a scheme to a handler name. Mode: bail.
	resolve := kernel.NewBail[string, string]("example/resolve")
	_, _ = resolve.On(k.Root(), func(_ context.Context, scheme string) (string, bool, error) {
		return "files", scheme == "file", nil
	})
	_, _ = resolve.On(k.Root(), func(_ context.Context, scheme string) (string, bool, error) {
		return "web", scheme == "https", nil
	})
	for _, scheme := range []string{"file", "https", "ftp"} {
		name, handled, err := resolve.Run(context.Background(), k.Root(), scheme)
		fmt.Printf("%s: %q handled=%v err=%v\n", scheme, name, handled, err)
	}
	// Output:
	// file: "files" handled=true err=<nil>
	// https: "web" handled=true err=<nil>
	// ftp: "" handled=false err=<nil>
}

// Parallel starts every listener on its own goroutine, waits for all of them and joins their errors.
func ExampleParallel_Run() {
	k := kernel.New()
	defer k.Close(context.Background())

	// Flush asks every cache to write back. Mode: parallel.
	flush := kernel.NewParallel[string]("example/flush")
	var mu sync.Mutex
	var flushed []string
	for _, name := range []string{"images", "index", "observations"} {
		_, _ = flush.On(k.Root(), func(_ context.Context, reason string) error {
			mu.Lock()
			defer mu.Unlock()
			flushed = append(flushed, name)
			if name == "index" {
				return errors.New("index: disk full")
			}
			return nil
		})
	}
	err := flush.Run(context.Background(), k.Root(), "shutdown")
	sort.Strings(flushed)
	fmt.Println(flushed)
	fmt.Println("error:", err)
	// Output:
	// [images index observations]
	// error: index: disk full
}

// A module that injects a service stays pending until a plugin provides it, and goes back to pending
// when the provider goes away.
func ExampleService_Provide() {
	k := kernel.New()
	defer k.Close(context.Background())

	// Clock is the time source. Service.
	clock := kernel.NewService[func() string]("example.clock")
	consumer := kernel.Define("consumer", func(kc *kernel.Context, _ struct{}) error {
		fmt.Println("consumer applied at", clock.Must(kc)())
		return nil
	}, clock.Dep())
	provider := kernel.Define("provider", func(kc *kernel.Context, _ struct{}) error {
		_, err := clock.Provide(kc, func() string { return "noon" })
		return err
	})

	c, _ := k.Root().Load(consumer, nil)
	fmt.Println(c.State())
	p, _ := k.Root().Load(provider, nil)
	fmt.Println(c.State())
	_ = p.Dispose()
	fmt.Println(c.State())
	// Output:
	// pending
	// consumer applied at noon
	// active
	// pending
}
