package toolapplypatch_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The benchmark's change: 5 files of 2,000 lines, 4 hunks in each (20 in all), each replacing one
// line in the middle of 3 lines of context on either side.
const (
	benchFiles = 5
	benchLines = 2000
	benchHunks = 4
)

func benchLine(f, i int) string {
	return fmt.Sprintf("file %d line %d: some text to make the line look real", f, i)
}

func benchSeed(b *testing.B, dir string) {
	for f := range benchFiles {
		var s strings.Builder
		for i := range benchLines {
			s.WriteString(benchLine(f, i) + "\n")
		}
		require.NoError(b, os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.txt", f)), []byte(s.String()), 0o644))
	}
}

// benchAt is the line a hunk changes.
func benchAt(h int) int { return 200 + h*450 }

func benchPatch() string {
	var s strings.Builder
	s.WriteString("*** Begin Patch\n")
	for f := range benchFiles {
		fmt.Fprintf(&s, "*** Update File: f%d.txt\n", f)
		for h := range benchHunks {
			at := benchAt(h)
			s.WriteString("@@\n")
			for i := at - 3; i < at; i++ {
				s.WriteString(" " + benchLine(f, i) + "\n")
			}
			s.WriteString("-" + benchLine(f, at) + "\n+" + benchLine(f, at) + " (changed)\n")
			for i := at + 1; i <= at+3; i++ {
				s.WriteString(" " + benchLine(f, i) + "\n")
			}
		}
	}
	s.WriteString("*** End Patch\n")
	return s.String()
}

// BenchmarkPatchVersusEdits: one apply_patch of 20 hunks in 5 files of 2,000 lines against the
// same 20 changes as 20 edit calls (ungated, so both measure the mechanics alone). Each iteration
// starts from the seeded files (outside the timer).
func BenchmarkPatchVersusEdits(b *testing.B) {
	b.Run("apply_patch", func(b *testing.B) {
		dir, _ := filepath.EvalSymlinks(b.TempDir())
		e := newPatchEnv(b, dir, false)
		input := benchPatch()
		for b.Loop() {
			b.StopTimer()
			benchSeed(b, dir)
			b.StartTimer()
			if r := e.call("apply_patch", map[string]any{"input": input}); r.IsError {
				b.Fatal(r.Text())
			}
		}
	})
	b.Run("edit", func(b *testing.B) {
		dir, _ := filepath.EvalSymlinks(b.TempDir())
		e := newPatchEnv(b, dir, false)
		for b.Loop() {
			b.StopTimer()
			benchSeed(b, dir)
			b.StartTimer()
			for f := range benchFiles {
				for h := range benchHunks {
					at := benchAt(h)
					old := benchLine(f, at-1) + "\n" + benchLine(f, at) + "\n" + benchLine(f, at+1)
					r := e.call("edit", map[string]any{"file_path": fmt.Sprintf("f%d.txt", f), "old_string": old,
						"new_string": benchLine(f, at-1) + "\n" + benchLine(f, at) + " (changed)\n" + benchLine(f, at+1)})
					if r.IsError {
						b.Fatal(r.Text())
					}
				}
			}
		}
	})
}
