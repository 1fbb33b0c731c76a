package diagnostics

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// textOf reads a tracked file's text for its late reports: at most maxFileBytes, never a file
// that holds more than that (one grown since its stat, or a /proc file whose stat says 0 bytes),
// and never blocking on a FIFO put in its place.
func TestTextOfIsBoundedAndNeverBlocks(t *testing.T) {
	p := &plugin{cfg: Config{MaxFileBytes: 16}}
	dir := t.TempDir()
	small := filepath.Join(dir, "a.go")
	require.NoError(t, os.WriteFile(small, []byte("\uFEFFpackage a\n"), 0o644))
	assert.Equal(t, "package a\n", p.textOf(small), "the text, without its BOM")

	big := filepath.Join(dir, "b.go")
	require.NoError(t, os.WriteFile(big, []byte("package b // more than sixteen bytes\n"), 0o644))
	assert.Empty(t, p.textOf(big))
	assert.Empty(t, p.textOf("/proc/self/maps"), "a file that holds more than its stat says")

	fifo := filepath.Join(dir, "c.go")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	done := make(chan string, 1)
	go func() { done <- p.textOf(fifo) }()
	select {
	case got := <-done:
		assert.Empty(t, got)
	case <-time.After(10 * time.Second):
		t.Fatal("textOf blocked on a FIFO")
	}
}
