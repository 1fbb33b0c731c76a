// Package lsp is a small Language Server Protocol client: JSON-RPC 2.0 over a server's standard
// input and output with Content-Length framing, the document synchronization a client that only
// wants diagnostics needs (didOpen, full-text didChange, didClose, didChangeWatchedFiles), pushed
// (textDocument/publishDiagnostics) and pulled (textDocument/diagnostic) diagnostics, and an
// orderly shutdown. Every buffer it keeps is bounded and every goroutine it starts ends when the
// client closes or the server exits (docs/diagnostics.md "The client").
package lsp

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// DefaultMaxFrame is the largest message body a FrameReader returns unless told otherwise.
const DefaultMaxFrame = 16 << 20

// The bounds of a frame's header: a header line longer than maxHeaderLine or more than
// maxHeaderLines lines break the stream.
const (
	maxHeaderLine  = 1024
	maxHeaderLines = 16
)

// ErrBadHeader reports a header that is not LSP framing; the stream cannot be resynchronized.
var ErrBadHeader = errors.New("lsp: malformed message header")

// FrameTooLargeError reports a frame whose body was longer than the reader's bound. The body was
// read and dropped, so the stream stays usable.
type FrameTooLargeError struct{ Size, Max int64 }

func (e *FrameTooLargeError) Error() string {
	return fmt.Sprintf("lsp: a message of %d bytes exceeds the bound of %d bytes and was dropped", e.Size, e.Max)
}

// FrameReader reads Content-Length framed messages. Unlike the framings of the Go JSON-RPC
// libraries, its bound is the caller's and a message over it is skipped without allocating it,
// so a server that sends one huge reply does not cost the connection.
type FrameReader struct {
	br  *bufio.Reader
	max int64
}

// NewFrameReader returns a reader of r's frames whose bodies are at most max bytes (max < 1:
// DefaultMaxFrame).
func NewFrameReader(r io.Reader, max int) *FrameReader {
	if max < 1 {
		max = DefaultMaxFrame
	}
	return &FrameReader{br: bufio.NewReaderSize(r, maxHeaderLine), max: int64(max)}
}

// Read returns the next frame's body. It returns io.EOF at a clean end between frames,
// io.ErrUnexpectedEOF inside one, ErrBadHeader (wrapped) for a header it cannot parse, and a
// *FrameTooLargeError for a body over the bound (the next Read goes on after it).
func (r *FrameReader) Read() ([]byte, error) {
	length := int64(-1)
	for n := 0; ; n++ {
		line, err := r.br.ReadSlice('\n')
		if err != nil {
			switch {
			case err == io.EOF && n == 0 && len(line) == 0:
				return nil, io.EOF
			case err == io.EOF:
				return nil, io.ErrUnexpectedEOF
			case errors.Is(err, bufio.ErrBufferFull):
				return nil, fmt.Errorf("%w: a header line longer than %d bytes", ErrBadHeader, maxHeaderLine)
			}
			return nil, err
		}
		if n >= maxHeaderLines {
			return nil, fmt.Errorf("%w: more than %d header lines", ErrBadHeader, maxHeaderLines)
		}
		text := strings.TrimSuffix(strings.TrimSuffix(string(line), "\n"), "\r")
		if text == "" {
			break
		}
		name, value, ok := strings.Cut(text, ":")
		if !ok {
			return nil, fmt.Errorf("%w: %q", ErrBadHeader, text)
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			v, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
			if err != nil || v < 0 {
				return nil, fmt.Errorf("%w: Content-Length %q", ErrBadHeader, strings.TrimSpace(value))
			}
			length = v
		}
	}
	if length < 0 {
		return nil, fmt.Errorf("%w: no Content-Length", ErrBadHeader)
	}
	if length > r.max {
		if _, err := io.CopyN(io.Discard, r.br, length); err != nil {
			return nil, io.ErrUnexpectedEOF
		}
		return nil, &FrameTooLargeError{Size: length, Max: r.max}
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(r.br, body); err != nil {
		return nil, io.ErrUnexpectedEOF
	}
	return body, nil
}

// AppendFrame appends body framed (its Content-Length header first) to dst.
func AppendFrame(dst, body []byte) []byte {
	dst = append(dst, "Content-Length: "...)
	dst = strconv.AppendInt(dst, int64(len(body)), 10)
	dst = append(dst, "\r\n\r\n"...)
	return append(dst, body...)
}
