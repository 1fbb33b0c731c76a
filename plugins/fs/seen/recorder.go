package seen

import (
	"bytes"
	"hash/maphash"
	"strings"
	"unsafe"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// Recorder records lines from..from+limit-1 of a text delivered in chunks whose boundaries carry
// no meaning. It counts the lines before the range in bulk, digests the lines in it as they pass
// (keeping their bytes up to TextCap) and ignores the rest, so its memory is bounded by limit (16
// bytes a line) and TextCap whatever the input. The zero Recorder is not usable; use NewRecorder.
type Recorder struct {
	from, limit int
	done        int // lines completed
	open        bool
	h           maphash.Hash
	sums        []uint64 // the running digest at the end of each recorded line
	ends        []int    // len(text) at the end of each recorded line
	text        []byte
	over        bool // text stopped growing: it holds the first keptLines lines
	keptLines   int
}

// NewRecorder returns a Recorder of lines from..from+limit-1 (values below 1 are raised to 1).
func NewRecorder(from, limit int) *Recorder {
	r := &Recorder{from: max(from, 1), limit: max(limit, 1)}
	r.h.SetSeed(seed)
	return r
}

// Write consumes the next chunk; it does not retain p and never fails.
func (r *Recorder) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		switch line := r.done + 1; {
		case line < r.from:
			need := r.from - line
			if c := bytes.Count(p, nl); c < need {
				r.done += c
				return n, nil
			}
			for ; need > 0; need-- {
				p = p[bytes.IndexByte(p, '\n')+1:]
				r.done++
			}
		case line >= r.from+r.limit:
			return n, nil
		default:
			seg, full := p, false
			if i := bytes.IndexByte(p, '\n'); i >= 0 {
				seg, full = p[:i+1], true
			}
			_, _ = r.h.Write(seg)
			r.keep(seg)
			p = p[len(seg):]
			r.open = !full
			if full {
				r.endLine()
			}
		}
	}
	return n, nil
}

// WriteString is Write for a string chunk.
func (r *Recorder) WriteString(s string) (int, error) {
	// The chunk is only read: viewing it as bytes copies nothing.
	return r.Write(unsafe.Slice(unsafe.StringData(s), len(s)))
}

var nl = []byte{'\n'}

// keep appends seg to the kept text until TextCap would be passed; from then on only the lines
// completed before are kept (a shorter selection may still fit).
func (r *Recorder) keep(seg []byte) {
	if r.over {
		return
	}
	if len(r.text)+len(seg) > TextCap {
		r.over, r.keptLines = true, len(r.ends)
		r.text = r.text[:r.lastEnd()]
		return
	}
	r.text = append(r.text, seg...)
}

func (r *Recorder) lastEnd() int {
	if len(r.ends) == 0 {
		return 0
	}
	return r.ends[len(r.ends)-1]
}

func (r *Recorder) endLine() {
	r.done++
	r.sums = append(r.sums, r.h.Sum64())
	r.ends = append(r.ends, len(r.text))
}

// Seen returns the record of the first count recorded lines (clipped to those recorded) of a text
// of total lines, to be called once the whole text was written.
func (r *Recorder) Seen(count, total int) *fs.Seen {
	if r.open {
		r.open = false
		r.endLine()
	}
	count = min(max(count, 0), len(r.sums))
	w := fs.SeenWindow{First: r.from, Count: count, Sum: Sum("")}
	if count > 0 {
		w.Sum = r.sums[count-1]
	}
	if !r.over || count <= r.keptLines {
		end := 0
		if count > 0 {
			end = r.ends[count-1]
		}
		w.Text, w.Kept = strings.Clone(string(r.text[:end])), true
	}
	return &fs.Seen{Lines: total, Windows: []fs.SeenWindow{w}}
}

// WriteCounted is Write for a caller that already counts line breaks: through is the number of
// '\n' in the whole text through the end of p. A chunk that ends before the range is then skipped
// without being scanned again.
func (r *Recorder) WriteCounted(p []byte, through int) {
	if through < r.from-1 {
		r.done = through
		return
	}
	_, _ = r.Write(p)
}
