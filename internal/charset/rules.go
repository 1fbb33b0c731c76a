package charset

import (
	"fmt"
	"path/filepath"
	"strings"

	"go.uber.org/zap"

	"github.com/cordon-dev/cordon/internal/search"
)

// Rule is one entry of a provider's `encodings` list: files matching Glob (a .gitignore-style
// pattern relative to the provider's cwd) are stored in Charset (a WHATWG label).
type Rule struct {
	Glob    string `yaml:"glob"`
	Charset string `yaml:"charset"`
}

// Source says where a file's charset was decided.
type Source int

// The sources, in the order they are consulted.
const (
	SourceDefault Source = iota // nothing declared: UTF-8
	SourceBOM
	SourceRule
	SourceEditorConfig
)

// Decl is a file's charset and where it came from.
type Decl struct {
	Charset Charset
	Source  Source
	// BOM: a new file starts with a UTF-8 byte order mark (.editorconfig utf-8-bom).
	BOM bool
}

// Declared reports whether the charset was declared (by a rule or .editorconfig) rather than
// taken from a byte order mark or the default.
func (d Decl) Declared() bool { return d.Source == SourceRule || d.Source == SourceEditorConfig }

// Resolver decides the charset of files under one provider.
type Resolver struct {
	cwd   string
	rules []compiledRule
	ec    ecCache // the .editorconfig files read, with what was ignored logged once
}

type compiledRule struct {
	pat *search.Pattern
	cs  Charset
}

// NewResolver compiles rules for a provider whose cwd is cwd. An entry with an empty or negated
// glob, or a label that names no supported charset, is an error naming the entry.
func NewResolver(cwd string, rules []Rule) (*Resolver, error) {
	r := &Resolver{cwd: cwd}
	for i, e := range rules {
		pat, ok := search.CompilePattern(e.Glob)
		if !ok {
			return nil, fmt.Errorf("encodings[%d]: glob %q is not a pattern (empty, a comment or negated)", i, e.Glob)
		}
		cs, err := Lookup(strings.TrimSpace(e.Charset))
		if err != nil {
			return nil, fmt.Errorf("encodings[%d] (glob %q): %w", i, e.Glob, err)
		}
		r.rules = append(r.rules, compiledRule{pat: pat, cs: cs})
	}
	return r, nil
}

// unconfigured is the .editorconfig cache of a nil Resolver.
var unconfigured ecCache

// SetLogger makes r log, once per version of a file, what of a .editorconfig it ignores
// (docs/encodings.md). Call it before r is used.
func (r *Resolver) SetLogger(log *zap.Logger) { r.ec.log = log }

// Resolve decides the charset of the file at the absolute path, whose first bytes are head (at
// least 3 when the file has them): a byte order mark decides by itself (bomLen is its length),
// else Declared.
func (r *Resolver) Resolve(path string, head []byte) (d Decl, bomLen int) {
	return r.resolve(path, "", head, nil)
}

// ResolveBeneath is Resolve for a file beneath the directory top (absolute, clean, no symlinks)
// under a confinement: no .editorconfig above top is looked at, and those beneath it are opened
// through no symlink.
func (r *Resolver) ResolveBeneath(top, path string, head []byte) (d Decl, bomLen int) {
	return r.resolve(path, top, head, nil)
}

func (r *Resolver) resolve(path, top string, head []byte, load func(string) *ecFile) (Decl, int) {
	if cs, n, ok := SniffBOM(head); ok {
		return Decl{Charset: cs, Source: SourceBOM}, n
	}
	return r.declared(path, top, load), 0
}

// Declared is the charset declared for the file at the absolute path: the first rule matching
// it (or one of its directories), else .editorconfig's charset, else UTF-8 (SourceDefault).
func (r *Resolver) Declared(path string) Decl {
	return r.declared(path, "", nil)
}

// DeclaredBeneath is Declared bounded by top as ResolveBeneath is.
func (r *Resolver) DeclaredBeneath(top, path string) Decl {
	return r.declared(path, top, nil)
}

func (r *Resolver) declared(path, top string, load func(string) *ecFile) Decl {
	if cs, ok := r.rule(path); ok {
		return Decl{Charset: cs, Source: SourceRule}
	}
	if load == nil {
		c := &unconfigured
		if r != nil {
			c = &r.ec
		}
		load = c.load
		if top != "" {
			load = func(p string) *ecFile { return c.loadBeneath(top, p) }
		}
	}
	if d, ok := editorConfig(path, top, load); ok {
		return d
	}
	return Decl{}
}

func (r *Resolver) rule(path string) (Charset, bool) {
	if r == nil || len(r.rules) == 0 {
		return Charset{}, false
	}
	rel, err := filepath.Rel(r.cwd, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return Charset{}, false
	}
	rel = filepath.ToSlash(rel)
	for _, cr := range r.rules {
		if matchPath(cr.pat, rel) {
			return cr.cs, true
		}
	}
	return Charset{}, false
}

// matchPath matches rel as git matches a path against an ignore rule: the file itself, or one of
// its directories (a rule naming a directory covers what is inside).
func matchPath(p *search.Pattern, rel string) bool {
	if p.Match(rel, false) {
		return true
	}
	for i := strings.IndexByte(rel, '/'); i >= 0; i = nextSlash(rel, i) {
		if p.Match(rel[:i], true) {
			return true
		}
	}
	return false
}

func nextSlash(s string, i int) int {
	j := strings.IndexByte(s[i+1:], '/')
	if j < 0 {
		return -1
	}
	return i + 1 + j
}
