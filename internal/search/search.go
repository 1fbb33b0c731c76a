package search

import (
	"context"
	"errors"
	"iter"
	"sync"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// Found is the result of Files: the matching files newest first, whether the walk stopped at
// Options.MaxVisited, and how many entries could not be read (Skipped).
type Found struct {
	Files   []FoundFile
	Stopped bool
	// Skipped counts the entries below the root that could not be read: a directory that would not
	// open or list (no permission, vanished), a file that vanished before it could be examined.
	Skipped int
	// PartialIgnore counts the ignore files applied in part: past their first 1 MiB, or past
	// 32 KiB of wildcard patterns, their rules were left out.
	PartialIgnore int
}

// FoundFile is one file found: its path relative to the root (slash-separated).
type FoundFile struct {
	Rel string
}

// Files lists the files below the directory root (an absolute physical path) whose relative path
// g matches (nil: every file), newest first. Symbolic links to regular files are listed.
func Files(ctx context.Context, root string, g *Glob, opts Options) (Found, error) {
	w, done := newWalker(ctx, g, opts, true)
	defer done()
	res, err := w.walk(root)
	if err != nil {
		return Found{}, err
	}
	sortNewestFirst(res.files)
	out := Found{Files: make([]FoundFile, len(res.files)), Stopped: res.stopped, Skipped: res.skipped, PartialIgnore: w.partialIgnore()}
	for i, f := range res.files {
		out.Files[i] = FoundFile{Rel: f.rel}
	}
	return out, nil
}

// newWalker returns a walker and the function that releases it.
func newWalker(ctx context.Context, g *Glob, opts Options, links bool) (*walker, func()) {
	w := &walker{ctx: ctx, opts: opts, links: links, stop: new(atomic.Bool)}
	release := context.AfterFunc(ctx, func() { w.stop.Store(true) })
	if g != nil {
		w.filter = g.Match
	}
	if !opts.IncludeIgnored {
		w.rules = loadRules(opts.Beneath)
	}
	return w, func() { release() }
}

// partialIgnore is the number of ignore files the walk applied in part.
func (w *walker) partialIgnore() int {
	if w.rules == nil {
		return 0
	}
	return int(w.rules.partial.Load())
}

// LineMatch is one matching line handed to a Grep callback. Text is lent: it is valid only until
// the callback returns.
type LineMatch struct {
	// Rel is the file's path relative to the root ("" when the root is the file).
	Rel string
	// Line is the 1-based line number.
	Line int
	// Text is the line cut to the line cap on a UTF-8 boundary; nil when Valid is false.
	Text []byte
	// Truncated: the line is longer than the cap.
	Truncated bool
	// Valid: the whole line is valid UTF-8.
	Valid bool
}

// GrepQuery is one content search.
type GrepQuery struct {
	// Root is the absolute physical path of a directory, or of a file searched alone.
	Root string
	// File: Root is a regular file (searched whatever the rules and Include say).
	File bool
	// Matcher is the compiled pattern.
	Matcher *Matcher
	// Include, when set, filters the files of a directory walk.
	Include *Glob
	// MaxLineBytes caps the text of each line handed back.
	MaxLineBytes int
	// Decode, when set, gives the text of a file stored in a charset other than UTF-8, which is
	// then matched instead of its bytes (decoded.go).
	Decode Decoder
	Options
}

// GrepStats are the facts of a Grep besides its matches: whether the walk stopped at MaxVisited,
// and how many entries could not be read (Found.Skipped's entries, plus the files that would not
// open or read, would block (EAGAIN), or lie on a kernel pseudo filesystem such as /proc or /sys).
type GrepStats struct {
	Stopped       bool
	Skipped       int
	PartialIgnore int // as Found.PartialIgnore
}

// Grep calls emit for every matching line, files newest first and lines in file order, from one
// goroutine at a time, never after it returns. An error of emit stops the search and is returned.
// Once ctx ends Grep returns within abandonGrace, even while a read is stuck in the kernel.
func Grep(ctx context.Context, q GrepQuery, emit func(LineMatch) error) (GrepStats, error) {
	var files []file
	var stats GrepStats
	if q.File {
		files = []file{{abs: q.Root, checkFS: true}}
	} else {
		w, done := newWalker(ctx, q.Include, q.Options, false)
		w.fsTypes = true
		res, err := w.walk(q.Root)
		done()
		if err != nil {
			return stats, err
		}
		sortNewestFirst(res.files)
		files, stats.Stopped, stats.Skipped, stats.PartialIgnore = res.files, res.stopped, res.skipped, w.partialIgnore()
	}
	skipped, err := searchFiles(ctx, files, q, emit)
	stats.Skipped += skipped
	if err != nil {
		return stats, err
	}
	return stats, ctx.Err()
}

// fileSpillBytes is how much a worker buffers for a file that is not yet the oldest unfinished
// one before it waits for its turn.
const fileSpillBytes = 1 << 20

// ordered hands the hits of files searched in parallel to emit in file order. The worker of the
// oldest unfinished file (the head) emits directly; the others buffer until the head reaches them.
type ordered struct {
	mu     sync.Mutex
	cond   *sync.Cond
	head   int          // the oldest unfinished file; guarded by mu, mirrored in headA
	headA  atomic.Int64 // read lock-free by the head's worker
	slots  []*slot
	files  []file
	emit   func(LineMatch) error
	decode Decoder // GrepQuery.Decode
	// beneath is Options.Beneath: every file is opened beneath it.
	beneath string
	err     error // the first failure (emit's, or the context's); guarded by mu
	stop    atomic.Bool
	// skipped counts the files that could not be read.
	skipped atomic.Int64
	// sendMu serializes the calls of emit with closed: once the search returns, emit is never
	// called again, even by a worker it left behind.
	sendMu sync.Mutex
	closed bool
}

type slot struct {
	done  bool
	arena []byte
	hits  []bufHit
}

type bufHit struct {
	line, off, n     int
	truncated, valid bool
}

// searchFiles searches files and returns how many could not be read.
func searchFiles(ctx context.Context, files []file, q GrepQuery, emit func(LineMatch) error) (int, error) {
	if len(files) == 0 {
		return 0, nil
	}
	o := &ordered{slots: make([]*slot, len(files)), files: files, emit: emit, decode: q.Decode, beneath: q.Beneath}
	o.cond = sync.NewCond(&o.mu)
	stopCancel := context.AfterFunc(ctx, func() { o.fail(ctx.Err()) })
	defer stopCancel()
	err := until(ctx, func() {
		parallel(len(files), func(indexes iter.Seq[int]) {
			sc := newScanner(ctx, q.Matcher, q.MaxLineBytes)
			for i := range indexes {
				if o.stop.Load() {
					return
				}
				o.searchOne(sc, i)
			}
		})
	})
	o.sendMu.Lock()
	o.closed = true
	o.sendMu.Unlock()
	if err != nil {
		return int(o.skipped.Load()), err
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	return int(o.skipped.Load()), o.err
}

// send hands one line to emit unless the search has returned.
func (o *ordered) send(lm LineMatch) error {
	o.sendMu.Lock()
	defer o.sendMu.Unlock()
	if o.closed {
		return errStopped
	}
	if err := o.emit(lm); err != nil {
		return emitError{err}
	}
	return nil
}

func (o *ordered) fail(err error) {
	o.mu.Lock()
	if o.err == nil {
		o.err = err
	}
	o.stop.Store(true)
	o.cond.Broadcast()
	o.mu.Unlock()
}

// searchOne searches file i; a file that cannot be read (or is not read: on a kernel pseudo
// filesystem) contributes nothing and counts as skipped.
func (o *ordered) searchOne(sc *scanner, i int) {
	sl := &slot{}
	o.mu.Lock()
	o.slots[i] = sl
	o.mu.Unlock()
	rel := o.files[i].rel
	if o.files[i].special {
		o.skipped.Add(1)
	} else if fd, err := openForSearch(o.files[i], o.beneath); err != nil {
		o.skipped.Add(1)
	} else {
		direct := false
		src, err := o.source(sc, i, fd)
		if err == nil {
			err = sc.scan(src, func(line int, text []byte, truncated, valid bool) error {
				if o.stop.Load() {
					return errStopped
				}
				if !direct && o.headA.Load() == int64(i) {
					direct = true
					if err := o.flush(sl, rel); err != nil {
						return err
					}
				}
				if direct {
					return o.send(LineMatch{Rel: rel, Line: line, Text: text, Truncated: truncated, Valid: valid})
				}
				sl.hits = append(sl.hits, bufHit{line: line, off: len(sl.arena), n: len(text), truncated: truncated, valid: valid})
				sl.arena = append(sl.arena, text...)
				if len(sl.arena) > fileSpillBytes {
					if err := o.waitTurn(i); err != nil {
						return err
					}
					direct = true
					return o.flush(sl, rel)
				}
				return nil
			})
		}
		unix.Close(fd)
		// A read error skips the file; the context's end is recorded by the AfterFunc.
		var ee emitError
		switch {
		case errors.As(err, &ee):
			o.fail(ee.err)
		case err != nil && err != errStopped && !o.stop.Load():
			o.skipped.Add(1)
		}
	}
	o.complete(i)
}

// openForSearch opens a file to search; a file the walk did not classify (a root named alone) is
// checked for a kernel pseudo filesystem here.
func openForSearch(f file, beneath string) (int, error) {
	if f.checkFS {
		return openSearchable(beneath, f.abs)
	}
	return openRegularFD(beneath, f.abs)
}

// errStopped unwinds a scan after another worker failed.
var errStopped = &stopError{}

type stopError struct{}

func (*stopError) Error() string { return "search stopped" }

// emitError marks a failure of the caller's callback.
type emitError struct{ err error }

func (e emitError) Error() string { return e.err.Error() }
func (e emitError) Unwrap() error { return e.err }

func (o *ordered) waitTurn(i int) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	for o.head != i && o.err == nil {
		o.cond.Wait()
	}
	if o.err != nil {
		return errStopped
	}
	return nil
}

// flush emits and drops the hits buffered in sl.
func (o *ordered) flush(sl *slot, rel string) error {
	for _, h := range sl.hits {
		var text []byte
		if h.valid {
			text = sl.arena[h.off : h.off+h.n]
		}
		if err := o.send(LineMatch{Rel: rel, Line: h.line, Text: text, Truncated: h.truncated, Valid: h.valid}); err != nil {
			return err
		}
	}
	sl.hits, sl.arena = nil, nil
	return nil
}

// complete marks file i done and, when it was the head, moves the head past every finished file,
// flushing their hits.
func (o *ordered) complete(i int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.slots[i].done = true
	if i != o.head {
		return
	}
	for o.head < len(o.slots) && o.slots[o.head] != nil && o.slots[o.head].done {
		if o.err == nil {
			if err := o.flush(o.slots[o.head], o.files[o.head].rel); err != nil {
				if ee, ok := err.(emitError); ok {
					o.err = ee.err
				} else if o.err == nil {
					o.err = err
				}
				o.stop.Store(true)
			}
		}
		o.slots[o.head] = nil
		o.head++
	}
	o.headA.Store(int64(o.head))
	o.cond.Broadcast()
}
