// Package lines reads newline-delimited input in lines of bounded length: a longer line is
// skipped without being held in memory, and reported once.
//
//	r := lines.NewReader(os.Stdin, 16<<20)
//	for {
//		line, err := r.Next()
//		if errors.Is(err, lines.ErrTooLong) {
//			// answer the skipped line
//			continue
//		}
//		if err != nil {
//			break // io.EOF: the input ended
//		}
//		handle(line) // valid until the next call
//	}
package lines

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// DefaultMaxLine is the longest line a JSON-lines or MCP stdio peer accepts by default (16 MiB).
const DefaultMaxLine = 16 << 20

// ErrTooLong reports a line longer than the reader's limit; the line was skipped.
var ErrTooLong = errors.New("line too long")

// Reader splits input into lines of at most max bytes. A longer line is consumed without being
// kept (Next reports ErrTooLong once for it).
type Reader struct {
	r   *bufio.Reader
	max int
	buf []byte
}

// readBufferSize is the framer's read buffer: lines up to this size are returned without a copy.
const readBufferSize = 64 << 10

// retainedBuffer bounds the line buffer kept between frames: one long line does not pin its memory.
const retainedBuffer = 1 << 20

// NewReader returns a Reader of lines of at most max bytes.
func NewReader(r io.Reader, max int) *Reader {
	return &Reader{r: bufio.NewReaderSize(r, readBufferSize), max: max}
}

// Next returns the next line without its line break, valid until the next call. At the end of input
// a last unterminated line is returned first, then io.EOF.
func (f *Reader) Next() ([]byte, error) {
	if cap(f.buf) > retainedBuffer {
		f.buf = nil
	}
	f.buf = f.buf[:0]
	for {
		chunk, err := f.r.ReadSlice('\n')
		if err == nil && len(f.buf) == 0 && len(chunk)-1 <= f.max {
			return chunk[:len(chunk)-1], nil // the whole line is in the read buffer
		}
		n := len(f.buf) + len(chunk) // the line so far, with its line break when err is nil
		if err == nil {
			n--
		}
		if n > f.max {
			return nil, f.skip(err)
		}
		if len(f.buf)+len(chunk) > cap(f.buf) { // grow by doubling: a long line costs twice its size, not five times
			f.buf = append(make([]byte, 0, min(max(2*cap(f.buf), len(f.buf)+len(chunk), readBufferSize), f.max+1)), f.buf...)
		}
		f.buf = append(f.buf, chunk...)
		switch {
		case err == nil:
			return f.buf[:len(f.buf)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(f.buf) > 0:
			return f.buf, nil
		default:
			return nil, err
		}
	}
}

// skip discards the rest of an over-long line. It returns ErrTooLong, or the read error that ended
// the input before the line did.
func (f *Reader) skip(err error) error {
	f.buf = f.buf[:0]
	for errors.Is(err, bufio.ErrBufferFull) {
		_, err = f.r.ReadSlice('\n')
	}
	if err != nil && !errors.Is(err, io.EOF) { // the loop ends on any other error
		return err
	}
	return ErrTooLong
}

// TrimJSON removes the bytes around a JSON text that carry no meaning: a UTF-8 byte order mark, a
// carriage return before the line break, and JSON whitespace.
func TrimJSON(b []byte) []byte {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	return bytes.Trim(b, " \t\r\n")
}
