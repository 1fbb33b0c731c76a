package app_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/cordon-dev/cordon/cmd/harness/app"
)

// BenchmarkServeRead2000 reads a 2,000-line file through `serve` in process: the real stdio
// transport over pipes, driven by a minimal JSON-RPC client (one request in flight, responses only
// scanned), so nearly all the measured CPU is the server's: the call and the MCP/JSON-RPC encoding.
func BenchmarkServeRead2000(b *testing.B) {
	dir := b.TempDir()
	p := bigFile(b, dir)
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
	call := fmt.Sprintf(`{"jsonrpc":"2.0","id":%%d,"method":"tools/call","params":{"name":"read","arguments":{"file_path":%q}}}`, p)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		send(fmt.Sprintf(call, i+1))
		resp := recv()
		if i == 0 && !bytes.Contains(resp, []byte(`"structuredContent":{"path":`)) ||
			bytes.Contains(resp[max(len(resp)-64, 0):], []byte(`"isError":true`)) { // isError comes last
			b.Fatalf("unexpected response: %.300s", resp)
		}
	}
	b.StopTimer()
	_ = inW.Close()
	if code := <-done; code != 0 {
		b.Fatalf("exit %d: %s", code, errb.String())
	}
}
