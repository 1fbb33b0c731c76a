package mcphost_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cordon-dev/cordon/cmd/harness/app"
	"github.com/cordon-dev/cordon/mcphost"
	"github.com/cordon-dev/cordon/mcphost/hosttest"
)

// processCPU is the CPU time this process has used (user + system).
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkServeRead2000 is the fast path's benchmark (mcphost/internal/mcpstdio "The fast path"): a
// 2,000-line read through `serve` in process, the real stdio transport over pipes, driven by a
// minimal JSON-RPC client (one request in flight, responses only scanned), so nearly all the
// measured CPU is the server's. "fast" has every part on; each other row turns parts off:
// "no-direct" leaves the call to the SDK's dispatch (its result still encoded once, by the
// middleware), and "plain-sdk" is the SDK alone (its own encoding).
func BenchmarkServeRead2000(b *testing.B) {
	read := func(int) string { return `{"name":"read","arguments":{"file_path":"$P"}}` }
	for _, v := range []struct {
		name         string
		direct, wire bool
	}{
		{"fast", true, true},
		{"no-direct", false, true},
		{"plain-sdk", false, false},
	} {
		b.Run(v.name, func(b *testing.B) {
			defer mcphost.SetFastPath(true, true)
			mcphost.SetFastPath(v.direct, v.wire)
			benchServe(b, read)
		})
	}
}

// BenchmarkServeEdit2000 edits one line of a 2,000-line file per call through `serve` in process
// (after one read, so the observation policy allows the edits).
func BenchmarkServeEdit2000(b *testing.B) {
	benchServe(b, func(i int) string {
		return fmt.Sprintf(`{"name":"edit","arguments":{"file_path":"$P","old_string":%q,"new_string":%q}}`, hosttest.Spell(i), hosttest.Spell(i+1))
	})
}

// benchServe drives `serve` over pipes with one tools/call per iteration; params(i) is the call's
// params object with $P standing for the 2,000-line file's path. A read is sent first, untimed.
func benchServe(b *testing.B, params func(i int) string) {
	dir := b.TempDir()
	p := hosttest.BigFile(b, dir)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan int, 1)
	var errb bytes.Buffer
	go func() {
		done <- app.MainContext(ctx, []string{"serve", "--cwd", dir, "--log-level", "error"},
			app.WithIO(inR, outW, &errb))
		_ = outW.Close()
	}()
	out := bufio.NewReaderSize(outR, 1<<20)
	send := func(line string) {
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			b.Fatal(err)
		}
	}
	recv := func() []byte {
		line, err := out.ReadSlice('\n')
		for err == bufio.ErrBufferFull {
			var more []byte
			more, err = out.ReadSlice('\n')
			line = append(append([]byte(nil), line...), more...)
		}
		if err != nil {
			b.Fatalf("read: %v (stderr: %s)", err, errb.String())
		}
		return line
	}
	send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}`)
	recv()
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	quoted := strconv.Quote(p)
	call := func(id int, params string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`, id,
			strings.ReplaceAll(params, `"$P"`, quoted))
	}
	send(call(1, `{"name":"read","arguments":{"file_path":"$P"}}`))
	recv()
	b.ReportAllocs()
	cpu0 := processCPU(b)
	b.ResetTimer()
	for i := range b.N {
		send(call(i+2, params(i)))
		resp := recv()
		if i == 0 && !bytes.Contains(resp, []byte(`"content":[{"type":"text","text":"`)) ||
			bytes.Contains(resp[max(len(resp)-64, 0):], []byte(`"isError":true`)) { // isError comes last
			b.Fatalf("unexpected response: %.300s", resp)
		}
	}
	b.StopTimer()
	// CPU time per call (user + system, both sides of the pipe) moves less than wall time when
	// other work shares the machine.
	b.ReportMetric(float64(processCPU(b)-cpu0)/float64(b.N), "cpu-ns/op")
	_ = inW.Close()
	if code := <-done; code != 0 {
		b.Fatalf("exit %d: %s", code, errb.String())
	}
}
