package hostfs

import (
	"bytes"
	"context"
	"io"
	"os"
	"unicode/utf8"

	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/internal/textedit"
	"github.com/cordon-dev/cordon/plugins/fs"
)

// basisChunkBytes bounds one read of the diff-basis reader so cancellation is
// observed between chunks.
const basisChunkBytes = 64 << 10

// priorFile is what WriteText learns about the file it is about to replace.
type priorFile struct {
	basis *string // LF-normalized prior text without BOM; nil when declined
	bom   bool    // the prior file starts with a UTF-8 BOM
}

// readPrior inspects the file at path before it is replaced. With wantBasis it
// is the bounded diff-basis reader: checks ctx (FS_ABORTED "read aborted")
// before opening, after opening, after fstat, before each 64 KiB chunk and
// after closing; declines the basis (nil) for a non-regular descriptor, a size
// at or above maxBytes (exclusive bound, measured on the opened descriptor), a
// size change while reading, a NUL anywhere or invalid UTF-8. Without
// wantBasis it only sniffs the BOM and never looks at ctx. OS errors never
// fail the write: they decline the basis and report no BOM.
func readPrior(ctx context.Context, path string, maxBytes int64, wantBasis bool) (priorFile, error) {
	return readPriorHooked(ctx, path, maxBytes, wantBasis, nil)
}

// readPriorHooked is readPrior with a test hook that runs right after the
// descriptor's fstat.
func readPriorHooked(ctx context.Context, path string, maxBytes int64, wantBasis bool, afterStat func()) (priorFile, error) {
	if wantBasis {
		if err := checkAbort(ctx, fs.VerbRead); err != nil {
			return priorFile{}, err
		}
	}
	f, err := openKey(ctx, path, unix.O_NONBLOCK)
	if err != nil {
		return priorFile{}, nil
	}
	defer f.Close()
	if !wantBasis {
		if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
			return priorFile{}, nil
		}
		return priorFile{bom: sniffBOM(f)}, nil
	}
	if err := checkAbort(ctx, fs.VerbRead); err != nil {
		return priorFile{}, err
	}
	fi, err := f.Stat()
	if err != nil {
		return priorFile{}, nil
	}
	if afterStat != nil {
		afterStat()
	}
	if err := checkAbort(ctx, fs.VerbRead); err != nil {
		return priorFile{}, err
	}
	if !fi.Mode().IsRegular() {
		return priorFile{}, nil
	}
	size := fi.Size()
	if size >= maxBytes {
		return priorFile{bom: sniffBOM(f)}, nil
	}
	// One spare byte detects growth after the fstat.
	buf := make([]byte, size+1)
	total := 0
	for total < len(buf) {
		if err := checkAbort(ctx, fs.VerbRead); err != nil {
			return priorFile{}, err
		}
		n, err := f.Read(buf[total:min(len(buf), total+basisChunkBytes)])
		total += n
		if err == io.EOF {
			break
		}
		if err != nil {
			return priorFile{}, nil
		}
	}
	_ = f.Close()
	if err := checkAbort(ctx, fs.VerbRead); err != nil {
		return priorFile{}, err
	}
	buf = buf[:total]
	body, bom := textedit.SplitBOM(buf)
	prior := priorFile{bom: bom}
	if int64(total) != size || bytes.IndexByte(buf, 0) >= 0 || !utf8.Valid(body) {
		return prior, nil
	}
	text := textedit.NormalizeLF(textedit.OwnedString(body)) // buf is not used again
	prior.basis = &text
	return prior, nil
}

// sniffBOM reports whether the file starts with a UTF-8 BOM (read from its
// current offset, the start).
func sniffBOM(f *os.File) bool {
	var b [3]byte
	n, _ := io.ReadFull(f, b[:])
	return n == len(b) && string(b[:]) == textedit.BOM
}
