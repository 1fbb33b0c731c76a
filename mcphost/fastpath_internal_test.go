package mcphost

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/mcphost/internal/mcpstdio"
	"github.com/cordon-dev/cordon/plugins/tools/engine"
)

// The differential test of the fast path (doc.go "The fast path"): the same tools/calls, answered
// through the fast path (the stdio transport, every part on) and through the plain SDK (the SDK's
// own stdio transport, every part off), give byte-equal response lines: text with characters JSON
// encoders escape differently, a big read, an image, coded and uncoded errors, a call the fast path
// leaves to the SDK's dispatch (its result encoded once by the middleware), an error the SDK answers itself, with and
// without structured content.
func TestFastPathMatchesThePlainSDK(t *testing.T) {
	ws := t.TempDir()
	var big strings.Builder
	for i := 1; i <= 2000; i++ {
		fmt.Fprintf(&big, "line %05d <tag> & \"quotes\" \u2028 caf\u00e9 \x01\n", i)
	}
	require.NoError(t, os.WriteFile(filepath.Join(ws, "big.txt"), []byte(big.String()), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(ws, "small.txt"), []byte("a<b>&c\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(ws, "other.txt"), []byte("a\n"), 0o644))
	var img bytes.Buffer
	require.NoError(t, png.Encode(&img, image.NewGray(image.Rect(0, 0, 3, 2))))
	require.NoError(t, os.WriteFile(filepath.Join(ws, "x.png"), img.Bytes(), 0o644))
	h := composeProfile(t, "", ws, nil)
	defer h.close()
	eng, err := newToolsEngine(h.k)
	require.NoError(t, err)
	calls := []string{
		`{"name":"read","arguments":{"file_path":"small.txt"}}`,
		`{"name":"read","arguments":{"file_path":"big.txt"}}`,
		`{"name":"read","arguments":{"file_path":"big.txt","offset":1500,"limit":100}}`,
		`{"name":"read_image","arguments":{"file_path":"x.png"}}`,
		`{"name":"read","arguments":{"file_path":"missing.txt"}}`,
		`{"name":"read","arguments":{"file_path":7}}`,
		`{"name":"edit","arguments":{"file_path":"other.txt","old_string":"a","new_string":"b"}}`,
		`{"name":"glob","arguments":{"pattern":"*.txt"}}`,
		`{"name":"grep","arguments":{"pattern":"line 0199[0-9]"}}`,
		`{"_meta":{"io.modelcontextprotocol/related":0},"name":"read","arguments":{"file_path":"big.txt"}}`,
		`{"name":"nope","arguments":{}}`,
		`{"name":"read"}`,
	}
	for _, structured := range []bool{false, true} {
		t.Run(fmt.Sprintf("structured=%v", structured), func(t *testing.T) {
			plain, _ := exchange(t, eng, ws, structured, false, calls)
			fast, direct := exchange(t, eng, ws, structured, true, calls)
			require.Len(t, fast, len(plain))
			for i := range calls {
				assert.Equal(t, string(plain[i]), string(fast[i]), "call %d: %s", i, calls[i])
			}
			assert.Equal(t, int64(len(calls)-2), direct, "every call but the SDK's (a _meta key of the protocol, an unknown tool) runs directly")
		})
	}
}

// exchange serves one connection, the fast path on or off, sends the calls one at a time after
// the handshake and returns each response line and how many calls the host ran directly.
func exchange(t *testing.T, eng engine.Engine, ws string, structured, fast bool, calls []string) ([][]byte, int64) {
	t.Helper()
	defer setFastPath(true)
	setFastPath(fast)
	c2sR, c2sW := io.Pipe()
	s2cR, s2cW := io.Pipe()
	var tr mcp.Transport = &mcp.IOTransport{Reader: c2sR, Writer: s2cW}
	if fast {
		tr = &mcpstdio.Transport{In: c2sR, Out: s2cW}
	}
	mh := newHost(eng, Config{Version: "test", Cwd: &ws, Structured: structured})
	defer mh.close()
	done := make(chan error, 1)
	go func() { done <- mh.serveConn(context.Background(), tr) }()
	r := bufio.NewReaderSize(s2cR, 1<<20)
	send := func(s string) {
		_, err := io.WriteString(c2sW, s+"\n")
		require.NoError(t, err)
	}
	recv := func() []byte {
		line, err := r.ReadBytes('\n')
		require.NoError(t, err)
		return line
	}
	send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"diff","version":"0"}}}`)
	recv()
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	var out [][]byte
	for i, params := range calls {
		send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`, i+1, params))
		out = append(out, recv())
	}
	require.NoError(t, c2sW.Close())
	<-done
	return out, mh.direct.Load()
}
