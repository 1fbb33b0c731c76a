package history

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// writeFrame writes the parts of a frame at off in one pwritev (the content is not copied into
// a frame buffer) and returns how many bytes it wrote.
func writeFrame(f *os.File, off int64, parts ...[]byte) (int64, error) {
	var total int64
	for _, p := range parts {
		total += int64(len(p))
	}
	for written := int64(0); written < total; {
		n, err := unix.Pwritev(int(f.Fd()), rest(parts, written), off+written)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return written, err
		}
		if n == 0 {
			return written, errors.New("history: the journal took no bytes")
		}
		written += int64(n)
	}
	return total, nil
}

// rest returns what of parts follows the first skip bytes.
func rest(parts [][]byte, skip int64) [][]byte {
	for len(parts) > 0 && skip >= int64(len(parts[0])) {
		skip -= int64(len(parts[0]))
		parts = parts[1:]
	}
	if skip > 0 {
		parts = append([][]byte{parts[0][skip:]}, parts[1:]...)
	}
	return parts
}
