package auditlog

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// ErrClosed is returned by WriteLine after Close.
var ErrClosed = errors.New("audit-log: writer closed")

// rotating appends lines to a file and rotates it by size.
type rotating struct {
	path     string
	maxBytes int64
	maxFiles int

	mu   sync.Mutex
	f    *os.File
	size int64
}

func openRotating(path string, maxBytes int64, maxFiles int) (*rotating, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("audit-log: %w", err)
	}
	w := &rotating{path: path, maxBytes: maxBytes, maxFiles: maxFiles}
	if err := w.open(); err != nil {
		return nil, err
	}
	return w, nil
}

func (w *rotating) open() error {
	f, err := os.OpenFile(w.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("audit-log: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return fmt.Errorf("audit-log: %w", err)
	}
	w.f, w.size = f, st.Size()
	return nil
}

// WriteLine appends line and a newline, rotating first when the file would exceed maxBytes (a line
// longer than maxBytes still goes into a fresh file of its own).
func (w *rotating) WriteLine(line []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil {
		return ErrClosed
	}
	n := int64(len(line)) + 1
	if w.size > 0 && w.size+n > w.maxBytes {
		if err := w.rotate(); err != nil {
			return err
		}
	}
	buf := make([]byte, 0, n)
	buf = append(append(buf, line...), '\n')
	written, err := w.f.Write(buf)
	w.size += int64(written)
	if err != nil {
		return fmt.Errorf("audit-log: %w", err)
	}
	return nil
}

// rotate shifts path.i to path.i+1 (dropping path.maxFiles), moves path to path.1 and reopens path.
func (w *rotating) rotate() error {
	if err := w.f.Close(); err != nil {
		return fmt.Errorf("audit-log: %w", err)
	}
	w.f = nil
	_ = os.Remove(w.rotated(w.maxFiles))
	for i := w.maxFiles - 1; i >= 1; i-- {
		if err := os.Rename(w.rotated(i), w.rotated(i+1)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("audit-log: %w", err)
		}
	}
	if err := os.Rename(w.path, w.rotated(1)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("audit-log: %w", err)
	}
	return w.open()
}

func (w *rotating) rotated(i int) string { return fmt.Sprintf("%s.%d", w.path, i) }

// Close closes the file; later writes fail with ErrClosed.
func (w *rotating) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil {
		return nil
	}
	err := w.f.Close()
	w.f = nil
	return err
}
