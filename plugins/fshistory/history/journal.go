package history

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"

	bolt "go.etcd.io/bbolt"

	"github.com/cordon-dev/cordon/internal/statedir"
)

// The journal (docs/history.md "The store"): while this process holds the database, an Add after
// the hold's first is appended to history.journal as one checksummed frame and flushed with one
// fdatasync, instead of a database transaction (which flushes twice and rewrites a page per
// bucket it touches). The journaled records are folded into the database in one transaction
// before any other operation reads or changes it, before the hold lets go (idle, contended,
// Close), and once the journal holds journalMaxRecords records or journalMaxBytes bytes; a
// process that opens the database replays what a killed holder left. A record is in the
// database once its sequence is at most the records bucket's: replaying a frame twice changes
// nothing, so the journal starts over (emptyJournal) without a flush of its own.
const (
	journalFile       = "history.journal"
	journalMaxRecords = 64
	journalMaxBytes   = 1 << 20
	// journalMaxRead bounds what a replay reads of a journal (a file grown past what this
	// process ever writes was not written by it: the rest counts as torn).
	journalMaxRead = 4 * journalMaxBytes
)

// journaled is one record written to the journal and not yet folded: its sequence, the record
// (with its ID) and its inline content (nil without one).
type journaled struct {
	DB     string       `json:"db"`             // the database it was written for (journalIDKey)
	Done   []completion `json:"done,omitempty"` // completions deferred before it, committed with it
	Seq    uint64       `json:"seq"`
	Record Record       `json:"record"`
	data   []byte
	// completed says Record carries its completion already (postpone): the fold skips it.
	completed bool
}

// carried reports whether the journaled record of seq carries its completion.
func (h *hold) carried(seq uint64) bool {
	if len(h.pending) == 0 || seq < h.pending[0].Seq {
		return false
	}
	for i := range h.pending {
		if h.pending[i].Seq == seq {
			return h.pending[i].completed
		}
	}
	return false
}

// journalIDKey (metaBucket) is a random name the database gets for its journal frames: a frame
// written for a database since moved, replaced or set aside is not replayed into another one.
var journalIDKey = []byte("journalID")

// journalIDOf returns the database's journal name, giving it one when it has none.
func journalIDOf(meta *bolt.Bucket) (string, error) {
	if v := meta.Get(journalIDKey); len(v) > 0 {
		return string(v), nil
	}
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	id := hex.EncodeToString(b[:])
	return id, meta.Put(journalIDKey, []byte(id))
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// appendFrame appends the frame of e: the lengths of its JSON and its content (little-endian
// uint32 each), the JSON, the content, and the CRC-32C of both.
func appendFrame(b []byte, e *journaled) ([]byte, error) {
	head, sum, err := frameParts(e)
	if err != nil {
		return nil, err
	}
	return append(append(append(b, head...), e.data...), sum[:]...), nil
}

// frameParts returns the frame of e but its content: the head (the lengths and the JSON) and
// the checksum that follows the content.
func frameParts(e *journaled) (head []byte, sum [4]byte, err error) {
	js, err := marshalJournaled(e)
	if err != nil {
		return nil, sum, err
	}
	head = make([]byte, 8, 8+len(js))
	binary.LittleEndian.PutUint32(head, uint32(len(js)))
	binary.LittleEndian.PutUint32(head[4:], uint32(len(e.data)))
	head = append(head, js...)
	crc := crc32.Update(crc32.Checksum(js, castagnoli), castagnoli, e.data)
	binary.LittleEndian.PutUint32(sum[:], crc)
	return head, sum, nil
}

// parseFrames returns the whole frames at the start of b, in order; it stops at the first frame
// that is cut short or fails its checksum (what a write a kill interrupted leaves).
func parseFrames(b []byte) []journaled {
	var out []journaled
	for len(b) >= 8 {
		jl, dl := int(binary.LittleEndian.Uint32(b)), int(binary.LittleEndian.Uint32(b[4:]))
		if jl > journalMaxBytes || dl > InlineMaxBytes || len(b) < 8+jl+dl+4 {
			break
		}
		body := b[8 : 8+jl+dl]
		if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(b[8+jl+dl:]) {
			break
		}
		var e journaled
		if json.Unmarshal(body[:jl], &e) != nil || e.Seq == 0 {
			break
		}
		if dl > 0 {
			e.data = body[jl:]
		}
		out = append(out, e)
		b = b[8+jl+dl+4:]
	}
	return out
}

// openJournal opens the journal beside the database (refused as the database is when it is not
// a private regular file); without it every Add commits its own transaction.
func (h *hold) openJournal() {
	f, err := statedir.OpenFile(filepath.Join(h.dir, journalFile), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return
	}
	h.journal, h.journalEnd = f, 0
}

// closeJournal closes the journal; what it holds stays for the next hold to replay.
func (h *hold) closeJournal() {
	if h.journal != nil {
		_ = h.journal.Close()
		h.journal = nil
	}
	h.pending, h.pendingBytes, h.journalEnd, h.journalID = nil, 0, 0, ""
}

// replay folds what the journal holds (a killed holder's records) into db, flushed, then empties
// it. It leaves the hold's sequence and usage alone: nothing is journaled before the hold's first
// Add has committed, and that commit sets them.
func (s *boltStore) replay(db *bolt.DB) error {
	h := s.h
	if h.journal == nil {
		return nil
	}
	b, err := io.ReadAll(io.LimitReader(h.journal, journalMaxRead))
	if err != nil {
		h.closeJournal()
		return nil
	}
	if len(b) == 0 {
		return nil
	}
	var id string
	if err := db.View(func(tx *bolt.Tx) error {
		if meta := tx.Bucket(metaBucket); meta != nil {
			id = string(meta.Get(journalIDKey))
		}
		return nil
	}); err != nil {
		return err
	}
	for _, e := range parseFrames(b) {
		if e.DB == id && id != "" {
			h.pending = append(h.pending, e)
		}
	}
	if len(h.pending) > 0 {
		db.NoSync = false
		if err := s.fold(db); err != nil {
			h.pending = nil
			return err
		}
	}
	h.emptyJournal(true)
	return nil
}

// emptyJournal starts the journal over once what it held is in the database: the next frame goes
// at its start, over the folded ones, so the file keeps its size and a frame's fdatasync flushes
// its data alone (a file grown again after each truncation would flush its size and new blocks
// too). Frames left after the last one written are folded ones, skipped by a replay by their
// sequence, or cut by it (a frame written over part of one fails its checksum). A replay truncates
// (truncate): nothing written since needs its blocks.
func (h *hold) emptyJournal(truncate bool) {
	if truncate && h.journal != nil && h.journal.Truncate(0) != nil {
		h.closeJournal() // a journal that cannot be emptied is not written again in this hold
	}
	h.pending, h.pendingBytes, h.journalEnd = nil, 0, 0
}

// journalable reports whether an Add of r with blob may be journaled: the journal is open, the
// hold committed once already, the content (if kept) is inline, the journal has room, and the
// store stays within MaxBytes counting what the journal holds.
func (h *hold) journalable(s *boltStore, r *Record, blob *pendingBlob) bool {
	if h.journal == nil || !h.committed || h.journalID == "" || r.Undoes != "" || len(h.pending) >= journalMaxRecords {
		return false
	}
	if blob != nil && blob.path != "" { // content in a file: published by a transaction of its own
		return false
	}
	n := int64(0)
	if blob != nil {
		n = int64(len(blob.data))
	}
	if h.pendingBytes+n > journalMaxBytes {
		return false
	}
	const recordBytes = 1 << 10 // more than a record's JSON takes
	return s.limits.MaxBytes <= 0 || h.usage+h.pendingBytes+n+int64(len(h.pending)+1)*recordBytes <= s.limits.MaxBytes
}

// journalAdd assigns r its ID and appends it (and its inline content) to the journal, flushed.
// The content is written from the caller's bytes and kept until the fold without a copy: stage
// hands over bytes it read itself or a Known content, which does not change.
func (h *hold) journalAdd(r *Record, blob *pendingBlob) error {
	e := journaled{DB: h.journalID, Done: h.done, Seq: h.seq + 1, Record: *r}
	e.Record.ID = changeID(e.Seq)
	if blob != nil && r.Kept {
		e.data = blob.data
	}
	head, sum, err := frameParts(&e)
	if err != nil {
		return err
	}
	n, err := writeFrame(h.journal, h.journalEnd, head, e.data, sum[:])
	if err != nil {
		return err
	}
	if err := datasync(h.journal); err != nil {
		return err
	}
	h.journalEnd += n
	h.done = nil // carried by the frame: committed with its record
	h.seq = e.Seq
	h.pending = append(h.pending, e)
	h.pendingBytes += int64(len(e.data))
	*r = e.Record
	return nil
}

// fold commits the journaled records and the deferred completions in one flushed transaction,
// prunes, and empties the journal.
func (s *boltStore) fold(db *bolt.DB) error {
	h := s.h
	var drop []string
	err := db.Update(func(tx *bolt.Tx) error {
		recs, blobs, meta, err := buckets(tx)
		if err != nil {
			return err
		}
		newest, err := s.applyPending(tx, recs, blobs, meta)
		if err != nil {
			return err
		}
		if newest > 0 {
			if drop, err = s.prune(recs, blobs, meta, newest); err != nil {
				return err
			}
		}
		h.usage = total(meta) + counter(meta, recordBytesKey)
		return nil
	})
	if err != nil {
		return err
	}
	s.settled(drop)
	return nil
}

// applyPending writes what the hold deferred in the transaction of recs: the journaled records,
// then the completions since the last frame. It returns the sequence of the last record written
// (0: none).
func (s *boltStore) applyPending(tx *bolt.Tx, recs, blobs, meta *bolt.Bucket) (uint64, error) {
	newest, err := s.applyJournal(tx, recs, blobs, meta)
	if err != nil {
		return 0, err
	}
	return newest, s.h.applyCompletions(recs)
}

// settled forgets what a commit of applyPending made durable and removes the contents that commit
// left without a reference.
func (s *boltStore) settled(drop []string) {
	s.h.done = s.h.done[:0]
	s.h.emptyJournal(false)
	for _, d := range drop {
		os.Remove(s.blobPath(d))
	}
}

// applyJournal writes the journaled records in the transaction of recs, in order (a record
// already in the database, its sequence at most the bucket's, is skipped), and returns the
// sequence of the last one written (0: none).
func (s *boltStore) applyJournal(tx *bolt.Tx, recs, blobs, meta *bolt.Bucket) (uint64, error) {
	h := s.h
	var last uint64
	var lastRec Record
	var added int64 // the bytes of the records written: new keys, counted once at the end
	for i := range h.pending {
		e := &h.pending[i]
		if e.Seq <= recs.Sequence() { // the sequence is the bucket's before this fold
			continue
		}
		if err := h.complete(recs, e.Done); err != nil {
			return 0, err
		}
		r := e.Record
		if r.Kept {
			if e.data == nil || int64(len(e.data)) != r.Size {
				r.Kept = false // content that did not reach the journal: the digest only
			} else if err := addRef(tx, blobs, meta, &pendingBlob{s: s, digest: r.Digest, size: r.Size, data: e.data}); err != nil {
				return 0, err
			}
		}
		n, err := writeRecord(recs, e.Seq, &r)
		if err != nil {
			return 0, err
		}
		added += int64(n)
		last, lastRec = e.Seq, r
	}
	if last > 0 {
		countRecords(recs, added)
		if err := recs.SetSequence(last); err != nil {
			return 0, err
		}
		h.last = lastRecord{seq: last, data: bytes.Clone(recs.Get(seqKey(last))), rec: lastRec}
	}
	return last, nil
}
