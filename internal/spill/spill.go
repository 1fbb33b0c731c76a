// Package spill stores complete tool results that were too large to show inline: each result is
// one new file in a private directory (0700), written to a temporary name and renamed into place
// (0600, "<random id>.txt"), so a reader never sees a partial file. Files older than a day are
// swept.
package spill

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// MaxAge is the age past which Sweep removes a spill file.
const MaxAge = 24 * time.Hour

// Store is a spill directory.
type Store struct {
	dir string
}

// New returns the store in dir (an absolute path; created on first use).
func New(dir string) *Store { return &Store{dir: dir} }

// Writer is one spill being written. Write to it, then Commit (or Abort).
type Writer struct {
	*bufio.Writer
	s    *Store
	f    *os.File
	id   string
	done bool
}

// Create starts a new spill file.
func (s *Store) Create() (*Writer, error) {
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
	return &Writer{Writer: bufio.NewWriterSize(f, 64<<10), s: s, f: f, id: id}, nil
}

// Commit publishes what was written, preceded by header, and returns the file's absolute path.
// On failure nothing is left behind.
func (w *Writer) Commit(header string) (string, error) {
	if w.done {
		return "", errors.New("spill: already finished")
	}
	w.done = true
	tmp := w.f.Name()
	final := filepath.Join(w.s.dir, w.id+".txt")
	err := w.Flush()
	if err == nil && header != "" {
		err = w.prepend(header, final)
	} else if err == nil {
		if err = w.f.Sync(); err == nil {
			err = os.Rename(tmp, final)
		}
	}
	cerr := w.f.Close()
	os.Remove(tmp)
	if err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(final)
		return "", fmt.Errorf("spill: %w", err)
	}
	return final, nil
}

// prepend writes header followed by the body written so far to a second temporary file and
// renames that into place.
func (w *Writer) prepend(header, final string) error {
	out, err := os.OpenFile(filepath.Join(w.s.dir, "."+w.id+".hdr.tmp"), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	defer os.Remove(out.Name())
	if _, err = w.f.Seek(0, io.SeekStart); err == nil {
		if _, err = io.WriteString(out, header); err == nil {
			if _, err = io.Copy(out, w.f); err == nil {
				err = out.Sync()
			}
		}
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(out.Name(), final)
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

// Sweep removes the spill files (and abandoned temporaries) last modified before now-MaxAge.
func (s *Store) Sweep(now time.Time) error {
	ents, err := os.ReadDir(s.dir)
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
		if err := os.Remove(filepath.Join(s.dir, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
