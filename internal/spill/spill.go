// Package spill stores complete tool results that were too large to show inline: each result is
// one new file in a private directory (0700), written to a temporary name and renamed into place
// (0600, "<random id>.txt"), so a reader never sees a partial file. A file holds at most
// Limits.MaxFileBytes: past it the result is cut after its last whole record and ends with a note
// saying so. The directory holds at most Limits.QuotaBytes of published files: publishing one
// removes the oldest others until the rest fit. Files older than a day are swept.
package spill

import (
	"bufio"
	"cmp"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// MaxAge is the age past which Sweep removes a spill file.
const MaxAge = 24 * time.Hour

// Limits bound a store.
type Limits struct {
	// MaxFileBytes bounds one spill file, header and note included.
	MaxFileBytes int64
	// QuotaBytes bounds the published spill files of the directory together.
	QuotaBytes int64
}

// Store is a spill directory.
type Store struct {
	dir    string
	limits Limits
}

// New returns the store in dir (an absolute path; created on first use) under limits.
func New(dir string, limits Limits) *Store { return &Store{dir: dir, limits: limits} }

// Dir is the store's directory.
func (s *Store) Dir() string { return s.dir }

// Limits are the store's limits.
func (s *Store) Limits() Limits { return s.limits }

// PathLen is the length of the path of every spill file of the store.
func (s *Store) PathLen() int { return len(filepath.Join(s.dir, strings.Repeat("0", 32)+".txt")) }

// Writer is one spill being written, record by record (EndRecord after each). Writes never fail:
// the first error is kept and reported by Commit, and past the file's limit writes are dropped
// (Cut reports it). Commit (or Abort) ends it.
type Writer struct {
	s          *Store
	f          *os.File
	bw         *bufio.Writer
	id         string
	headerRoom int
	limit      int64 // bytes of records the file may hold
	n          int64 // bytes of records written
	mark       int64 // n at the last EndRecord
	records    int
	cut        bool
	err        error
	done       bool
}

// Create starts a new spill file whose first headerRoom bytes are left for the header Commit
// writes, and whose last noteRoom bytes within the file limit are kept for the note of a cut.
func (s *Store) Create(headerRoom, noteRoom int) (*Writer, error) {
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return nil, err
	}
	if err := os.Chmod(s.dir, 0o700); err != nil {
		return nil, err
	}
	var raw [16]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return nil, err
	}
	id := hex.EncodeToString(raw[:])
	f, err := os.OpenFile(filepath.Join(s.dir, "."+id+".tmp"), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	w := &Writer{s: s, f: f, bw: bufio.NewWriterSize(f, 64<<10), id: id, headerRoom: headerRoom,
		limit: s.limits.MaxFileBytes - int64(headerRoom) - int64(noteRoom)}
	_, w.err = w.bw.WriteString(strings.Repeat(" ", headerRoom))
	return w, nil
}

// room reports whether n more bytes fit; the first that do not cut the spill.
func (w *Writer) room(n int) bool {
	if w.cut || w.err != nil {
		return false
	}
	if w.n+int64(n) > w.limit {
		w.cut = true
		return false
	}
	w.n += int64(n)
	return true
}

// Write adds p to the current record.
func (w *Writer) Write(p []byte) (int, error) {
	if w.room(len(p)) {
		_, w.err = w.bw.Write(p)
	}
	return len(p), nil
}

// WriteString adds s to the current record.
func (w *Writer) WriteString(s string) (int, error) {
	if w.room(len(s)) {
		_, w.err = w.bw.WriteString(s)
	}
	return len(s), nil
}

// WriteByte adds c to the current record.
func (w *Writer) WriteByte(c byte) error {
	if w.room(1) {
		w.err = w.bw.WriteByte(c)
	}
	return nil
}

// EndRecord ends the current record: a cut keeps every record ended before it, whole.
func (w *Writer) EndRecord() {
	if !w.cut {
		w.mark = w.n
		w.records++
	}
}

// Cut reports whether the file reached its limit (records from then on are not kept).
func (w *Writer) Cut() bool { return w.cut }

// Records is the number of records the file keeps.
func (w *Writer) Records() int { return w.records }

// Commit publishes the file: header (at most headerRoom bytes, padded with spaces) at its start,
// the records kept and, when it was cut, note after them. It returns the file's absolute path,
// then removes the store's oldest other files while they pass the quota. On failure nothing is
// left behind.
func (w *Writer) Commit(header, note string) (string, error) {
	if w.done {
		return "", errors.New("spill: already finished")
	}
	w.done = true
	final := filepath.Join(w.s.dir, w.id+".txt")
	err := w.publish(header, note, final)
	cerr := w.f.Close()
	os.Remove(w.f.Name())
	if err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(final)
		return "", fmt.Errorf("spill: %w", err)
	}
	_ = w.s.enforceQuota(final) // the file is published; an old one that cannot go now is swept later
	return final, nil
}

func (w *Writer) publish(header, note, final string) error {
	if len(header) > w.headerRoom {
		return fmt.Errorf("header of %d bytes exceeds its %d-byte room", len(header), w.headerRoom)
	}
	if w.err != nil {
		return w.err
	}
	if err := w.bw.Flush(); err != nil {
		return err
	}
	if w.cut {
		end := int64(w.headerRoom) + w.mark
		if err := w.f.Truncate(end); err != nil {
			return err
		}
		if _, err := w.f.WriteAt([]byte(note), end); err != nil {
			return err
		}
	}
	if header != "" {
		if _, err := w.f.WriteAt([]byte(header), 0); err != nil {
			return err
		}
	}
	if err := w.f.Sync(); err != nil {
		return err
	}
	return os.Rename(w.f.Name(), final)
}

// Abort discards the spill.
func (w *Writer) Abort() {
	if w.done {
		return
	}
	w.done = true
	w.f.Close()
	os.Remove(w.f.Name())
}

// enforceQuota removes the oldest published files (by modification time, then name) other than
// keep while the published files pass the quota.
func (s *Store) enforceQuota(keep string) error {
	ents, err := os.ReadDir(s.dir)
	if err != nil {
		return err
	}
	type file struct {
		name string
		size int64
		mod  time.Time
	}
	var files []file
	var total int64
	for _, e := range ents {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".txt") {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		total += info.Size()
		if filepath.Join(s.dir, e.Name()) != keep {
			files = append(files, file{e.Name(), info.Size(), info.ModTime()})
		}
	}
	slices.SortFunc(files, func(a, b file) int {
		return cmp.Or(a.mod.Compare(b.mod), strings.Compare(a.name, b.name))
	})
	var errs []error
	for _, f := range files {
		if total <= s.limits.QuotaBytes {
			break
		}
		if err := os.Remove(filepath.Join(s.dir, f.name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
			continue
		}
		total -= f.size
	}
	return errors.Join(errs...)
}

// Sweep removes the spill files (and abandoned temporaries) last modified before now-MaxAge: the
// store's own, and those of the other processes' directories beside it (ProcessDir), whose
// directories are removed too once empty and as old; spill files an earlier version left in the
// parent directory are swept as well.
func (s *Store) Sweep(now time.Time) error {
	errs := []error{sweepDir(s.dir, now)}
	parent := filepath.Dir(s.dir)
	if !isProcessDir(filepath.Base(s.dir)) {
		return errors.Join(errs...)
	}
	errs = append(errs, sweepDir(parent, now))
	ents, err := os.ReadDir(parent)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		errs = append(errs, err)
	}
	for _, e := range ents {
		if !e.IsDir() || !isProcessDir(e.Name()) || e.Name() == filepath.Base(s.dir) {
			continue
		}
		dir := filepath.Join(parent, e.Name())
		info, err := e.Info() // before the sweep, which touches the directory
		errs = append(errs, sweepDir(dir, now))
		if err == nil && info.ModTime().Before(now.Add(-MaxAge)) {
			os.Remove(dir) // fails, as it should, while the directory holds a file
		}
	}
	return errors.Join(errs...)
}

// sweepDir removes the spill files and temporaries of dir last modified before now-MaxAge.
func sweepDir(dir string, now time.Time) error {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var errs []error
	for _, e := range ents {
		name := e.Name()
		if !e.Type().IsRegular() || !(strings.HasSuffix(name, ".txt") || strings.HasSuffix(name, ".tmp")) {
			continue
		}
		info, err := e.Info()
		if err != nil || !info.ModTime().Before(now.Add(-MaxAge)) {
			continue
		}
		if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
