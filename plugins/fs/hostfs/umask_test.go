package hostfs

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// CreatedMode is the mode open(O_CREAT, 0666) gives a new file under the
// process's umask, in a directory without a default ACL: what a new file of
// the provider gets. The umask is read from /proc where it is shown (setting
// it to read it would race parallel tests).
func CreatedMode(t *testing.T) os.FileMode {
	t.Helper()
	return newFilePerm &^ processUmask(t)
}

func processUmask(t *testing.T) os.FileMode {
	t.Helper()
	if f, err := os.Open("/proc/self/status"); err == nil {
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if v, ok := strings.CutPrefix(sc.Text(), "Umask:"); ok {
				m, err := strconv.ParseUint(strings.TrimSpace(v), 8, 32)
				if err != nil {
					t.Fatalf("umask %q: %v", v, err)
				}
				return os.FileMode(m)
			}
		}
	}
	m := unix.Umask(0o022)
	unix.Umask(m)
	return os.FileMode(m)
}
