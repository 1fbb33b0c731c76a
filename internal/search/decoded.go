package search

import "io"

// Decoder gives the text of the file abs, open as fd, when it is stored in a charset other than
// UTF-8: ok false leaves the file to the byte scan (UTF-8); an error skips the file, as an
// unreadable one. head holds the file's first bytes, already read by the scan (a whole block, or
// the whole file when it is shorter; lent for the call), so the common case, a UTF-8 file, costs
// no read of its own. The text is matched and reported instead of the file's bytes, with the same
// rules (binary detection on NULs, line caps), so grep sees what read shows.
type Decoder func(abs string, fd int, head []byte) (text []byte, ok bool, err error)

// source is what a scan reads: an open file or a decoded text.
type source interface {
	io.ReaderAt
	// read fills p from the current position; it returns the bytes read and whether the end
	// was reached.
	read(p []byte) (int, bool, error)
}

type fdSource int

func (fd fdSource) read(p []byte) (int, bool, error) { return readFull(int(fd), p) }

func (fd fdSource) ReadAt(p []byte, off int64) (int, error) { return fdReaderAt(fd).ReadAt(p, off) }

// textSource is a decoded text read from its start.
type textSource struct {
	text []byte
	at   int
}

func (t *textSource) read(p []byte) (int, bool, error) {
	n := copy(p, t.text[t.at:])
	t.at += n
	return n, n < len(p), nil
}

func (t *textSource) ReadAt(p []byte, off int64) (int, error) {
	if off >= int64(len(t.text)) {
		return 0, io.EOF
	}
	n := copy(p, t.text[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// headSource is a descriptor whose first block was read already (into the scanner's buffer, where
// the scan expects it): its first read returns that block without reading again.
type headSource struct {
	fd  fdSource
	n   int  // bytes of the head still to hand out (-1 once handed)
	eof bool // the head ends the file
}

func (h *headSource) read(p []byte) (int, bool, error) {
	if h.n >= 0 {
		n, eof := h.n, h.eof
		h.n = -1
		return n, eof, nil
	}
	return h.fd.read(p)
}

func (h *headSource) ReadAt(p []byte, off int64) (int, error) { return h.fd.ReadAt(p, off) }

// source is what file i, open as fd, is scanned from: its decoded text when the query's Decoder
// gives one, else the descriptor. With a Decoder the file's first block is read into the start of
// sc.buf, where the scan's first read would put it, and handed to the Decoder as the head.
func (o *ordered) source(sc *scanner, i int, fd int) (source, error) {
	if o.decode == nil {
		return fdSource(fd), nil
	}
	n, eof, err := fdSource(fd).read(sc.buf[:blockSize])
	if err != nil {
		return nil, err
	}
	text, ok, err := o.decode(o.files[i].abs, fd, sc.buf[:n])
	switch {
	case err != nil:
		return &textSource{}, nil // nothing to match: the file is skipped
	case ok:
		return &textSource{text: text}, nil
	}
	return &headSource{fd: fdSource(fd), n: n, eof: eof}, nil
}
