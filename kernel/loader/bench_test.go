package loader_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/kernel/loader"
)

func composition(n int, greeting string) string {
	var b strings.Builder
	b.WriteString("plugins:\n")
	for i := range n {
		fmt.Fprintf(&b, "  - id: e%d\n    name: greet\n    config: {greeting: %s, nested: {depth: %d}}\n", i, greeting, i)
	}
	return b.String()
}

// quietLoader is newLoader with a no-op logger, so that log output does not dominate timings.
func quietLoader(b *testing.B) *loader.Loader {
	k := kernel.New(kernel.WithCatalog(newCatalog(b, &kerneltest.Journal{})))
	b.Cleanup(func() { _ = k.Close(context.Background()) })
	return loader.New(k)
}

func BenchmarkParse50(b *testing.B) {
	src := []byte(composition(50, "hi"))
	for b.Loop() {
		if _, err := loader.Parse(src); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkApplyUnchanged50 measures a reload that changes nothing: 50 strict decodes and diffs.
func BenchmarkApplyUnchanged50(b *testing.B) {
	l := quietLoader(b)
	entries := parse(b, composition(50, "hi"))
	if err := l.Apply(b.Context(), entries); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := l.Apply(b.Context(), entries); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkApplyRestart50 measures a reload that restarts all 50 entries with a new config.
func BenchmarkApplyRestart50(b *testing.B) {
	l := quietLoader(b)
	x, y := parse(b, composition(50, "x")), parse(b, composition(50, "y"))
	for i := 0; b.Loop(); i++ {
		next := x
		if i%2 == 1 {
			next = y
		}
		if err := l.Apply(b.Context(), next); err != nil {
			b.Fatal(err)
		}
	}
}
