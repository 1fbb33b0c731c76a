//go:build !linux

package history

import (
	"bytes"
	"os"
)

// writeFrame writes the parts of a frame at off and returns how many bytes it wrote.
func writeFrame(f *os.File, off int64, parts ...[]byte) (int64, error) {
	b := bytes.Join(parts, nil)
	n, err := f.WriteAt(b, off)
	return int64(n), err
}
