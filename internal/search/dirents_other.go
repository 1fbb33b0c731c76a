//go:build !linux

package search

import (
	"os"

	"golang.org/x/sys/unix"
)

// readDirents lists the open directory fd ("." and ".." left out) through a duplicate of it, so
// closing the listing leaves fd open. A failure after some entries were read returns them with the
// error.
func readDirents(fd int, _ []byte) ([]dirent, error) {
	dup, err := unix.Dup(fd)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(dup), ".")
	defer f.Close()
	entries, err := f.ReadDir(-1)
	out := make([]dirent, 0, len(entries))
	for _, e := range entries {
		typ := uint8(unix.DT_UNKNOWN)
		switch t := e.Type(); {
		case t.IsRegular():
			typ = unix.DT_REG
		case t.IsDir():
			typ = unix.DT_DIR
		case t&os.ModeSymlink != 0:
			typ = unix.DT_LNK
		}
		out = append(out, dirent{name: e.Name(), typ: typ})
	}
	return out, err
}

// pathOnly opens a file for fstatfs alone: without reading it, and without blocking on a FIFO.
const pathOnly = unix.O_RDONLY | unix.O_NONBLOCK
