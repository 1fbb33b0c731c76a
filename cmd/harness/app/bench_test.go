package app_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/cordon-dev/cordon/cmd/harness/app"
	"github.com/cordon-dev/cordon/internal/proc"
	"github.com/cordon-dev/cordon/mcphost/hosttest"
)

// benchRun drives `run` in process with n copies of line (after one read so edits are allowed).
func benchRun(b *testing.B, line func(i int) string) {
	dir := b.TempDir()
	p := hosttest.BigFile(b, dir)
	var in strings.Builder
	fmt.Fprintf(&in, `{"id":0,"tool":"read","args":{"file_path":%q}}`+"\n", p)
	for i := range b.N {
		in.WriteString(strings.ReplaceAll(line(i), "$P", p) + "\n")
	}
	var errb bytes.Buffer
	out := &errorScan{}
	b.ResetTimer()
	cpu := proc.CPUTime()
	code := app.MainContext(context.Background(), []string{"run", "--cwd", dir, "--log-level", "error"},
		app.WithIO(strings.NewReader(in.String()), out, &errb))
	b.StopTimer()
	b.ReportMetric(float64(proc.CPUTime()-cpu)/float64(b.N), "cpu-ns/op")
	if code != 0 {
		b.Fatalf("exit %d: %s", code, errb.String())
	}
	if out.failed > 0 {
		b.Fatalf("%d failed calls", out.failed)
	}
}

// errorScan counts failed result lines without keeping the output.
type errorScan struct{ failed int }

func (e *errorScan) Write(p []byte) (int, error) {
	e.failed += bytes.Count(p, []byte(`"isError":true`))
	return len(p), nil
}

// BenchmarkRunRead2000 reads a 2,000-line file through the whole host (run protocol, JSON encoding
// included). Start-up is included once; use -benchtime=500x for the e2e comparison's call count.
func BenchmarkRunRead2000(b *testing.B) {
	benchRun(b, func(int) string { return `{"id":1,"tool":"read","args":{"file_path":"$P"}}` })
}

// BenchmarkRunEdit2000 edits one line of a 2,000-line file per call.
func BenchmarkRunEdit2000(b *testing.B) {
	benchRun(b, func(i int) string {
		return fmt.Sprintf(`{"id":1,"tool":"edit","args":{"file_path":"$P","old_string":%q,"new_string":%q}}`, hosttest.Spell(i), hosttest.Spell(i+1))
	})
}
