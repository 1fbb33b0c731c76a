package history

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/internal/statedir"
)

// HoldIdle is how long the database stays open after an operation when no other process waits for
// it and one that comes to wait can ring for it (bellFile; docs/history.md "The store"): an agent's
// changes, seconds apart, open it once.
var HoldIdle = 10 * time.Minute

// HoldIdleWithoutBell is HoldIdle when the bell cannot be listened to, or when another process asked
// for the database within the last HoldIdle (two agents at work on one state directory): a burst of
// changes opens the database once, and another process waits at most this long for an idle holder.
var HoldIdleWithoutBell = 100 * time.Millisecond

// waitersFile is where a process waiting for history.db says so: it holds a shared flock on it
// while it waits, and the holder, which tests for that lock after each operation, closes the
// database at once instead of keeping it.
const waitersFile = "history.db.waiters"

// bellFile is the FIFO a waiting process rings (writes a byte to) while it waits: the holder
// listens to it while it holds the database and lets go when it rings, so an idle holder answers
// at once at no cost while nobody rings.
const bellFile = "history.db.bell"

// ringEvery is how often a waiter rings again: a ring the holder missed (one that came between
// two holds) costs this much of the wait.
const ringEvery = 100 * time.Millisecond

// hold is this process's hold on one directory's history.db, shared by every store opened on the
// directory (two opens in one process conflict on flock as two processes do). Its mutex serializes
// the process's operations on the store.
type hold struct {
	mu      sync.Mutex
	dir     string
	db      *bolt.DB
	file    *os.File     // db's file (bbolt's own descriptor, for fstat)
	stamp   fileStamp    // history.db as this process's last operation left it
	idle    *time.Timer  // closes db once HoldIdle passes without an operation
	gen     uint64       // operations so far: the idle close of a stale timer does nothing
	waiters *os.File     // waitersFile, opened once ("nil": not yet, or it cannot be)
	bell    *os.File     // bellFile, listened to while db is held ("nil": it cannot be)
	asked   time.Time    // when another process last asked for the database (rang, or waited)
	done    []completion // completions not yet committed (Complete while db is held)
	store   *boltStore   // the store of the last operation (its limits prune a fold)

	// The journal (journal.go), open while db is.
	journal      *os.File
	journalEnd   int64       // where the next frame goes
	journalID    string      // the database's journal name (journalIDKey), read by the hold's first Add
	pending      []journaled // the journaled records not yet folded, in order
	pendingBytes int64       // their inline content
	seq          uint64      // the last sequence given, folded or journaled
	usage        int64       // the content and record bytes counted against MaxBytes, as last committed
	committed    bool        // an Add committed its own transaction in this hold
	last         lastRecord  // the record this process added last, decoded (for its completion)
	oldest       lastRecord  // the oldest record as prune decoded it last (every Add checks its age)
}

// lastRecord is a record as Add stored it: its completion decodes it no more when the stored bytes
// are still these.
type lastRecord struct {
	seq  uint64
	data []byte
	rec  Record
}

// is reports whether data, stored under seq, is the record l holds decoded.
func (l *lastRecord) is(seq uint64, data []byte) bool {
	return l.seq == seq && l.data != nil && bytes.Equal(l.data, data)
}

// recordOf decodes the stored record data of seq, or takes it from h.last when data is what Add
// stored.
func (h *hold) recordOf(seq uint64, data []byte) (Record, error) {
	if h.last.is(seq, data) {
		return h.last.rec, nil
	}
	var r Record
	err := json.Unmarshal(data, &r)
	return r, err
}

// oldestOf decodes the stored record data of seq for prune, or takes it from h.oldest when data is
// what prune decoded last: the oldest record stays the same across most Adds.
func (h *hold) oldestOf(seq uint64, data []byte) (Record, error) {
	if h.oldest.is(seq, data) {
		return h.oldest.rec, nil
	}
	var r Record
	if err := json.Unmarshal(data, &r); err != nil {
		return r, err
	}
	h.oldest = lastRecord{seq: seq, data: bytes.Clone(data), rec: r}
	return r, nil
}

// completion is a deferred Complete.
type completion struct {
	seq          uint64
	versionAfter string
	interrupted  bool
}

// MarshalJSON and UnmarshalJSON carry a completion in a journal frame.
func (c completion) MarshalJSON() ([]byte, error) {
	return json.Marshal(journalDone{Seq: c.seq, VersionAfter: c.versionAfter, Interrupted: c.interrupted})
}

func (c *completion) UnmarshalJSON(b []byte) error {
	var d journalDone
	if err := json.Unmarshal(b, &d); err != nil {
		return err
	}
	*c = completion{seq: d.Seq, versionAfter: d.VersionAfter, interrupted: d.Interrupted}
	return nil
}

type journalDone struct {
	Seq          uint64 `json:"seq"`
	VersionAfter string `json:"versionAfter"`
	Interrupted  bool   `json:"interrupted,omitempty"`
}

// postpone queues c when the database is held (the next operation or the release commits it) and
// reports whether it did.
func (h *hold) postpone(c completion) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.db == nil {
		return false
	}
	h.done = append(h.done, c)
	// A journaled record is completed where it waits for its fold too, so the fold writes it once
	// (the completion still goes into the next frame, for a replay).
	for i := range h.pending {
		if e := &h.pending[i]; e.Seq == c.seq {
			e.Record.Pending, e.Record.VersionAfter, e.Record.Interrupted, e.Record.PID = false, c.versionAfter, c.interrupted, 0
			e.completed = true
		}
	}
	return true
}

// applyCompletions writes the deferred completions in the transaction of recs (a record pruned
// meanwhile is skipped); the caller clears h.done once that transaction commits.
func (h *hold) applyCompletions(recs *bolt.Bucket) error { return h.complete(recs, h.done) }

// complete writes the completions cs in the transaction of recs (a record pruned meanwhile is
// skipped, and so is one of a journaled record that already carries it).
func (h *hold) complete(recs *bolt.Bucket, cs []completion) error {
	for _, c := range cs {
		if h.carried(c.seq) {
			continue
		}
		data := recs.Get(seqKey(c.seq))
		if data == nil {
			continue
		}
		r, err := h.recordOf(c.seq, data)
		if err != nil {
			return err
		}
		r.Pending, r.VersionAfter, r.Interrupted, r.PID = false, c.versionAfter, c.interrupted, 0
		if err := putRecord(recs, c.seq, &r); err != nil {
			return err
		}
	}
	return nil
}

// flush folds the journaled records with the deferred completions (a flushed commit), or commits
// the completions alone (without fsync, as Complete's own commit).
func (h *hold) flush() error {
	if h.db == nil || (len(h.done) == 0 && len(h.pending) == 0) {
		return nil
	}
	if len(h.pending) > 0 && h.store != nil {
		h.db.NoSync = false
		return h.store.fold(h.db)
	}
	h.db.NoSync = true
	err := h.db.Update(func(tx *bolt.Tx) error {
		recs, _, _, err := buckets(tx)
		if err != nil {
			return err
		}
		return h.applyCompletions(recs)
	})
	if err == nil {
		h.done = h.done[:0]
	}
	return err
}

var holds sync.Map // clean dir -> *hold

func holdOf(dir string) *hold {
	dir = filepath.Clean(dir)
	h, _ := holds.LoadOrStore(dir, &hold{dir: dir})
	return h.(*hold)
}

// fileStamp is what says history.db is the file this process left: another writer (one that does
// not take the lock, or a file put in its place) changes one of these.
type fileStamp struct {
	dev, ino uint64
	size     int64
	mtime    unix.Timespec
	ctime    unix.Timespec
}

func stampOf(st *unix.Stat_t) fileStamp {
	return fileStamp{dev: uint64(st.Dev), ino: st.Ino, size: st.Size, mtime: st.Mtim, ctime: st.Ctim}
}

// current returns the open database when history.db is still the file this process's last
// operation left, and nil (having closed it) otherwise; the deferred completions are dropped
// then (the records they complete are not in the file there now, or are settled at a start).
func (h *hold) current(path string) *bolt.DB {
	if h.db == nil {
		return nil
	}
	var st unix.Stat_t
	if err := unix.Lstat(path, &st); err != nil || stampOf(&st) != h.stamp {
		h.release()
	}
	return h.db
}

// kept records the file as the operation left it (unless unchanged: the operation committed
// nothing to it, so the stamp holds) and keeps the database open unless another process waits
// for it (or the file cannot be stamped, or the waiters file cannot be opened: then the database
// is opened for each operation, as before holds), arming the idle close: HoldIdle, or
// HoldIdleWithoutBell without the bell (which listen does not open either when another process
// asked for the database within the last HoldIdle).
func (h *hold) kept(unchanged bool) {
	if h.db == nil || h.waitersFile() == nil { // without the file, every operation lets go
		h.letGo()
		return
	}
	if h.waiting() {
		h.asked = time.Now()
		h.letGo()
		return
	}
	if !unchanged {
		var st unix.Stat_t
		if unix.Fstat(int(h.file.Fd()), &st) != nil {
			h.letGo()
			return
		}
		h.stamp = stampOf(&st)
	}
	gen, idle := h.gen, HoldIdle
	if h.bell == nil { // none, or a brief hold (listen)
		idle = HoldIdleWithoutBell
	}
	if h.idle != nil {
		h.idle.Stop()
	}
	h.idle = time.AfterFunc(idle, func() { h.idleClose(gen) })
}

// listen opens the bell (when it can) and answers its rings while db is held; not while holds are
// brief (another process asked for the database within the last HoldIdle), when a waiter waits at
// most HoldIdleWithoutBell without it.
func (h *hold) listen() {
	if time.Since(h.asked) < HoldIdle {
		return
	}
	f, err := statedir.ListenFIFO(filepath.Join(h.dir, bellFile))
	if err != nil {
		return
	}
	h.bell = f
	go h.answer(f)
}

// answer lets go of the database when the bell f rings; it ends when f is closed (release).
func (h *hold) answer(f *os.File) {
	var b [64]byte
	for {
		if _, err := f.Read(b[:]); err != nil {
			return
		}
		h.mu.Lock()
		if h.bell == f {
			h.gen++
			h.asked = time.Now()
			h.letGo()
		}
		h.mu.Unlock()
	}
}

// ring rings the bell of the holder, if one listens.
func (h *hold) ring() { statedir.RingFIFO(filepath.Join(h.dir, bellFile)) }

func (h *hold) idleClose(gen uint64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.gen == gen {
		h.letGo()
	}
}

// letGo commits the deferred completions and closes the database.
func (h *hold) letGo() {
	defer func() {
		if recover() != nil { // a damaged page: the next operation meets it and sets the file aside
			h.release()
		}
	}()
	_ = h.flush() // what fails here stays pending: the next start settles it
	h.release()
}

// Close commits what this process deferred and closes the database (the plugin's dispose); the
// store stays usable: the next operation opens it again.
func (s *boltStore) Close() {
	s.h.mu.Lock()
	defer s.h.mu.Unlock()
	s.h.gen++
	s.h.letGo()
}

// release closes the database (its flock goes with it).
func (h *hold) release() {
	if h.idle != nil {
		h.idle.Stop()
		h.idle = nil
	}
	if h.bell != nil {
		_ = h.bell.Close() // ends answer
		h.bell = nil
	}
	if h.db != nil {
		_ = closeQuietly(h.db)
		h.db, h.file = nil, nil
	}
	h.done = h.done[:0]
	h.closeJournal()
	h.committed = false
}

// waiting reports whether another process has announced that it waits.
func (h *hold) waiting() bool {
	f := h.waitersFile()
	if f == nil {
		return false
	}
	fd := int(f.Fd())
	if err := unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB); err != nil {
		return true
	}
	_ = unix.Flock(fd, unix.LOCK_UN)
	return false
}

// yieldMax bounds how long an operation lets an announced waiter go first: one of bbolt's lock
// polls (50 ms) and a little more.
const yieldMax = 60 * time.Millisecond

// yield lets a process that announced it waits take the database first: this process does not try
// to open it while the announcement stands, for at most limit and yieldMax. Without it, a process
// that let go after an operation would take the database back at its next one, before the
// waiter's next poll.
func (h *hold) yield(limit time.Duration) {
	deadline := time.Now().Add(min(limit, yieldMax))
	for h.waiting() && time.Now().Before(deadline) {
		time.Sleep(2 * time.Millisecond)
	}
}

func (h *hold) waitersFile() *os.File {
	if h.waiters == nil {
		f, err := statedir.OpenFile(filepath.Join(h.dir, waitersFile), os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return nil
		}
		h.waiters = f
	}
	return h.waiters
}

// announce says this process waits for the database until the returned func is called.
func (h *hold) announce() func() {
	f := h.waitersFile()
	if f == nil {
		return func() {}
	}
	fd := int(f.Fd())
	// A holder takes the exclusive lock only to test it, so this wait is a few microseconds.
	if err := unix.Flock(fd, unix.LOCK_SH); err != nil {
		return func() {}
	}
	return func() { _ = unix.Flock(fd, unix.LOCK_UN) }
}

// openDB opens history.db, trying once first; when another process holds it, this process
// announces itself (so a busy holder lets go after its operation), rings the bell (so an idle one
// lets go at once) every ringEvery, and waits up to timeout.
func (h *hold) openDB(path string, timeout time.Duration) (db *bolt.DB, err error) {
	var file *os.File
	openFile := func(name string, flag int, perm os.FileMode) (*os.File, error) {
		f, err := statedir.OpenFile(name, flag, perm)
		file = f
		return f, err
	}
	opts := &bolt.Options{OpenFile: openFile}
	defer func() {
		if err == nil {
			h.file = file
		}
	}()
	// try opens the database, bbolt waiting up to wait for the lock; it reports whether that is
	// the end of it (opened, or failed otherwise than by the wait).
	try := func(wait time.Duration) bool {
		opts.Timeout = max(wait, time.Nanosecond)
		db, err = bolt.Open(path, 0o600, opts)
		return err == nil || !errors.Is(err, bolterrors.ErrTimeout)
	}
	if try(time.Nanosecond) || timeout <= time.Nanosecond {
		return db, err
	}
	unannounce := h.announce()
	defer unannounce()
	deadline := time.Now().Add(timeout)
	for {
		h.ring()
		// An idle holder answers within a millisecond or so: try again soon, before bbolt's 50 ms
		// polls.
		for wait := time.Millisecond; wait <= 16*time.Millisecond && time.Until(deadline) > wait; wait *= 2 {
			time.Sleep(wait)
			if try(time.Nanosecond) {
				return db, err
			}
		}
		if try(min(time.Until(deadline), ringEvery)) || time.Until(deadline) <= 0 {
			return db, err
		}
	}
}
