package hostfs

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math"
	"os"
	"unicode/utf8"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/plugins/fs"
)

const (
	// binarySampleBytes is how many leading bytes are searched for a NUL by the
	// read primitives.
	binarySampleBytes = 8192
	// readChunkBytes bounds one read syscall so cancellation is observed
	// between chunks.
	readChunkBytes = 1 << 20
)

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// statRegular is the regular-file preflight of the read primitives.
func statRegular(ctx context.Context, t fs.Target) (probeInfo, error) {
	if err := checkAbort(ctx, fs.VerbRead); err != nil {
		return probeInfo{}, err
	}
	info, ok, err := probe(string(t.Key))
	if err != nil {
		return probeInfo{}, err
	}
	if !ok {
		return probeInfo{}, fs.ReadNotFound(t.DisplayPath, nil)
	}
	if info.Type != fs.TypeFile {
		return probeInfo{}, fs.ReadNotRegular(t.DisplayPath)
	}
	return info, nil
}

// openRegular opens the key read-only, beneath the root ctx confines reads to
// (WithReadBeneath) if any; ENOENT/ENOTDIR become "not found".
// The open never blocks (a FIFO swapped in after the preflight would wait for
// a writer) and the opened descriptor must still be a regular file, else
// "not a regular file".
func openRegular(ctx context.Context, t fs.Target) (*regularFile, error) {
	f, regular, err := openFile(ctx, string(t.Key))
	switch {
	case err != nil && isAbsentErr(err):
		return nil, fs.ReadNotFound(t.DisplayPath, err)
	case err != nil:
		return nil, err
	case !regular:
		_ = f.Close()
		return nil, fs.ReadNotRegular(t.DisplayPath)
	}
	return f, nil
}

// openFile opens key read-only and without blocking, beneath the root ctx confines reads to (if
// any), and says whether the descriptor is a regular file (its fstat). Errors are raw.
func openFile(ctx context.Context, key string) (*regularFile, bool, error) {
	fd, err := openKeyFD(ctx, key, unix.O_NONBLOCK)
	if err != nil {
		return nil, false, err
	}
	var st unix.Stat_t
	if err := ignoringEINTR(func() error { return unix.Fstat(fd, &st) }); err != nil {
		_ = unix.Close(fd)
		return nil, false, &os.PathError{Op: "stat", Path: key, Err: err}
	}
	return &regularFile{fd: fd, st: st}, st.Mode&unix.S_IFMT == unix.S_IFREG, nil
}

// ReadText implements fs.FileSystem: the whole file, NUL-sniffed in its first
// 8192 bytes, then strictly decoded as UTF-8 with a leading BOM consumed; a file
// in another charset (a UTF-16 BOM, a declared charset) is decoded from it, its
// BOM before the NUL check (decodeRead, docs/encodings.md). The outcome names
// that charset (the one decision, from the bytes this read took).
func (p *Provider) ReadText(ctx context.Context, t fs.Target) (_ fs.ReadOutcome, err error) {
	defer func() { err = fs.FromOS(fs.VerbRead, t.DisplayPath, err) }()
	info, err := statRegular(ctx, t)
	if err != nil {
		return fs.ReadOutcome{}, err
	}
	read, _, err := p.readText(ctx, t, info.Size, math.MaxInt64)
	return read, err
}

// StatText implements fs.StatReader: Stat's look at the key, then, for a regular file of fewer
// than below bytes, ReadText's read from the descriptor it opens, whose fstat the Info then
// describes (the version of the bytes read). The read never takes below bytes: a file that has
// them once opened (one replaced or grown since the look) is described, not read, its Size at
// least below, so the caller takes it as it takes a large file.
func (p *Provider) StatText(ctx context.Context, t fs.Target, below int64) (*fs.Info, *fs.ReadOutcome, error) {
	info, err := p.Stat(ctx, t)
	if err != nil || info == nil || info.Type != fs.TypeFile || info.Size >= below {
		return info, nil, err
	}
	if p.afterPreflight != nil {
		p.afterPreflight(t)
	}
	read, st, err := p.readText(ctx, t, info.Size, below)
	if errors.Is(err, errAtBound) {
		info.Version, info.Size = versionOf(&st), max(st.Size, below)
		return info, nil, nil
	}
	if err != nil {
		return info, nil, fs.FromOS(fs.VerbRead, t.DisplayPath, err)
	}
	info.Version, info.Size = versionOf(&st), st.Size
	return info, &read, nil
}

// errAtBound is readText's answer for a file of at least its limit.
var errAtBound = errors.New("hostfs: the file reached the read's bound")

// readText opens t read-only (openRegular), reads it whole and decodes it (decodeRead); st is the
// descriptor's fstat. A file of limit bytes or more (by that fstat, or by what the read took) is
// errAtBound, with st the descriptor's fstat after the read. Other errors are raw.
func (p *Provider) readText(ctx context.Context, t fs.Target, sizeHint, limit int64) (_ fs.ReadOutcome, st unix.Stat_t, err error) {
	f, err := openRegular(ctx, t)
	if err != nil {
		return fs.ReadOutcome{}, st, err
	}
	defer f.Close()
	if f.st.Size >= limit {
		return fs.ReadOutcome{}, f.st, errAtBound
	}
	buf, err := readAll(ctx, f, sizeHint, limit)
	if err != nil {
		return fs.ReadOutcome{}, st, err
	}
	if int64(len(buf)) >= limit {
		err = ignoringEINTR(func() error { return unix.Fstat(f.fd, &st) })
		if err != nil {
			return fs.ReadOutcome{}, st, &os.PathError{Op: "stat", Path: string(t.Key), Err: err}
		}
		return fs.ReadOutcome{}, st, errAtBound
	}
	if err := checkAbort(ctx, fs.VerbRead); err != nil {
		return fs.ReadOutcome{}, st, err
	}
	text, cs, err := p.decodeRead(ctx, string(t.Key), buf, t.DisplayPath)
	if err != nil || len(text) == 0 {
		return fs.ReadOutcome{Charset: cs}, f.st, err
	}
	// buf is never touched again: share its memory with the string.
	return fs.ReadOutcome{Text: unsafe.String(&text[0], len(text)), Charset: cs}, f.st, nil
}

// decodeWhole applies the text rules of ReadText to a whole file's bytes and
// returns the text bytes (BOM stripped).
func decodeWhole(buf []byte, display string) ([]byte, error) {
	if bytes.IndexByte(buf[:min(len(buf), binarySampleBytes)], 0) >= 0 {
		return nil, fs.ReadBinary(display)
	}
	if !utf8.Valid(buf) {
		return nil, fs.ReadInvalidUTF8(display)
	}
	return bytes.TrimPrefix(buf, utf8BOM), nil
}

// readAll reads r to EOF, or to limit bytes, in bounded chunks, checking ctx between chunks.
// sizeHint pre-sizes the buffer.
func readAll(ctx context.Context, r io.Reader, sizeHint, limit int64) ([]byte, error) {
	buf := make([]byte, 0, min(max(sizeHint, 0)+1, limit))
	for int64(len(buf)) < limit {
		if err := checkAbort(ctx, fs.VerbRead); err != nil {
			return nil, err
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		end := int(min(int64(cap(buf)), int64(len(buf)+readChunkBytes), limit))
		n, err := r.Read(buf[len(buf):end])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
	return buf, nil
}

// ReadBytes implements fs.FileSystem: at most maxBytes raw bytes. A stat size
// above the cap fails before any content I/O; growth after the stat is caught
// by reading at most maxBytes+1 bytes.
func (p *Provider) ReadBytes(ctx context.Context, t fs.Target, maxBytes int64) (_ []byte, err error) {
	defer func() { err = fs.FromOS(fs.VerbRead, t.DisplayPath, err) }()
	info, err := statRegular(ctx, t)
	if err != nil {
		return nil, err
	}
	if info.Size > maxBytes {
		return nil, fs.ReadTooLarge(t.DisplayPath, info.Size, maxBytes)
	}
	if p.afterPreflight != nil {
		p.afterPreflight(t)
	}
	f, err := openRegular(ctx, t)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	limit := maxBytes + 1
	if limit < 0 {
		limit = math.MaxInt64
	}
	buf, err := readAll(ctx, f, min(info.Size, maxBytes), limit)
	if err != nil {
		return nil, err
	}
	if int64(len(buf)) > maxBytes {
		return nil, fs.ReadContentTooLarge(t.DisplayPath, maxBytes)
	}
	return buf, nil
}

// regularFile is a regular file open for reading, held by its descriptor alone: opening one costs
// no *os.File (whose descriptor check and poller registration are two system calls a read of a
// regular file does not need, and whose cleanup the runtime would run).
type regularFile struct {
	fd int
	st unix.Stat_t // fstat's when it was opened
}

func (f *regularFile) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	var n int
	err := ignoringEINTR(func() (err error) {
		n, err = unix.Read(f.fd, b)
		return err
	})
	switch {
	case err != nil:
		return 0, err
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

func (f *regularFile) ReadAt(b []byte, off int64) (int, error) {
	read := 0
	for read < len(b) {
		var n int
		err := ignoringEINTR(func() (err error) {
			n, err = unix.Pread(f.fd, b[read:], off+int64(read))
			return err
		})
		if err != nil {
			return read, err
		}
		if n == 0 {
			return read, io.EOF
		}
		read += n
	}
	return read, nil
}

func (f *regularFile) Close() error { return unix.Close(f.fd) }
