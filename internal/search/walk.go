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
}

// file is one file the walk found.
type file struct {
	abs   string // absolute physical path
	rel   string // slash-separated path relative to the root
	mtime int64  // modification time, Unix nanoseconds
}

// walker walks one tree.
type walker struct {
	ctx    context.Context
	opts   Options
	rules  *rules            // nil when IncludeIgnored
	filter func(string) bool // on the relative path of a candidate file; nil accepts all
	links  bool              // list symbolic links to regular files (with the target's mtime)
}

type dirJob struct {
	abs, rel string
	parent   *level
}

// child is one listed entry (every entry counts toward MaxVisited): a directory to enter, a file
// found, or neither.
type child struct {
	dir  *dirJob
	file *file
}

type dirResult struct {
	children []child
	err      error
}

// walkResult is what a walk found, unsorted.
type walkResult struct {
	files   []file
	stopped bool // MaxVisited was reached
}

// walk lists the files under the directory root (absolute physical path). Only a failure to read
// root itself is an error; unreadable entries below it are skipped.
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
		parallel(len(current), func(indexes iter.Seq[int]) {
			for i := range indexes {
				results[i] = w.readDir(&current[i])
			}
		})
		if err := w.ctx.Err(); err != nil {
			return res, err
		}
		var next []dirJob
		for i, r := range results {
			if r.err != nil {
				if current[i].rel == "" {
					return res, r.err
				}
				continue
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

// readDir lists one directory and classifies its entries, in name order.
func (w *walker) readDir(job *dirJob) dirResult {
	if w.ctx.Err() != nil {
		return dirResult{err: w.ctx.Err()}
	}
	fd, err := openDirFD(job.abs)
	if err != nil {
		return dirResult{err: err}
	}
	f := os.NewFile(uintptr(fd), job.abs)
	defer f.Close()
	ents, err := f.ReadDir(-1)
	if err != nil && len(ents) == 0 {
		return dirResult{err: err}
	}
	slices.SortFunc(ents, func(a, b os.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })

	var lvl *level
	if w.rules != nil {
		var has [3]bool // .git, .ignore, .gitignore
		for _, e := range ents {
			switch e.Name() {
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
		name := e.Name()
		var c child
		if isVCS(name) {
			out = append(out, c)
			continue
		}
		rel := name
		if job.rel != "" {
			rel = job.rel + "/" + name
		}
		abs := prefix + name
		switch t := e.Type(); {
		case t.IsDir():
			if lvl != nil && !lvl.skip && lvl.ignored(abs, true) {
				break
			}
			c.dir = &dirJob{abs: abs, rel: rel, parent: lvl}
		case t.IsRegular(), t&os.ModeSymlink != 0 && w.links: // a link counts as the regular file it names
			if w.filter != nil && !w.filter(rel) {
				break
			}
			if lvl != nil && !lvl.skip && lvl.ignored(abs, false) {
				break
			}
			flags := 0
			if t.IsRegular() {
				flags = unix.AT_SYMLINK_NOFOLLOW
			}
			var st unix.Stat_t
			if unix.Fstatat(fd, name, &st, flags) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
				break
			}
			c.file = &file{abs: abs, rel: rel, mtime: st.Mtim.Nano()}
		}
		out = append(out, c)
	}
	return dirResult{children: out}
}

// openDirFD opens a directory without following a final symlink and without blocking.
func openDirFD(path string) (int, error) {
	for {
		fd, err := unix.Open(path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NONBLOCK|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return -1, &os.PathError{Op: "open", Path: path, Err: err}
		}
		return fd, nil
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
