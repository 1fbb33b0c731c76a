package local

import (
	"container/list"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"
)

// objectIndex is the in-memory index of the stored objects that bounds the
// store to a size budget with least-recently-used eviction. It is built
// once, from one walk of objects/ (recency = each file's mtime), at the
// first commit; from then on a commit and a verified read keep it current,
// so no save lists a directory. A read or commit in progress pins its
// object: a pinned object is never evicted. Eviction unlinks whole files
// (atomic: an object is there entirely or not at all), one at a time under
// the lock that pinning takes, so an object cannot be pinned between the
// decision to evict it and its removal. Objects another process publishes
// after the build are unknown here until the next start.
type objectIndex struct {
	root   string
	budget int64

	mu      sync.Mutex
	built   bool
	entries map[string]*list.Element // hash -> element of lru (an *indexEntry)
	lru     list.List                // front: most recently used
	total   int64
	pins    map[string]int

	// Test hook (nil in production): called after each eviction.
	afterEvict func(h string)
}

type indexEntry struct {
	hash string
	size int64
}

func newObjectIndex(root string, budget int64) *objectIndex {
	return &objectIndex{root: root, budget: budget, entries: map[string]*list.Element{}, pins: map[string]int{}}
}

// pin marks h in use until the returned function runs (once).
func (x *objectIndex) pin(h string) func() {
	x.mu.Lock()
	x.pins[h]++
	x.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			x.mu.Lock()
			if x.pins[h]--; x.pins[h] == 0 {
				delete(x.pins, h)
			}
			x.mu.Unlock()
		})
	}
}

// used records that the object h of size bytes was just used: it becomes
// the most recent entry (inserted when the index did not know it), and its
// file is touched so that the order survives a restart.
func (x *objectIndex) used(h string, size int64) {
	x.touch(h)
	x.mu.Lock()
	defer x.mu.Unlock()
	if !x.built {
		return
	}
	x.insertLocked(h, size, true)
}

func (x *objectIndex) insertLocked(h string, size int64, front bool) {
	if el, ok := x.entries[h]; ok {
		e := el.Value.(*indexEntry)
		x.total += size - e.size
		e.size = size
		x.lru.MoveToFront(el)
		return
	}
	e := &indexEntry{hash: h, size: size}
	if front {
		x.entries[h] = x.lru.PushFront(e)
	} else {
		x.entries[h] = x.lru.PushBack(e)
	}
	x.total += size
}

// build walks objects/ once: every regular file named by its 64-hex digest
// in its own bucket, oldest mtime last. Anything else is ignored (and never
// deleted). Listing failures leave those objects out of the index.
func (x *objectIndex) buildLocked() {
	if x.built {
		return
	}
	x.built = true
	type found struct {
		hash  string
		size  int64
		mtime time.Time
	}
	var all []found
	objects := filepath.Join(x.root, objectsDir)
	buckets, _ := os.ReadDir(objects)
	for _, b := range buckets {
		if !b.IsDir() || len(b.Name()) != 2 {
			continue
		}
		files, _ := os.ReadDir(filepath.Join(objects, b.Name()))
		for _, f := range files {
			name := f.Name()
			if !f.Type().IsRegular() || !idPattern.MatchString(idPrefix+name) || name[:2] != b.Name() {
				continue
			}
			info, err := f.Info()
			if err != nil {
				continue
			}
			all = append(all, found{name, info.Size(), info.ModTime()})
		}
	}
	slices.SortFunc(all, func(a, b found) int { return b.mtime.Compare(a.mtime) })
	for _, f := range all {
		x.insertLocked(f.hash, f.size, false)
	}
}

// committed records a publication (or a deduplicated save) of h and then
// evicts least recently used objects that are not pinned until the total
// is within the budget. The caller holds a pin on h, so h itself stays.
func (x *objectIndex) committed(h string, size int64, dedup bool) {
	if dedup {
		x.touch(h)
	}
	x.mu.Lock()
	x.buildLocked()
	x.insertLocked(h, size, true)
	x.mu.Unlock()
	x.evict()
}

// evict removes victims one at a time, each decision and unlink under the
// lock, so the lock is never held across the whole batch.
func (x *objectIndex) evict() {
	skip := map[string]bool{} // unremovable this round
	for {
		x.mu.Lock()
		if x.total <= x.budget {
			x.mu.Unlock()
			return
		}
		var victim *list.Element
		for el := x.lru.Back(); el != nil; el = el.Prev() {
			h := el.Value.(*indexEntry).hash
			if x.pins[h] == 0 && !skip[h] {
				victim = el
				break
			}
		}
		if victim == nil {
			x.mu.Unlock()
			return // everything left is in use (or cannot be removed)
		}
		e := victim.Value.(*indexEntry)
		err := os.Remove(objectPath(x.root, e.hash))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			skip[e.hash] = true
			x.mu.Unlock()
			continue
		}
		x.lru.Remove(victim)
		delete(x.entries, e.hash)
		x.total -= e.size
		hook := x.afterEvict
		x.mu.Unlock()
		if hook != nil {
			hook(e.hash)
		}
	}
}

// size reports the indexed total and count (for tests).
func (x *objectIndex) size() (int64, int) {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.total, len(x.entries)
}

// touch sets the mtime of the object h to now (best effort: recency is a hint, never a condition of
// correctness).
func (x *objectIndex) touch(h string) {
	now := time.Now()
	_ = os.Chtimes(objectPath(x.root, h), now, now)
}
