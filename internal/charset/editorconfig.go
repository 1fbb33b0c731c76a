package charset

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"go.uber.org/zap"
	"golang.org/x/sys/unix"

	"github.com/cordon-dev/cordon/internal/beneath"
	"github.com/cordon-dev/cordon/internal/echo"
	"github.com/cordon-dev/cordon/internal/search"
)

// The bounds on what a .editorconfig file may cost (docs/encodings.md, "Bounds of .editorconfig").
const (
	// EditorConfigMaxBytes is the largest .editorconfig file read; a larger one is ignored whole.
	EditorConfigMaxBytes = 64 << 10
	// editorConfigMaxSection is the longest section name (glob) matched, as EditorConfig's own
	// cores bound it; a longer section is ignored.
	editorConfigMaxSection = 4096
	// editorConfigMaxPattern bounds the compiled patterns of one file (the bytes of their regular
	// expressions); the sections past it are ignored.
	editorConfigMaxPattern = 64 << 10
	// editorConfigCacheFiles bounds the parsed files a Resolver keeps.
	editorConfigCacheFiles = 1024
)

// ecFile is one parsed .editorconfig: its root flag and the sections that set charset, in file
// order (a later one wins).
type ecFile struct {
	root     bool
	sections []ecSection
}

type ecSection struct {
	match   *regexp.Regexp // the section's glob, as compileGlob builds it
	charset string         // lower case
}

// ecKey is what identifies a version of a .editorconfig on disk: a cached parse is used while
// lstat(2) gives the same key.
type ecKey struct {
	dev, ino     uint64
	mode         uint32
	size         int64
	mtime, ctime int64
}

type ecEntry struct {
	key  ecKey
	file *ecFile // nil: the file was ignored (not a regular file, too large, unreadable)
}

// ecCache holds the parsed .editorconfig files of a Resolver, each valid while its lstat key is
// unchanged, and logs what it ignores once per version of a file. Safe for concurrent use.
type ecCache struct {
	mu    sync.Mutex
	files map[string]ecEntry
	log   *zap.Logger
}

// load is the parsed .editorconfig at path, nil when there is none or it is ignored.
func (c *ecCache) load(path string) *ecFile { return c.loadBeneath("", path) }

// loadBeneath is load with the file opened beneath the directory top when top is set (through no
// symlink and no "..", search.OpenBeneath): a file that cannot be reached that way is ignored.
func (c *ecCache) loadBeneath(top, path string) *ecFile {
	var st unix.Stat_t
	if err := unix.Lstat(path, &st); err != nil {
		return nil // absent (the common case: one lstat, no allocation) or unreachable
	}
	key := keyOf(&st)
	entry := path // a file read beneath top is cached apart from one read as given
	if top != "" {
		entry = top + "\x00" + path
	}
	c.mu.Lock()
	e, ok := c.files[entry]
	c.mu.Unlock()
	if ok && e.key == key {
		return e.file
	}
	f, key2, ignored := readEditorConfig(top, path, &st)
	if key2 != (ecKey{}) {
		key = key2
	}
	if len(ignored) > 0 && c.log != nil {
		c.log.Warn(".editorconfig: parts ignored", zap.String("path", path), zap.Strings("ignored", ignored))
	}
	c.mu.Lock()
	if c.files == nil || len(c.files) >= editorConfigCacheFiles {
		c.files = map[string]ecEntry{}
	}
	c.files[entry] = ecEntry{key: key, file: f}
	c.mu.Unlock()
	return f
}

// readEditorConfig reads and parses the .editorconfig at path, whose lstat is st: only a regular
// file, opened without following a symlink and without blocking (a FIFO), at most
// EditorConfigMaxBytes. ignored says what was left out and why; key is the opened file's.
func readEditorConfig(top, path string, st *unix.Stat_t) (f *ecFile, key ecKey, ignored []string) {
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil, ecKey{}, []string{"the whole file: not a regular file"}
	}
	if st.Size > EditorConfigMaxBytes {
		return nil, ecKey{}, []string{fmt.Sprintf("the whole file: %d bytes, over the %d-byte limit", st.Size, EditorConfigMaxBytes)}
	}
	fd, err := search.OpenBeneath(top, path, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOFOLLOW|unix.O_CLOEXEC)
	if err != nil {
		return nil, ecKey{}, []string{"the whole file: " + err.Error()}
	}
	defer unix.Close(fd)
	var fst unix.Stat_t
	if err := unix.Fstat(fd, &fst); err != nil {
		return nil, ecKey{}, []string{"the whole file: " + err.Error()}
	}
	key = keyOf(&fst)
	if fst.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil, key, []string{"the whole file: not a regular file"}
	}
	buf := make([]byte, EditorConfigMaxBytes+1)
	n := 0
	for n < len(buf) {
		k, err := unix.Read(fd, buf[n:])
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return nil, key, []string{"the whole file: " + err.Error()}
		}
		if k == 0 {
			break
		}
		n += k
	}
	if n > EditorConfigMaxBytes {
		return nil, key, []string{fmt.Sprintf("the whole file: over the %d-byte limit", EditorConfigMaxBytes)}
	}
	f, ignored = parseEditorConfig(string(buf[:n]))
	return f, key, ignored
}

// parseEditorConfig parses the text of a .editorconfig as EditorConfig defines it: lines, `#`
// and `;` comments, `[glob]` section headers, `key = value` pairs (keys and the values read here
// case-insensitive), `root` in the preamble. Only what decides a charset is kept.
func parseEditorConfig(text string) (*ecFile, []string) {
	f := &ecFile{}
	var ignored []string
	inSection, skip := false, false
	var glob string
	room := editorConfigMaxPattern
	for line := range strings.Lines(text) {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' && line[len(line)-1] == ']' {
			inSection, skip, glob = true, false, line[1:len(line)-1]
			if len(glob) > editorConfigMaxSection {
				skip = true
				ignored = append(ignored, fmt.Sprintf("a section: its name is %d bytes, over %d", len(glob), editorConfigMaxSection))
			}
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		k, v = strings.ToLower(strings.TrimSpace(k)), strings.TrimSpace(v)
		switch {
		case !inSection && k == "root":
			f.root = strings.EqualFold(v, "true")
		case inSection && !skip && k == "charset":
			re, err := compileGlob(editorConfigSelector(glob), &room)
			if err != nil {
				skip = true
				ignored = append(ignored, fmt.Sprintf("section %q: %v", echo.String(glob, echo.MaxBytes), err))
				continue
			}
			f.sections = append(f.sections, ecSection{match: re, charset: strings.ToLower(v)})
		}
	}
	return f, ignored
}

// editorConfigSelector anchors a section's glob as EditorConfig does: one without `/` matches a
// name at any depth, one with a `/` is relative to the .editorconfig's directory.
func editorConfigSelector(glob string) string {
	switch {
	case strings.HasPrefix(glob, "/"):
		return glob
	case strings.ContainsRune(glob, '/'):
		return "/" + glob
	}
	return "/**/" + glob
}

// editorConfig is the charset .editorconfig files give the file at the absolute path, found as
// EditorConfig finds it (the files from its directory up to one with root = true, sections
// matched with EditorConfig's globs, nearer files and later sections winning), each file read
// through load. An ignored file, or a value EditorConfig does not define, declares nothing. When
// top is set, no directory above it is looked at.
func editorConfig(path, top string, load func(string) *ecFile) (Decl, bool) {
	var value string
	found := false
	for dir := filepath.Dir(path); top == "" || beneath.Within(top, dir); dir = filepath.Dir(dir) {
		if f := load(filepath.Join(dir, ".editorconfig")); f != nil {
			rel := path
			if len(dir) < len(rel) {
				rel = rel[len(dir):]
			}
			rel = filepath.ToSlash(rel)
			if !strings.HasPrefix(rel, "/") {
				rel = "/" + rel
			}
			for i := len(f.sections) - 1; i >= 0 && !found; i-- {
				if f.sections[i].match.MatchString(rel) {
					value, found = f.sections[i].charset, true
				}
			}
			if found || f.root {
				break
			}
		}
		if dir == filepath.Dir(dir) {
			break
		}
	}
	if !found {
		return Decl{}, false
	}
	d := Decl{Source: SourceEditorConfig}
	switch value {
	case "utf-8":
	case "utf-8-bom":
		d.BOM = true
	case "latin1":
		d.Charset = latin1
	case "utf-16le":
		d.Charset = utf16LE
	case "utf-16be":
		d.Charset = utf16BE
	default:
		return Decl{}, false
	}
	return d, true
}

// Session resolves charsets like its Resolver for a batch of files read together (a search):
// each .editorconfig is looked at once for the whole batch. Safe for concurrent use.
type Session struct {
	r     *Resolver
	top   string // SessionBeneath's directory, or ""
	mu    sync.Mutex
	files map[string]*ecFile
	bare  map[string]bool // per directory: neither it nor an ancestor holds a .editorconfig
}

// Session starts a batch.
func (r *Resolver) Session() *Session { return r.SessionBeneath("") }

// SessionBeneath starts a batch of files beneath the directory top (absolute, clean, no
// symlinks) that looks at no .editorconfig above top and opens those beneath it through no
// symlink: a confined search's ("" is Session).
func (r *Resolver) SessionBeneath(top string) *Session {
	return &Session{r: r, top: top, files: map[string]*ecFile{}, bare: map[string]bool{}}
}

func (s *Session) load(path string) *ecFile {
	s.mu.Lock()
	f, ok := s.files[path]
	s.mu.Unlock()
	if ok {
		return f
	}
	f = s.r.ec.loadBeneath(s.top, path)
	s.mu.Lock()
	s.files[path] = f
	s.mu.Unlock()
	return f
}

// Resolve is Resolver.Resolve with the batch's .editorconfig memo. A file without a BOM, with no
// charset rule configured, in a directory no .editorconfig applies to (the common case of a
// search) is UTF-8 by default without a walk of its ancestors.
func (s *Session) Resolve(path string, head []byte) (Decl, int) {
	if _, _, bom := SniffBOM(head); !bom && (s.r == nil || len(s.r.rules) == 0) && s.bareDir(filepath.Dir(path)) {
		return Decl{}, 0
	}
	return s.r.resolve(path, s.top, head, s.load)
}

// bareDir reports whether neither dir nor any of its ancestors holds a .editorconfig (a name that
// cannot be checked counts as present), each directory asked once per batch.
func (s *Session) bareDir(dir string) bool {
	s.mu.Lock()
	v, ok := s.bare[dir]
	s.mu.Unlock()
	if ok {
		return v
	}
	v = unix.Access(filepath.Join(dir, ".editorconfig"), unix.F_OK) == unix.ENOENT
	if parent := filepath.Dir(dir); v && parent != dir && (s.top == "" || beneath.Within(s.top, parent)) {
		v = s.bareDir(parent)
	}
	s.mu.Lock()
	s.bare[dir] = v
	s.mu.Unlock()
	return v
}
