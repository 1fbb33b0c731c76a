package mcpstdio

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// errTooLong reports a line longer than the frame limit; the line was skipped.
var errTooLong = errors.New("line too long")

// framer splits input into lines of at most max bytes. A longer line is consumed without being
// kept (next reports errTooLong once for it). The returned frame is valid until the next call.
type framer struct {
	r   *bufio.Reader
	max int
	buf []byte
}

// readBufferSize is the framer's read buffer: lines up to this size are returned without a copy.
const readBufferSize = 64 << 10

// retainedBuffer bounds the line buffer kept between frames: one long line does not pin its memory.
const retainedBuffer = 1 << 20

func newFramer(r io.Reader, max int) *framer {
	return &framer{r: bufio.NewReaderSize(r, readBufferSize), max: max}
}

// next returns the next line without its line break. At the end of input a last unterminated line
// is returned first, then io.EOF.
func (f *framer) next() ([]byte, error) {
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

// skip discards the rest of an over-long line. It returns errTooLong, or the read error that ended
// the input before the line did (the over-long line is then dropped silently).
func (f *framer) skip(err error) error {
	f.buf = f.buf[:0]
	for errors.Is(err, bufio.ErrBufferFull) {
		_, err = f.r.ReadSlice('\n')
	}
	if err != nil && !errors.Is(err, bufio.ErrBufferFull) && !errors.Is(err, io.EOF) {
		return err
	}
	return errTooLong
}

// trimFrame removes the insignificant bytes around a message: a UTF-8 byte order mark, a carriage
// return before the line break, and JSON whitespace.
func trimFrame(b []byte) []byte {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	return bytes.Trim(b, " \t\r\n")
}
