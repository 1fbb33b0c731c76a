package hostfs

import (
	"io"

	"golang.org/x/sys/unix"
)

// regularFile is a regular file open for reading, held by its descriptor alone: opening one costs
// no *os.File (whose descriptor check and poller registration are two system calls a read of a
// regular file does not need, and whose cleanup the runtime would run).
type regularFile struct {
	fd   int
	size int64 // the size fstat gave when it was opened
}

func (f *regularFile) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	var n int
	err := ignoringEINTR(func() (err error) {
		n, err = unix.Read(f.fd, b)
		return err
	})
	switch {
	case err != nil:
		return 0, err
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

func (f *regularFile) ReadAt(b []byte, off int64) (int, error) {
	read := 0
	for read < len(b) {
		var n int
		err := ignoringEINTR(func() (err error) {
			n, err = unix.Pread(f.fd, b[read:], off+int64(read))
			return err
		})
		if err != nil {
			return read, err
		}
		if n == 0 {
			return read, io.EOF
		}
		read += n
	}
	return read, nil
}

func (f *regularFile) Close() error { return unix.Close(f.fd) }
