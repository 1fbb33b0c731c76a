package search

import "io"

// Decoder gives the text of the file abs, open as fd, when it is stored in a charset other than
// UTF-8: ok false leaves the file to the byte scan (UTF-8); an error skips the file, as an
// unreadable one. The text is matched and reported instead of the file's bytes, with the same
// rules (binary detection on NULs, line caps), so grep sees what read shows.
type Decoder func(abs string, fd int) (text []byte, ok bool, err error)

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

// source is what file i, open as fd, is scanned from: its decoded text when the query's Decoder
// gives one, else the descriptor.
func (o *ordered) source(i int, fd int) source {
	if o.decode == nil {
		return fdSource(fd)
	}
	text, ok, err := o.decode(o.files[i].abs, fd)
	switch {
	case err != nil:
		return &textSource{} // nothing to match: the file is skipped
	case ok:
		return &textSource{text: text}
	}
	return fdSource(fd)
}
