package loader_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/kernel/loader"
)

// TestConcurrentApplyAndDump: Apply calls are serialised and Status/Dump may run alongside.
func TestConcurrentApplyAndDump(t *testing.T) {
	l, _ := newLoader(t)
	a := parse(t, "plugins: [{id: a, name: greet}, {name: provider}, {name: consumer}]")
	b := parse(t, "plugins: [{id: a, name: greet, config: {greeting: B}}, {name: decider}]")
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 20 {
				if (w+i)%2 == 0 {
					require.NoError(t, l.Apply(t.Context(), a))
				} else {
					require.NoError(t, l.Apply(t.Context(), b))
				}
				_, err := l.Dump()
				require.NoError(t, err)
			}
		})
	}
	wg.Wait()
	require.NoError(t, l.Audit())
}

func FuzzDecodeConfig(f *testing.F) {
	for _, seed := range []string{
		"greeting: hi\n",
		"{greeting: hi, foo: 1}",
		"nested: {depth: x}\n",
		"a: &x {greeting: hi}\n<<: *x\n",
		"[1, 2]",
		"~",
	} {
		f.Add(seed)
	}
	j := &kerneltest.Journal{}
	greet, _ := newCatalog(f, j).Lookup("greet")
	f.Fuzz(func(t *testing.T, cfg string) {
		src := "plugins:\n  - name: greet\n    config:\n" + indent(cfg)
		entries, err := loader.Parse([]byte(src))
		if err != nil || len(entries) != 1 {
			return
		}
		_, err = loader.DecodeConfig(greet, &entries[0].Config)
		var uk *loader.UnknownKeyError
		if err != nil && strings.Contains(err.Error(), "unknown key") && !errorsAs(err, &uk) {
			t.Fatalf("unknown key error is not an *UnknownKeyError: %v", err)
		}
	})
}

func indent(s string) string {
	var b strings.Builder
	for line := range strings.SplitSeq(s, "\n") {
		fmt.Fprintf(&b, "      %s\n", line)
	}
	return b.String()
}
