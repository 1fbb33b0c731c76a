package history

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"github.com/cordon-dev/cordon/internal/statedir"
)

// The store's layout under its directory: history.db (bbolt: records by sequence, content
// entries by digest, the content total) and blobs/<2 hex>/<sha256 hex>.
var (
	recordsBucket  = []byte("records")
	blobsBucket    = []byte("blobs")
	metaBucket     = []byte("meta")
	inlineBucket   = []byte("contents") // small contents, by digest, in the database itself
	bytesKey       = []byte("contentBytes")
	recordBytesKey = []byte("recordBytes") // the records' own bytes (countRecords)
	// notPendingKey: no record up to this sequence is pending (absent: 0). A record is never made
	// pending again once completed or discarded, and new records take higher sequences, so a list
	// of the pending records starts after it (listPending).
	notPendingKey = []byte("notPendingThrough")
)

// DefaultLockTimeout bounds the wait for another process's use of the store.
const DefaultLockTimeout = 5 * time.Second

// boltStore is the embedded Store: the database is opened by an operation and kept open for the
// next ones while they follow within HoldIdle, and closed at once when another process waits for it,
// so several processes share one directory (bbolt's flock serializes them; a process waits at most
// its lock timeout). Content is written while the database is held, so a sweep (also run
// while it is held) never sees a write in flight.
type boltStore struct {
	dir     string
	limits  Limits
	timeout time.Duration
	now     func() time.Time
	h       *hold       // this process's hold on the database, shared by the stores on dir
	budget  *LockBudget // Within: the waits of one call, together ("nil": each waits its timeout)
}

// blobEntry is a content entry: its size, how many records refer to it, and whether it is kept
// in the database (inlineBucket) rather than in a file.
type blobEntry struct {
	Size   int64 `json:"size"`
	Refs   int   `json:"refs"`
	Inline bool  `json:"inline,omitempty"`
}

// InlineMaxBytes is the largest content kept in the database itself: one commit makes it durable
// with its record, where a content file costs two more fsyncs (the file, its directory).
const InlineMaxBytes = 64 << 10

// Open returns the embedded store in dir (created 0700 when missing, refused when another user
// owns it or can write it) bounded by limits. lockTimeout 0 means DefaultLockTimeout. A
// MaxContentBytes above MaxBytes is lowered to it.
func Open(dir string, limits Limits, lockTimeout time.Duration) (Store, error) {
	if err := statedir.EnsurePrivate(dir); err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "blobs"), 0o700); err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	if lockTimeout <= 0 {
		lockTimeout = DefaultLockTimeout
	}
	if limits.MaxContentBytes > limits.MaxBytes {
		limits.MaxContentBytes = limits.MaxBytes
	}
	return &boltStore{dir: dir, limits: limits, timeout: lockTimeout, now: time.Now, h: holdOf(dir)}, nil
}

// ErrDamaged wraps the failure of an operation that found history.db damaged (bbolt refused or
// panicked on it) or not a regular file of this user: the file was set aside (Damaged.Aside) and
// the next operation starts an empty store.
var ErrDamaged = errors.New("history: the store's database is damaged")

// Damaged is the error of an operation that set history.db aside.
type Damaged struct {
	Aside string // where the file went ("" when it could not be moved)
	Cause error
}

func (e *Damaged) Error() string {
	if e.Aside == "" {
		return fmt.Sprintf("history: the store's database is damaged (%v); it could not be set aside", e.Cause)
	}
	return fmt.Sprintf("history: the store's database is damaged (%v); set aside as %s, the store starts empty", e.Cause, e.Aside)
}

func (e *Damaged) Unwrap() []error { return []error{ErrDamaged, e.Cause} }

// with runs fn with the database open.
func (s *boltStore) with(fn func(db *bolt.DB) error) error {
	return s.open(false, fn)
}

// open runs fn with the database open; noSync commits without fsync. The database stays open
// after fn (hold) until HoldIdle passes without an operation or another process waits for it. The
// wait for another process's hold is the lock timeout, or what is left of the store's budget
// (Within). A damaged database (a bbolt error or panic on its pages) or a history.db that is not a
// regular file of this user is set aside (quarantine) and the operation fails with *Damaged.
func (s *boltStore) open(noSync bool, fn func(db *bolt.DB) error) error {
	return s.run(noSync, false, fn)
}

// run is open; absorb says fn commits what the hold deferred (journaled records, completions)
// itself, in its own transaction (applyPending), otherwise that is committed before fn runs.
func (s *boltStore) run(noSync, absorb bool, fn func(db *bolt.DB) error) (err error) {
	h := s.h
	h.mu.Lock()
	defer h.mu.Unlock()
	h.gen++
	h.store = s
	path := filepath.Join(s.dir, "history.db")
	defer func() {
		if v := recover(); v != nil {
			h.release()
			err = s.quarantine(path, fmt.Errorf("bbolt: %v", v))
		}
	}()
	db := h.current(path)
	held, writes := db != nil, int64(0)
	if held {
		writes = fileWrites(db)
	}
	if db == nil {
		timeout := s.timeout
		if s.budget != nil {
			timeout = min(timeout, s.budget.left())
			if timeout <= 0 {
				timeout = time.Nanosecond // one try, no wait (0 would mean wait for ever)
			}
		}
		start := time.Now()
		h.yield(timeout)
		db, err = h.openDB(path, max(timeout-time.Since(start), time.Nanosecond))
		if s.budget != nil {
			s.budget.spend(time.Since(start))
		}
		if err != nil {
			switch {
			case errors.Is(err, bolterrors.ErrTimeout):
				return fmt.Errorf("history: the store is busy (another process held it for %s): %w", timeout, err)
			case damage(err):
				return s.quarantine(path, err)
			}
			return fmt.Errorf("history: %w", err)
		}
		h.db = db
		h.listen()
		h.openJournal()
		if err := s.replay(db); err != nil {
			h.release()
			if damage(err) {
				return s.quarantine(path, err)
			}
			return fmt.Errorf("history: %w", err)
		}
	}
	if !absorb && (len(h.done) > 0 || len(h.pending) > 0) {
		folding := len(h.pending) > 0
		if err := h.flush(); damage(err) {
			h.release()
			return s.quarantine(path, err)
		} else if err != nil && folding {
			// The journaled records stay in the journal: the next open replays them.
			h.release()
			return fmt.Errorf("history: %w", err)
		}
		// A completion that failed to commit stays pending: the next start settles it.
	}
	db.NoSync = noSync
	err = fn(db)
	if damage(err) {
		h.release()
		return s.quarantine(path, err)
	}
	// An operation that wrote nothing to the file (a journaled Add, a read) leaves it as stamped.
	h.kept(held && h.db == db && fileWrites(db) == writes)
	return err
}

// fileWrites is how many page writes the commits of db have made so far.
func fileWrites(db *bolt.DB) int64 {
	st := db.Stats()
	return st.TxStats.GetWrite()
}

// damage reports whether err says the database file cannot be used as it is.
func damage(err error) bool {
	return errors.Is(err, statedir.ErrRefused) || errors.Is(err, bolterrors.ErrInvalid) || errors.Is(err, bolterrors.ErrChecksum) ||
		errors.Is(err, bolterrors.ErrVersionMismatch) || errors.Is(err, bolterrors.ErrInvalidMapping)
}

func closeQuietly(db *bolt.DB) (err error) {
	defer func() { _ = recover() }()
	return db.Close()
}

// quarantine moves history.db aside, "history.db.<unix nanoseconds>.damaged", and returns the
// *Damaged error of the operation.
func (s *boltStore) quarantine(path string, cause error) error {
	aside := fmt.Sprintf("%s.%d.damaged", path, time.Now().UnixNano())
	if err := os.Rename(path, aside); err != nil {
		aside = ""
	}
	return &Damaged{Aside: aside, Cause: cause}
}

func seqKey(n uint64) []byte { return binary.BigEndian.AppendUint64(nil, n) }

func (s *boltStore) Add(r Record, content io.Reader) (Record, error) {
	err := s.run(false, true, func(db *bolt.DB) error {
		var blob *pendingBlob
		if content != nil {
			var err error
			if blob, err = s.stage(content, r.Size); err != nil {
				return err
			}
			defer blob.discard()
			r.Digest, r.Size, r.Kept = blob.digest, blob.size, blob.path != "" || blob.data != nil
		}
		if s.h.journalable(s, &r, blob) {
			return s.h.journalAdd(&r, blob)
		}
		var drop []string
		err := db.Update(func(tx *bolt.Tx) error {
			recs, blobs, meta, err := buckets(tx)
			if err != nil {
				return err
			}
			if _, err := s.applyPending(tx, recs, blobs, meta); err != nil {
				return err
			}
			seq, err := recs.NextSequence()
			if err != nil {
				return err
			}
			r.ID = changeID(seq)
			if r.Kept {
				if err := addRef(tx, blobs, meta, blob); err != nil {
					return err
				}
			}
			if r.Undoes != "" {
				if err := markUndone(recs, r.Undoes, r.ID); err != nil {
					return err
				}
			}
			if err := putRecord(recs, seq, &r); err != nil {
				return err
			}
			s.h.last = lastRecord{seq: seq, data: bytes.Clone(recs.Get(seqKey(seq))), rec: r}
			drop, err = s.prune(recs, blobs, meta, seq)
			if err != nil {
				return err
			}
			s.h.seq, s.h.usage = seq, total(meta)+counter(meta, recordBytesKey)
			if s.h.journal != nil && s.h.journalID == "" {
				s.h.journalID, err = journalIDOf(meta)
			}
			return err
		})
		if err != nil {
			return err
		}
		s.h.committed = true
		s.settled(drop)
		return nil
	})
	return r, err
}

func buckets(tx *bolt.Tx) (recs, blobs, meta *bolt.Bucket, err error) {
	if recs, err = tx.CreateBucketIfNotExists(recordsBucket); err != nil {
		return
	}
	if _, err = tx.CreateBucketIfNotExists(inlineBucket); err != nil {
		return
	}
	if blobs, err = tx.CreateBucketIfNotExists(blobsBucket); err != nil {
		return
	}
	meta, err = tx.CreateBucketIfNotExists(metaBucket)
	return
}

func putRecord(recs *bolt.Bucket, seq uint64, r *Record) error {
	old := len(recs.Get(seqKey(seq)))
	n, err := writeRecord(recs, seq, r)
	if err != nil {
		return err
	}
	countRecords(recs, int64(n-old))
	return nil
}

// writeRecord puts r at seq and returns the size stored; counting it (countRecords) is the
// caller's: a fold counts its new records once.
func writeRecord(recs *bolt.Bucket, seq uint64, r *Record) (int, error) {
	data, err := marshalRecord(r)
	if err != nil {
		return 0, err
	}
	return len(data), recs.Put(seqKey(seq), data)
}

// deleteRecord deletes the record of seq, uncounting its bytes.
func deleteRecord(recs *bolt.Bucket, seq uint64) error {
	key := seqKey(seq)
	n := int64(len(recs.Get(key)))
	if err := recs.Delete(key); err != nil {
		return err
	}
	countRecords(recs, -n)
	return nil
}

// countRecords adds delta to the bytes the records take (recordBytesKey), which count against
// MaxBytes with the content: a record without content (a creation, a file over MaxContentBytes)
// still costs its own size.
func countRecords(recs *bolt.Bucket, delta int64) {
	if meta := recs.Tx().Bucket(metaBucket); meta != nil {
		setCounter(meta, recordBytesKey, counter(meta, recordBytesKey)+delta)
	}
}

func markUndone(recs *bolt.Bucket, id, by string) error {
	seq, ok := ParseChangeID(id)
	if !ok {
		return nil
	}
	data := recs.Get(seqKey(seq))
	if data == nil {
		return nil // pruned meanwhile
	}
	var t Record
	if err := json.Unmarshal(data, &t); err != nil {
		return err
	}
	t.UndoneBy = by
	return putRecord(recs, seq, &t)
}

// addRef counts a reference to the staged blob, publishing it when it is new.
func addRef(tx *bolt.Tx, blobs, meta *bolt.Bucket, b *pendingBlob) error {
	var e blobEntry
	if data := blobs.Get([]byte(b.digest)); data != nil {
		if err := json.Unmarshal(data, &e); err != nil {
			return err
		}
	}
	if e.Refs == 0 {
		if b.data != nil {
			if err := tx.Bucket(inlineBucket).Put([]byte(b.digest), b.data); err != nil {
				return err
			}
			e.Inline = true
		} else if err := b.publish(); err != nil {
			return err
		}
		e.Size = b.size
		setTotal(meta, total(meta)+b.size)
	}
	e.Refs++
	data, _ := json.Marshal(e)
	return blobs.Put([]byte(b.digest), data)
}

func total(meta *bolt.Bucket) int64 { return counter(meta, bytesKey) }

func setTotal(meta *bolt.Bucket, n int64) { setCounter(meta, bytesKey, n) }

func counter(meta *bolt.Bucket, key []byte) int64 {
	if v := meta.Get(key); len(v) == 8 {
		return int64(binary.BigEndian.Uint64(v))
	}
	return 0
}

func setCounter(meta *bolt.Bucket, key []byte, n int64) {
	_ = meta.Put(key, binary.BigEndian.AppendUint64(nil, uint64(max(n, 0))))
}

// prune deletes the oldest records while the content and the records exceed MaxBytes or they are older than
// MaxAge, never the record just added (newest); it returns the digests left without a reference.
func (s *boltStore) prune(recs, blobs, meta *bolt.Bucket, newest uint64) ([]string, error) {
	var drop []string
	cutoff := s.now().Add(-s.limits.MaxAge)
	c := recs.Cursor()
	for k, v := c.First(); k != nil; k, v = c.First() {
		seq := binary.BigEndian.Uint64(k)
		if seq == newest {
			break
		}
		r, err := s.h.oldestOf(seq, v)
		if err != nil {
			return nil, err
		}
		over := s.limits.MaxBytes > 0 && total(meta)+counter(meta, recordBytesKey) > s.limits.MaxBytes
		old := s.limits.MaxAge > 0 && r.Time.Before(cutoff)
		if !over && !old {
			break
		}
		n := int64(len(v))
		if err := c.Delete(); err != nil {
			return nil, err
		}
		countRecords(recs, -n)
		if r.Kept {
			gone, err := dropRef(blobs, meta, r.Digest)
			if err != nil {
				return nil, err
			}
			if gone {
				drop = append(drop, r.Digest)
			}
		}
	}
	return drop, nil
}

func dropRef(blobs, meta *bolt.Bucket, digest string) (bool, error) {
	data := blobs.Get([]byte(digest))
	if data == nil {
		return false, nil
	}
	var e blobEntry
	if err := json.Unmarshal(data, &e); err != nil {
		return false, err
	}
	if e.Refs--; e.Refs > 0 {
		data, _ = json.Marshal(e)
		return false, blobs.Put([]byte(digest), data)
	}
	setTotal(meta, total(meta)-e.Size)
	if e.Inline {
		if err := blobs.Tx().Bucket(inlineBucket).Delete([]byte(digest)); err != nil {
			return false, err
		}
		return false, blobs.Delete([]byte(digest)) // no file to remove
	}
	return true, blobs.Delete([]byte(digest))
}

func (s *boltStore) List(m Match, keep func(*Record) bool) ([]Record, error) {
	if m.Pending {
		return s.listPending(m, keep)
	}
	var out []Record
	marks := m.marks()
	err := s.with(func(db *bolt.DB) error {
		return db.View(func(tx *bolt.Tx) error {
			recs := tx.Bucket(recordsBucket)
			if recs == nil {
				return nil
			}
			c := recs.Cursor()
			for k, v := c.Last(); k != nil; k, v = c.Prev() {
				if !holdsAll(v, marks) {
					continue
				}
				var r Record
				if err := json.Unmarshal(v, &r); err != nil {
					return err
				}
				if m.holds(&r) && (keep == nil || keep(&r)) {
					out = append(out, r)
				}
			}
			return nil
		})
	})
	return out, err
}

// listPending is List of pending records: it reads the records after notPendingKey only, and
// moves that mark up to just below the oldest pending record it finds (every start settles the
// pending records: without the mark each would read the whole history).
func (s *boltStore) listPending(m Match, keep func(*Record) bool) ([]Record, error) {
	var out []Record
	var from, through uint64
	marks := m.marks() // the pending mark first
	err := s.open(true, func(db *bolt.DB) error {
		err := db.View(func(tx *bolt.Tx) error {
			recs := tx.Bucket(recordsBucket)
			if recs == nil {
				return nil
			}
			if meta := tx.Bucket(metaBucket); meta != nil {
				if v := meta.Get(notPendingKey); len(v) == 8 {
					from = binary.BigEndian.Uint64(v)
				}
			}
			through = from
			oldest := uint64(0) // the oldest pending record's sequence
			c := recs.Cursor()
			for k, v := c.Seek(seqKey(from + 1)); k != nil; k, v = c.Next() {
				seq := binary.BigEndian.Uint64(k)
				if oldest == 0 {
					through = seq
				}
				if !bytes.Contains(v, marks[0]) { // not pending
					continue
				}
				var r Record
				if err := json.Unmarshal(v, &r); err != nil {
					return err
				}
				if !r.Pending {
					continue
				}
				if oldest == 0 {
					oldest, through = seq, seq-1
				}
				if holdsAll(v, marks[1:]) && m.holds(&r) && (keep == nil || keep(&r)) {
					out = append(out, r)
				}
			}
			return nil
		})
		if err != nil || through <= from {
			return err
		}
		return db.Update(func(tx *bolt.Tx) error { // lost in a crash, the mark is only lower: more to read
			meta, err := tx.CreateBucketIfNotExists(metaBucket)
			if err != nil {
				return err
			}
			if v := meta.Get(notPendingKey); len(v) == 8 && binary.BigEndian.Uint64(v) >= through {
				return nil
			}
			return meta.Put(notPendingKey, binary.BigEndian.AppendUint64(nil, through))
		})
	})
	slices.Reverse(out) // newest first
	return out, err
}

// holdsAll reports whether v holds every mark.
func holdsAll(v []byte, marks [][]byte) bool {
	for _, mark := range marks {
		if !bytes.Contains(v, mark) {
			return false
		}
	}
	return true
}

// marks returns the bytes a stored record (json.Marshal of a Record) holds when m matches it: a
// record without one of them is not decoded. A record that holds them all is checked field by
// field after decoding (holds): the bytes could stand inside another field's value.
func (m Match) marks() [][]byte {
	var out [][]byte
	if m.Pending {
		out = append(out, []byte(`"pending":true`))
	}
	for _, f := range []struct{ name, value string }{{"key", m.Key}, {"group", m.Group}} {
		if f.value != "" {
			v, _ := json.Marshal(f.value)
			out = append(out, append([]byte(`"`+f.name+`":`), v...))
		}
	}
	return out
}

// holds reports whether m matches r.
func (m Match) holds(r *Record) bool {
	return (!m.Pending || r.Pending) && (m.Key == "" || r.Key == m.Key) && (m.Group == "" || r.Group == m.Group)
}

func (s *boltStore) Get(id string) (Record, error) {
	seq, ok := ParseChangeID(id)
	if !ok {
		return Record{}, ErrNoChange
	}
	var r Record
	found := false
	err := s.with(func(db *bolt.DB) error {
		return db.View(func(tx *bolt.Tx) error {
			recs := tx.Bucket(recordsBucket)
			if recs == nil {
				return nil
			}
			data := recs.Get(seqKey(seq))
			if data == nil {
				return nil
			}
			found = true
			return json.Unmarshal(data, &r)
		})
	})
	if err == nil && !found {
		err = ErrNoChange
	}
	return r, err
}

func (s *boltStore) Usage() (Usage, error) {
	var u Usage
	err := s.with(func(db *bolt.DB) error {
		return db.View(func(tx *bolt.Tx) error {
			if b := tx.Bucket(recordsBucket); b != nil {
				u.Records = b.Stats().KeyN
			}
			if b := tx.Bucket(blobsBucket); b != nil {
				u.Contents = b.Stats().KeyN
			}
			if b := tx.Bucket(metaBucket); b != nil {
				u.ContentBytes = total(b)
			}
			return nil
		})
	})
	if err != nil {
		return u, err
	}
	u.FileBytes = diskBytes(s.dir)
	return u, nil
}

func (s *boltStore) Sweep() error {
	return s.with(func(db *bolt.DB) error {
		known := map[string]bool{}
		err := db.View(func(tx *bolt.Tx) error {
			b := tx.Bucket(blobsBucket)
			if b == nil {
				return nil
			}
			return b.ForEach(func(k, _ []byte) error {
				known[string(k)] = true
				return nil
			})
		})
		if err != nil {
			return err
		}
		if err := db.Update(s.pruneObservations); err != nil {
			return err
		}
		return s.sweepFiles(known)
	})
}

// update runs fn on the record of id in a write transaction (without fsync).
func (s *boltStore) update(id string, fn func(recs, blobs, meta *bolt.Bucket, seq uint64, r *Record) ([]string, error)) error {
	seq, ok := ParseChangeID(id)
	if !ok {
		return ErrNoChange
	}
	return s.open(true, func(db *bolt.DB) error {
		var drop []string
		err := db.Update(func(tx *bolt.Tx) error {
			recs, blobs, meta, err := buckets(tx)
			if err != nil {
				return err
			}
			data := recs.Get(seqKey(seq))
			if data == nil {
				return ErrNoChange
			}
			var r Record
			if err := json.Unmarshal(data, &r); err != nil {
				return err
			}
			drop, err = fn(recs, blobs, meta, seq, &r)
			return err
		})
		for _, d := range drop {
			os.Remove(s.blobPath(d))
		}
		return err
	})
}

// Complete is deferred while this process holds the database: the next operation commits it
// (Add in its own transaction), and so does the hold's release. A crash before that leaves the
// record pending, which the next start settles as it settles a killed change (docs/history.md
// "Crash safety"); a commit of Complete never had to be durable.
func (s *boltStore) Complete(id, versionAfter string, interrupted bool) error {
	seq, ok := ParseChangeID(id)
	if !ok {
		return ErrNoChange
	}
	if s.h.postpone(completion{seq: seq, versionAfter: versionAfter, interrupted: interrupted}) {
		return nil
	}
	return s.update(id, func(recs, _, _ *bolt.Bucket, seq uint64, r *Record) ([]string, error) {
		r.Pending, r.VersionAfter, r.Interrupted, r.PID = false, versionAfter, interrupted, 0
		return nil, putRecord(recs, seq, r)
	})
}

func (s *boltStore) Discard(id string) error {
	return s.update(id, func(recs, blobs, meta *bolt.Bucket, seq uint64, r *Record) ([]string, error) {
		if r.Undoes != "" {
			if err := markUndone(recs, r.Undoes, ""); err != nil {
				return nil, err
			}
		}
		if err := deleteRecord(recs, seq); err != nil || !r.Kept {
			return nil, err
		}
		gone, err := dropRef(blobs, meta, r.Digest)
		if err != nil || !gone {
			return nil, err
		}
		return []string{r.Digest}, nil
	})
}

// inline returns the content of digest kept in the database (nil when it is in a file).
func (s *boltStore) inline(digest string) ([]byte, error) {
	var out []byte
	err := s.with(func(db *bolt.DB) error {
		return db.View(func(tx *bolt.Tx) error {
			if b := tx.Bucket(inlineBucket); b != nil {
				if v := b.Get([]byte(digest)); v != nil {
					out = append([]byte{}, v...)
				}
			}
			return nil
		})
	})
	return out, err
}
