package mcphost_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/cordon-dev/cordon/cmd/harness/app"
	"github.com/cordon-dev/cordon/mcphost/hosttest"
)

// syncBuffer is a bytes.Buffer safe for the server's writes and the benchmark's reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

var benchReady = regexp.MustCompile(`"url": "(http://[^"]+)"`)

// BenchmarkHTTPRead2000 reads a 2,000-line file through `serve --http` in process, over a loopback
// socket, with a minimal client: one POST per call, its SSE answer read whole. "2025-11-25" is a
// call in a session, "2026-07-28" a sessionless request (its own ephemeral session in the SDK).
func BenchmarkHTTPRead2000(b *testing.B) {
	b.Run("2025-11-25", func(b *testing.B) { benchHTTP(b, "2025-11-25") })
	b.Run("2026-07-28", func(b *testing.B) { benchHTTP(b, "2026-07-28") })
}

func benchHTTP(b *testing.B, version string) {
	dir := b.TempDir()
	p := hosttest.BigFile(b, dir)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	errb := &syncBuffer{}
	go func() {
		done <- app.MainContext(ctx, []string{"serve", "--http", "127.0.0.1:0", "--cwd", dir, "--log-level", "info"},
			app.WithIO(bytes.NewReader(nil), io.Discard, errb))
	}()
	defer func() {
		cancel()
		if code := <-done; code != 0 {
			b.Errorf("exit %d: %s", code, errb.String())
		}
	}()
	var url string
	for deadline := time.Now().Add(20 * time.Second); url == ""; time.Sleep(5 * time.Millisecond) {
		if m := benchReady.FindStringSubmatch(errb.String()); m != nil {
			url = m[1]
		} else if time.Now().After(deadline) {
			b.Fatalf("no ready line: %s", errb.String())
		}
	}
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	header := http.Header{"Content-Type": {"application/json"}, "Accept": {"application/json, text/event-stream"}}
	post := func(body string) []byte {
		req, err := http.NewRequest(http.MethodPost, url, bytes.NewBufferString(body))
		if err != nil {
			b.Fatal(err)
		}
		req.Header = header.Clone()
		res, err := hc.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		defer res.Body.Close()
		data, err := io.ReadAll(res.Body)
		if err != nil || res.StatusCode/100 != 2 {
			b.Fatalf("%d %v: %.300s", res.StatusCode, err, data)
		}
		if sid := res.Header.Get("Mcp-Session-Id"); sid != "" {
			header.Set("Mcp-Session-Id", sid)
		}
		return data
	}
	meta := ""
	if version == "2026-07-28" {
		meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":` +
			`{"name":"bench","version":"0"},"io.modelcontextprotocol/clientCapabilities":{}},`
		header.Set("Mcp-Method", "tools/call")
		header.Set("Mcp-Name", "read")
	} else {
		post(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"` + version +
			`","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}`)
		post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	}
	header.Set("Mcp-Protocol-Version", version)
	call := func(id int) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{%s"name":"read","arguments":{"file_path":%s}}}`,
			id, meta, strconv.Quote(p))
	}
	post(call(1))
	b.ReportAllocs()
	cpu0 := processCPU(b)
	b.ResetTimer()
	for i := range b.N {
		resp := post(call(i + 2))
		if i == 0 && (!bytes.Contains(resp, []byte(`"id":2,"result":{`)) || !bytes.Contains(resp, []byte(`"content":[{"type":"text","text":"\u003cpath\u003e`))) {
			b.Fatalf("unexpected response: %.300s", resp)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(processCPU(b)-cpu0)/float64(b.N), "cpu-ns/op")
}
