package charset

import (
	"os"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/sys/unix"

	"github.com/editorconfig/editorconfig-core-go/v2"
)

// editorConfig is the charset .editorconfig files give the file at the absolute path, found as
// EditorConfig finds it (the files from its directory up to one with root = true, sections
// matched with EditorConfig's globs, nearer files and later sections winning), parsed by parser.
// An unreadable or malformed file, or a value EditorConfig does not define, declares nothing.
func editorConfig(path string, parser editorconfig.Parser) (Decl, bool) {
	if parser == nil {
		parser = &plainParser{}
	}
	cfg := editorconfig.Config{Graceful: true, Parser: parser}
	def, _, err := cfg.LoadGraceful(path)
	if err != nil || def == nil {
		return Decl{}, false
	}
	d := Decl{Source: SourceEditorConfig}
	switch strings.ToLower(def.Charset) {
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

// plainParser is the library's parser with a cheap answer for the common case, an ancestor
// without a .editorconfig: one access(2), no allocation.
type plainParser struct{ editorconfig.SimpleParser }

func (p *plainParser) ParseIniGraceful(filename string) (*editorconfig.Editorconfig, error, error) {
	if unix.Access(filename, unix.F_OK) == unix.ENOENT {
		return nil, nil, os.ErrNotExist
	}
	return p.SimpleParser.ParseIniGraceful(filename)
}

func (p *plainParser) ParseIni(filename string) (*editorconfig.Editorconfig, error) {
	ec, _, err := p.ParseIniGraceful(filename)
	return ec, err
}

// cachedParser parses each .editorconfig path once (its absence too), for the files of one
// search; safe for concurrent use.
type cachedParser struct {
	mu    sync.Mutex
	files map[string]parsed
	plain plainParser
	globs *editorconfig.CachedParser // its compiled section globs; guarded by mu
}

type parsed struct {
	ec   *editorconfig.Editorconfig
	warn error
	err  error
}

func (c *cachedParser) ParseIni(filename string) (*editorconfig.Editorconfig, error) {
	ec, _, err := c.ParseIniGraceful(filename)
	return ec, err
}

func (c *cachedParser) ParseIniGraceful(filename string) (*editorconfig.Editorconfig, error, error) {
	c.mu.Lock()
	p, ok := c.files[filename]
	c.mu.Unlock()
	if !ok {
		p.ec, p.warn, p.err = c.plain.ParseIniGraceful(filename)
		c.mu.Lock()
		c.files[filename] = p
		c.mu.Unlock()
	}
	if p.ec == nil {
		return nil, p.warn, p.err
	}
	ec := *p.ec // LoadGraceful sets a field of what it is given
	return &ec, p.warn, p.err
}

func (c *cachedParser) FnmatchCase(selector, filename string) (bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.globs.FnmatchCase(selector, filename)
}

// Session resolves charsets like its Resolver for a batch of files read together (a search):
// each .editorconfig is read once for the whole batch. Safe for concurrent use.
type Session struct {
	r      *Resolver
	parser *cachedParser
	mu     sync.Mutex
	bare   map[string]bool // per directory: neither it nor an ancestor holds a .editorconfig
}

// Session starts a batch.
func (r *Resolver) Session() *Session {
	return &Session{r: r, parser: &cachedParser{files: map[string]parsed{}, globs: editorconfig.NewCachedParser()}, bare: map[string]bool{}}
}

// Resolve is Resolver.Resolve with the batch's .editorconfig cache. A file without a BOM, with no
// charset rule configured, in a directory no .editorconfig applies to (the common case of a
// search) is UTF-8 by default without a walk of its ancestors.
func (s *Session) Resolve(path string, head []byte) (Decl, int) {
	if _, _, bom := SniffBOM(head); !bom && (s.r == nil || len(s.r.rules) == 0) && s.bareDir(filepath.Dir(path)) {
		return Decl{}, 0
	}
	return s.r.resolve(path, head, s.parser)
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
	if parent := filepath.Dir(dir); v && parent != dir {
		v = s.bareDir(parent)
	}
	s.mu.Lock()
	s.bare[dir] = v
	s.mu.Unlock()
	return v
}
