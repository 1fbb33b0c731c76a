//go:build cordon_faultinject

package search

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// With the build tag cordon_faultinject (test binaries only), CORDON_SEARCH_FAULT="<mode>:<name>"
// makes the reads of every file called <name> misbehave: mode "eagain" fails them with EAGAIN (as
// /proc/kmsg does), mode "hang" blocks them forever (as a hung network mount does), after writing
// "search fault: read hangs" to stderr.
func init() {
	mode, name, ok := strings.Cut(os.Getenv("CORDON_SEARCH_FAULT"), ":")
	if !ok {
		return
	}
	h := func(fd int, p []byte, off int64) (int, error) {
		if target, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(fd)); err == nil && filepath.Base(target) == name {
			switch mode {
			case "eagain":
				return 0, unix.EAGAIN
			case "hang":
				fmt.Fprintln(os.Stderr, "search fault: read hangs")
				select {}
			}
		}
		if off >= 0 {
			return unix.Pread(fd, p, off)
		}
		return unix.Read(fd, p)
	}
	readHook.Store(&h)
}
