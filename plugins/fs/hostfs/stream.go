package hostfs

import (
	"bytes"
	"context"
	"io"
	"iter"
	"unicode/utf8"
	"unsafe"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// streamChunkBytes is the size of one streamed read for StreamText; lentChunkBytes for
// StreamTextBytes, whose single buffer is reused.
const (
	streamChunkBytes = 64 << 10
	lentChunkBytes   = 1 << 20
)

var _ fs.TextByteStreamer = (*Provider)(nil)

// StreamText implements fs.FileSystem. The regular-file preflight runs now;
// the file is opened when the sequence is ranged over and closed when the range
// ends (normally, on error or on break). Each chunk is read into a fresh
// 64 KiB buffer that becomes the chunk string without a copy; the decoder
// holds only the buffer being filled, so memory stays bounded by what the
// consumer retains, whatever the file size.
func (p *Provider) StreamText(ctx context.Context, t fs.Target) (iter.Seq2[string, error], error) {
	seq, err := p.stream(ctx, t, streamChunkBytes, true)
	if err != nil {
		return nil, err
	}
	return func(yield func(string, error) bool) {
		for chunk, err := range seq {
			// With fresh set, the decoder never writes to a buffer again once
			// it handed out a view of it: the string may share its memory.
			if err != nil {
				yield("", err)
				return
			}
			if !yield(unsafe.String(&chunk[0], len(chunk)), nil) {
				return
			}
		}
	}, nil
}

// StreamTextBytes implements fs.TextByteStreamer: StreamText's semantics, with
// each chunk a view into one reused 1 MiB buffer, valid until the loop body
// returns. A stream allocates nothing per chunk.
func (p *Provider) StreamTextBytes(ctx context.Context, t fs.Target) (iter.Seq2[[]byte, error], error) {
	return p.stream(ctx, t, lentChunkBytes, false)
}

func (p *Provider) stream(ctx context.Context, t fs.Target, size int, fresh bool) (iter.Seq2[[]byte, error], error) {
	if _, err := statRegular(ctx, t); err != nil {
		return nil, fs.FromOS(fs.VerbRead, t.DisplayPath, err)
	}
	return func(yield func([]byte, error) bool) {
		f, err := openRegular(ctx, t)
		if err != nil {
			yield(nil, fs.FromOS(fs.VerbRead, t.DisplayPath, err))
			return
		}
		defer f.Close()
		if ft := p.textOfFile(ctx, string(t.Key), f); ft.other() {
			p.streamOther(ctx, f, ft, t.DisplayPath, yield)
			return
		}
		d := newStreamDecoder(ctx, f, t.DisplayPath, make([]byte, size))
		d.fresh = fresh
		for {
			chunk, err := d.Next()
			if err == io.EOF {
				return
			}
			if err != nil {
				yield(nil, fs.FromOS(fs.VerbRead, t.DisplayPath, err))
				return
			}
			if !yield(chunk, nil) {
				return
			}
		}
	}, nil
}

// streamDecoder turns a byte stream into validated UTF-8 text chunks with the
// exact semantics of decodeWhole, independently of how the reader splits the
// bytes: the NUL sample (the first 8192 bytes) is complete before anything is
// validated, a leading BOM is dropped, a multi-byte sequence split across reads
// is carried to the next chunk, and a sequence still incomplete at EOF is
// invalid.
type streamDecoder struct {
	ctx       context.Context
	r         io.Reader
	display   string
	buf       []byte // len(buf) >= binarySampleBytes + utf8.UTFMax
	tailStart int    // an incomplete trailing sequence waits at buf[tailStart:tailStart+tailLen]
	tailLen   int
	seen      int64 // bytes read so far
	started   bool  // the first text (and so the BOM decision) was produced
	eof       bool
	done      bool
	fresh     bool // read into a new buffer after a view of the current one was handed out
	handedOut bool // a view of buf was returned by Next
}

func newStreamDecoder(ctx context.Context, r io.Reader, display string, buf []byte) *streamDecoder {
	if len(buf) < binarySampleBytes+utf8.UTFMax {
		buf = make([]byte, binarySampleBytes+utf8.UTFMax)
	}
	return &streamDecoder{ctx: ctx, r: r, display: display, buf: buf}
}

// Next returns the next non-empty text chunk, a view into the decoder's
// buffer valid until the following call, or io.EOF at the end. After an error
// every call returns io.EOF.
func (d *streamDecoder) Next() ([]byte, error) {
	text, err := d.next()
	if err != nil {
		d.done = true
	}
	return text, err
}

func (d *streamDecoder) next() ([]byte, error) {
	for {
		if d.done {
			return nil, io.EOF
		}
		tail := d.buf[d.tailStart : d.tailStart+d.tailLen]
		if d.fresh && d.handedOut {
			d.buf, d.handedOut = make([]byte, len(d.buf)), false
		}
		carry := copy(d.buf, tail)
		d.tailStart, d.tailLen = 0, 0
		if d.eof {
			if carry > 0 {
				return nil, fs.ReadInvalidUTF8(d.display)
			}
			return nil, io.EOF
		}
		n, err := d.fill(carry)
		if err != nil {
			return nil, err
		}
		data := d.buf[:carry+n]
		cut := completePrefix(data, d.eof)
		text := data[:cut]
		if !utf8.Valid(text) {
			return nil, fs.ReadInvalidUTF8(d.display)
		}
		d.tailStart, d.tailLen = cut, len(data)-cut
		if !d.started && len(text) > 0 {
			d.started = true
			text = bytes.TrimPrefix(text, utf8BOM)
		}
		if len(text) > 0 {
			d.handedOut = true
			return text, nil
		}
	}
}

// fill reads after the carry: at least one byte or EOF, and, while the NUL
// sample is incomplete, until it is complete (or EOF), so that the binary
// check always precedes UTF-8 validation. It returns the bytes read.
func (d *streamDecoder) fill(carry int) (int, error) {
	n := 0
	for {
		if err := checkAbort(d.ctx, fs.VerbRead); err != nil {
			return n, err
		}
		m, err := d.r.Read(d.buf[carry+n:])
		if m > 0 {
			if d.seen < binarySampleBytes {
				sample := d.buf[carry+n : carry+n+int(min(int64(m), binarySampleBytes-d.seen))]
				if bytes.IndexByte(sample, 0) >= 0 {
					return n, fs.ReadBinary(d.display)
				}
			}
			d.seen += int64(m)
			n += m
		}
		if err == io.EOF {
			d.eof = true
			return n, nil
		}
		if err != nil {
			return n, err
		}
		if n > 0 && (d.seen >= binarySampleBytes || carry+n == len(d.buf)) {
			return n, nil
		}
	}
}

// completePrefix returns the length of the longest prefix of data that does
// not end inside a possibly valid multi-byte sequence. At EOF it is len(data)
// (an incomplete tail is then invalid and fails validation).
func completePrefix(data []byte, eof bool) int {
	if eof {
		return len(data)
	}
	// Look back at most UTFMax-1 bytes for the lead byte of the last sequence.
	for i := len(data) - 1; i >= 0 && i >= len(data)-(utf8.UTFMax-1); i-- {
		c := data[i]
		if c < 0x80 {
			return len(data) // ASCII: complete
		}
		if c >= 0xC0 { // a lead byte
			need := 2
			switch {
			case c >= 0xF0:
				need = 4
			case c >= 0xE0:
				need = 3
			}
			if len(data)-i < need {
				return i // incomplete: carry from the lead byte on
			}
			return len(data)
		}
		// continuation byte: keep looking back
	}
	return len(data)
}
