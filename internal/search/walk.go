package search

import (
	"context"
	"iter"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// vcsNames are never listed or entered.
var vcsNames = [...]string{".git", ".svn", ".hg", ".bzr", ".jj", ".sl"}

func isVCS(name string) bool {
	for _, v := range vcsNames {
		if name == v {
			return true
		}
	}
	return false
}

// inVCS reports whether some component of the absolute path is a VCS directory name.
func inVCS(abs string) bool {
	for _, c := range strings.Split(abs, "/") {
		if isVCS(c) {
			return true
		}
	}
	return false
}

// Options are the limits and switches of one search.
type Options struct {
	// IncludeIgnored lists and searches the files that ignore rules exclude.
	IncludeIgnored bool
	// MaxVisited stops the walk after this many listed entries (0: no limit).
	MaxVisited int
	// Beneath, when set (an absolute, clean directory path without symlinks that is the root or
	// one of its ancestors), confines every directory and file the search opens beneath it: each
	// is opened relative to a descriptor of Beneath through no symlink and no "..", so an entry
	// swapped for a symlink after it was listed is skipped, never followed.
	Beneath string
}

// file is one file the walk found.
type file struct {
	abs     string // absolute physical path
	rel     string // slash-separated path relative to the root
	mtime   int64  // modification time, Unix nanoseconds
	special bool   // on a kernel pseudo filesystem: never read (see isSpecialFS)
	checkFS bool   // not classified by a walk: openSearchable checks its filesystem
}

// walker walks one tree.
type walker struct {
	ctx    context.Context
	stop   *atomic.Bool // set once ctx ends; read per entry
	opts   Options
	rules  *rules            // nil when IncludeIgnored
	filter func(string) bool // on the relative path of a candidate file; nil accepts all
	links  bool              // list symbolic links to regular files (with the target's mtime)
	// fsTypes: mark the files of kernel pseudo filesystems (grep's walk), by device, each device's
	// filesystem looked up once (specialDevs).
	fsTypes     bool
	devMu       sync.Mutex
	specialDevs map[uint64]bool
}

type dirJob struct {
	abs, rel string
	parent   *level
}

// child is one listed entry (every entry counts toward MaxVisited): a directory to enter, a file
// found, an entry that could not be read (skipped), or none of these.
type child struct {
	dir     *dirJob
	file    *file
	skipped bool
}

type dirResult struct {
	children []child
	partial  bool // the listing failed part way: the entries read are kept, the directory counts as skipped
	err      error
}

// walkResult is what a walk found, unsorted.
type walkResult struct {
	files   []file
	stopped bool // MaxVisited was reached
	skipped int  // entries that could not be read: directories that would not open or list, files that would not stat
}

// walk lists the files under the directory root (absolute physical path). Only a failure to read
// root itself is an error; unreadable entries below it are counted as skipped.
func (w *walker) walk(root string) (walkResult, error) {
	var res walkResult
	if inVCS(root) {
		return res, nil
	}
	var top *level
	if w.rules != nil {
		top = w.rules.ancestorLevels(root)
	}
	current := []dirJob{{abs: root, rel: "", parent: top}}
	visited := 0
	for len(current) > 0 {
		if err := w.ctx.Err(); err != nil {
			return res, err
		}
		results := make([]dirResult, len(current))
		err := until(w.ctx, func() {
			parallel(len(current), func(indexes iter.Seq[int]) {
				buf := direntBufs.Get().(*[]byte)
				defer direntBufs.Put(buf)
				for i := range indexes {
					results[i] = w.readDir(&current[i], *buf)
				}
			})
		})
		if err == nil {
			err = w.ctx.Err()
		}
		if err != nil {
			return res, err
		}
		var next []dirJob
		for i, r := range results {
			if r.err != nil {
				if current[i].rel == "" {
					return res, r.err
				}
				res.skipped++
				continue
			}
			if r.partial {
				res.skipped++
			}
			kids := r.children
			if w.opts.MaxVisited > 0 && visited+len(kids) > w.opts.MaxVisited {
				kids = kids[:w.opts.MaxVisited-visited]
				res.stopped = true
			}
			visited += len(kids)
			for _, c := range kids {
				switch {
				case c.file != nil:
					res.files = append(res.files, *c.file)
				case c.dir != nil:
					next = append(next, *c.dir)
				case c.skipped:
					res.skipped++
				}
			}
			if res.stopped {
				return res, nil
			}
		}
		current = next
	}
	return res, nil
}

// direntBufs hold the getdents(2) buffers of the walking goroutines.
var direntBufs = sync.Pool{New: func() any {
	b := make([]byte, 32<<10)
	return &b
}}

// dirFlags open a directory without following a final symlink and without blocking.
const dirFlags = unix.O_RDONLY | unix.O_DIRECTORY | unix.O_NONBLOCK | unix.O_NOFOLLOW | unix.O_CLOEXEC

// readDir lists one directory and classifies its entries, in name order. Entries are examined
// through the directory's descriptor (fstatat), so the depth of the tree is not limited by the
// longest path the kernel takes.
func (w *walker) readDir(job *dirJob, buf []byte) dirResult {
	if w.stop.Load() {
		return dirResult{err: w.ctx.Err()}
	}
	fd, err := OpenBeneath(w.opts.Beneath, job.abs, dirFlags)
	if err != nil {
		return dirResult{err: &os.PathError{Op: "open", Path: job.abs, Err: err}}
	}
	defer unix.Close(fd)
	ents, err := readDirents(fd, buf)
	if err != nil && len(ents) == 0 {
		return dirResult{err: &os.PathError{Op: "readdirent", Path: job.abs, Err: err}}
	}
	partial := err != nil
	slices.SortFunc(ents, func(a, b dirent) int { return strings.Compare(a.name, b.name) })

	var lvl *level
	if w.rules != nil {
		var has [3]bool // .git, .ignore, .gitignore
		for _, e := range ents {
			switch e.name {
			case ".git":
				has[0] = true
			case ".ignore":
				has[1] = true
			case ".gitignore":
				has[2] = true
			}
		}
		lvl = w.rules.newLevel(job.parent, job.abs, has[0], has[1], has[2])
		if !lvl.hasAnyRules() {
			lvl.skip = true
		}
	}
	out := make([]child, 0, len(ents))
	prefix := withSlash(job.abs)
	for _, e := range ents {
		if w.stop.Load() {
			return dirResult{err: w.ctx.Err()}
		}
		out = append(out, w.classify(fd, job, lvl, prefix, e))
	}
	return dirResult{children: out, partial: partial}
}

// classify examines one entry of the directory dirfd.
func (w *walker) classify(dirfd int, job *dirJob, lvl *level, prefix string, e dirent) child {
	var c child
	name := e.name
	if isVCS(name) {
		return c
	}
	rel := name
	if job.rel != "" {
		rel = job.rel + "/" + name
	}
	abs := prefix + name
	var st unix.Stat_t
	statted := false
	typ := e.typ
	if typ == unix.DT_UNKNOWN {
		if fstatat(dirfd, name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
			c.skipped = true
			return c
		}
		typ, statted = direntType(uint32(st.Mode)), true
	}
	switch {
	case typ == unix.DT_DIR:
		if lvl != nil && !lvl.skip && lvl.ignored(abs, true) {
			return c
		}
		c.dir = &dirJob{abs: abs, rel: rel, parent: lvl}
	case typ == unix.DT_REG, typ == unix.DT_LNK && w.links: // a link counts as the regular file it names
		if w.filter != nil && !w.filter(rel) {
			return c
		}
		if lvl != nil && !lvl.skip && lvl.ignored(abs, false) {
			return c
		}
		if typ == unix.DT_LNK {
			if w.opts.Beneath != "" {
				if statLinkBeneath(w.opts.Beneath, dirfd, name, abs, &st) != nil { // dangling, or its target leaves Beneath
					return c
				}
			} else if fstatat(dirfd, name, &st, 0) != nil { // a dangling link names no file
				return c
			}
		} else if !statted && fstatat(dirfd, name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
			c.skipped = true // vanished or unreadable
			return c
		}
		if st.Mode&unix.S_IFMT != unix.S_IFREG {
			return c
		}
		c.file = &file{abs: abs, rel: rel, mtime: st.Mtim.Nano()}
		if w.fsTypes {
			c.file.special = w.onSpecialFS(uint64(st.Dev), dirfd, name)
		}
	}
	return c
}

// fstatat is fstatat(2) retried on EINTR.
func fstatat(dirfd int, name string, st *unix.Stat_t, flags int) error {
	for {
		err := unix.Fstatat(dirfd, name, st, flags)
		if err != unix.EINTR {
			return err
		}
	}
}

// direntType is the d_type of a file mode.
func direntType(mode uint32) uint8 {
	switch mode & unix.S_IFMT {
	case unix.S_IFDIR:
		return unix.DT_DIR
	case unix.S_IFREG:
		return unix.DT_REG
	case unix.S_IFLNK:
		return unix.DT_LNK
	}
	return unix.DT_UNKNOWN // FIFOs, sockets, devices: never opened
}

// onSpecialFS reports whether the file name of the directory dirfd, on device dev, lies on a kernel
// pseudo filesystem. The first file of each device is asked through an O_PATH descriptor (which
// reads nothing); a file that cannot be asked counts as special and does not decide for its device.
func (w *walker) onSpecialFS(dev uint64, dirfd int, name string) bool {
	w.devMu.Lock()
	special, known := w.specialDevs[dev]
	w.devMu.Unlock()
	if known {
		return special
	}
	fd, err := openAt(dirfd, name, pathOnly|unix.O_NOFOLLOW|unix.O_CLOEXEC)
	if err != nil {
		return true
	}
	defer unix.Close(fd)
	special, err = fdOnSpecialFS(fd)
	if err != nil {
		return true
	}
	w.devMu.Lock()
	if w.specialDevs == nil {
		w.specialDevs = map[uint64]bool{}
	}
	w.specialDevs[dev] = special
	w.devMu.Unlock()
	return special
}

// abandonGrace is how long a search whose context ended waits for its goroutines before it
// returns without them: they stop at the next entry or block, so only one stuck in a system call
// (a hung network mount) is left behind, and it touches nothing the caller sees.
const abandonGrace = 250 * time.Millisecond

// until runs f on a new goroutine and waits for it to return, or, once ctx ends, for at most
// abandonGrace more; it returns ctx's error when it stopped waiting.
func until(ctx context.Context, f func()) error {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
	}
	t := time.NewTimer(abandonGrace)
	defer t.Stop()
	select {
	case <-done:
		return nil
	case <-t.C:
		return ctx.Err()
	}
}

// parallel hands out the indexes 0..n-1, each once, to work running on up to GOMAXPROCS
// goroutines (on the caller's alone when one is enough), and waits for them. Each goroutine calls
// work once, so per-worker state lives in work; a work that stops ranging takes no more indexes.
func parallel(n int, work func(indexes iter.Seq[int])) {
	var next atomic.Int64
	indexes := func(yield func(int) bool) {
		for {
			i := int(next.Add(1) - 1)
			if i >= n || !yield(i) {
				return
			}
		}
	}
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		work(indexes)
		return
	}
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() { work(indexes) })
	}
	wg.Wait()
}

// sortNewestFirst orders files by modification time, newest first, ties by relative path in byte
// order.
func sortNewestFirst(files []file) {
	slices.SortFunc(files, func(a, b file) int {
		if a.mtime != b.mtime {
			if a.mtime > b.mtime {
				return -1
			}
			return 1
		}
		return strings.Compare(a.rel, b.rel)
	})
}
