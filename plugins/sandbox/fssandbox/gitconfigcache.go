package fssandbox

import (
	"io"
	"os"
	"path/filepath"
	"sync"

	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/internal/gitconfig"
)

// configCache holds parsed config files keyed by path, each valid while its stat is unchanged.
type configCache struct {
	mu    sync.Mutex
	files map[string]cachedConfig
}

type cachedConfig struct {
	sig     fileSig
	entries []gitconfig.Entry
}

// fileSig is what identifies one version of a file.
type fileSig struct {
	dev, ino     uint64
	size         int64
	mtime, ctime unix.Timespec
}

// load returns the variables of the config file path (nil when it is missing or not a regular
// file), parsed again only when its stat changed.
func (c *configCache) load(path string) []gitconfig.Entry {
	var st unix.Stat_t
	if unix.Stat(path, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil
	}
	c.mu.Lock()
	f, ok := c.files[path]
	c.mu.Unlock()
	if ok && f.sig == sigOf(&st) {
		return f.entries
	}
	sig, entries, ok := readConfig(path)
	if !ok {
		return nil
	}
	c.mu.Lock()
	if c.files == nil || len(c.files) >= maxCachedFiles {
		c.files = map[string]cachedConfig{}
	}
	c.files[path] = cachedConfig{sig: sig, entries: entries}
	c.mu.Unlock()
	return entries
}

func sigOf(st *unix.Stat_t) fileSig {
	return fileSig{dev: uint64(st.Dev), ino: st.Ino, size: st.Size, mtime: st.Mtim, ctime: st.Ctim}
}

// readConfig reads and parses at most maxConfigBytes of the regular file path, with the stat of
// what it read. It never blocks on a FIFO put there; a file with syntax errors gives the
// variables of its good lines (see gitconfig.Parse).
func readConfig(path string) (fileSig, []gitconfig.Entry, bool) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_CLOEXEC|unix.O_NOCTTY, 0)
	if err != nil {
		return fileSig{}, nil, false
	}
	f := os.NewFile(uintptr(fd), path)
	defer f.Close()
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return fileSig{}, nil, false
	}
	data, err := io.ReadAll(io.LimitReader(f, maxConfigBytes))
	if err != nil {
		return fileSig{}, nil, false
	}
	entries, _ := gitconfig.Parse(data)
	return sigOf(&st), entries, true
}

// collect appends the variables of path and of the files it includes (depth-first, in file
// order, to maxIncludeDepth, reading at most *budget files) to entries, and each include target
// to named.
func (c *configCache) collect(entries []fileEntry, path, home string, depth int, budget *int, named *[]namedPath) []fileEntry {
	if *budget <= 0 {
		return entries
	}
	*budget--
	for _, e := range c.load(path) {
		entries = append(entries, fileEntry{e: e, file: path})
		if !e.HasValue || e.Key != "path" || !(e.Section == "include" && !e.HasSub || e.Section == "includeif" && e.HasSub) {
			continue
		}
		inc, ok := expandPath(e.Value, filepath.Dir(path), home)
		if !ok {
			continue
		}
		*named = append(*named, namedPath{path: inc, setting: e.Name(), file: path, include: true})
		if depth+1 < maxIncludeDepth {
			entries = c.collect(entries, inc, home, depth+1, budget, named)
		}
	}
	return entries
}
