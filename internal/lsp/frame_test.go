package lsp_test

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/lsp"
)

func TestFrameRoundTrip(t *testing.T) {
	var stream []byte
	bodies := []string{`{"a":1}`, ``, `{"jsonrpc":"2.0","method":"x"}`}
	for _, b := range bodies {
		stream = lsp.AppendFrame(stream, []byte(b))
	}
	r := lsp.NewFrameReader(bytes.NewReader(stream), 0)
	for _, want := range bodies {
		got, err := r.Read()
		require.NoError(t, err)
		assert.Equal(t, want, string(got))
	}
	_, err := r.Read()
	assert.Equal(t, io.EOF, err)
}

// Header names are case-insensitive, other headers are skipped, a bare "\n" ends a line too.
func TestFrameHeaders(t *testing.T) {
	r := lsp.NewFrameReader(strings.NewReader("content-length: 2\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}"), 0)
	got, err := r.Read()
	require.NoError(t, err)
	assert.Equal(t, "{}", string(got))
}

// A frame over the bound is dropped without being kept, and the next one is read: the behaviour
// the Go JSON-RPC libraries lack (their bound is fixed at 1 GiB and allocated).
func TestFrameOverTheBoundIsSkipped(t *testing.T) {
	stream := lsp.AppendFrame(nil, bytes.Repeat([]byte("x"), 100))
	stream = lsp.AppendFrame(stream, []byte(`{"ok":true}`))
	r := lsp.NewFrameReader(bytes.NewReader(stream), 50)
	_, err := r.Read()
	var big *lsp.FrameTooLargeError
	require.ErrorAs(t, err, &big)
	assert.Equal(t, int64(100), big.Size)
	got, err := r.Read()
	require.NoError(t, err)
	assert.Equal(t, `{"ok":true}`, string(got))
}

func TestFrameBadInput(t *testing.T) {
	for name, in := range map[string]string{
		"no length":       "Content-Type: x\r\n\r\n{}",
		"negative":        "Content-Length: -1\r\n\r\n",
		"not a number":    "Content-Length: ten\r\n\r\n",
		"no colon":        "hello\r\n\r\n",
		"long line":       "X-Long: " + strings.Repeat("y", 2000) + "\r\n\r\n",
		"too many header": strings.Repeat("X: y\r\n", 40) + "\r\n",
	} {
		_, err := lsp.NewFrameReader(strings.NewReader(in), 0).Read()
		assert.True(t, errors.Is(err, lsp.ErrBadHeader), "%s: %v", name, err)
	}
	for name, in := range map[string]string{
		"short body":  "Content-Length: 10\r\n\r\n{}",
		"cut header":  "Content-Length: 10\r\n",
		"cut skipped": "Content-Length: 100\r\n\r\nxx",
	} {
		_, err := lsp.NewFrameReader(strings.NewReader(in), 50).Read()
		assert.Equal(t, io.ErrUnexpectedEOF, err, name)
	}
}

func FuzzFrameReader(f *testing.F) {
	f.Add([]byte("Content-Length: 2\r\n\r\n{}"))
	f.Add([]byte("Content-Length: 100\r\n\r\nxx"))
	f.Add([]byte("content-length:3\n\nabcContent-Length: 0\r\n\r\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		r := lsp.NewFrameReader(bytes.NewReader(in), 64)
		total := 0
		for i := 0; i < 100; i++ {
			body, err := r.Read()
			var big *lsp.FrameTooLargeError
			if errors.As(err, &big) {
				continue
			}
			if err != nil {
				return
			}
			if len(body) > 64 {
				t.Fatalf("a body of %d bytes over the bound", len(body))
			}
			total += len(body)
			if total > len(in) {
				t.Fatalf("read %d bytes of bodies from %d bytes", total, len(in))
			}
			again, err := lsp.NewFrameReader(bytes.NewReader(lsp.AppendFrame(nil, body)), 64).Read()
			if err != nil || !bytes.Equal(again, body) {
				t.Fatalf("round trip of %q: %q, %v", body, again, err)
			}
		}
	})
}

func BenchmarkFrameReader(b *testing.B) {
	body := bytes.Repeat([]byte("x"), 4096)
	var stream []byte
	for range 64 {
		stream = lsp.AppendFrame(stream, body)
	}
	b.SetBytes(int64(len(stream)))
	for b.Loop() {
		r := lsp.NewFrameReader(bytes.NewReader(stream), 0)
		for {
			if _, err := r.Read(); err != nil {
				break
			}
		}
	}
}
