package search

import "golang.org/x/sys/unix"

// readDirents lists the open directory fd ("." and ".." left out). A failure after some entries
// were read returns them with the error.
func readDirents(fd int, buf []byte) ([]dirent, error) {
	var out []dirent
	for {
		n, err := unix.Getdents(fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return out, err
		}
		if n <= 0 {
			return out, nil
		}
		out = parseDirents(buf[:n], out)
	}
}

// pathOnly opens a file for fstatfs alone, without reading it (and without blocking on a FIFO).
const pathOnly = unix.O_PATH
