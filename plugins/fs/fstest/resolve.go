package fstest

import (
	"net/url"
	"path/filepath"
	"strconv"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// A blank path is FS_NOT_FOUND "file_path must be a non-empty string", with or without a base.
func checkResolveBlank(c *checker) {
	for _, p := range []string{"", " ", "\t \n"} {
		_, err := c.fsys.Resolve(c.ctx, p, fs.ResolveOptions{})
		c.wantErr("Resolve("+strconv.Quote(p)+")", err, fs.BlankPath())
		_, err = c.fsys.Resolve(c.ctx, p, fs.ResolveOptions{Cwd: c.dir})
		c.wantErr("Resolve("+strconv.Quote(p)+", Cwd)", err, fs.BlankPath())
	}
}

// The display path is the path joined to its base (the call's Cwd, else the provider's default)
// and normalized lexically: "." and ".." collapsed as text, duplicate and trailing separators
// dropped, symbolic links left alone, no "~" expansion. An absolute path ignores the base.
func checkResolveDisplay(c *checker) {
	c.mkdir("base")
	base := c.path("base")
	c.symlink("base", "via")
	cases := []struct{ path, cwd, want string }{
		{"a.txt", base, c.path("base/a.txt")},
		{"./x/../b/./c.txt", base, c.path("base/b/c.txt")},
		{"d//e.txt", base, c.path("base/d/e.txt")},
		{"missing-dir/", base, c.path("base/missing-dir")},
		{"~/n.txt", base, c.path("base/~/n.txt")},
		{"..", base, c.dir},
		{"../base/a.txt", base, c.path("base/a.txt")},
		{"a.txt", c.path("via"), c.path("via/a.txt")},
		{"via/../other.txt", c.dir, c.path("other.txt")},
		{c.path("abs/../z.txt"), base, c.path("z.txt")},
		{c.path("z.txt"), "", c.path("z.txt")},
	}
	for _, tc := range cases {
		t, err := c.fsys.Resolve(c.ctx, tc.path, fs.ResolveOptions{Cwd: tc.cwd})
		op := "Resolve(" + strconv.Quote(tc.path) + ", Cwd " + strconv.Quote(tc.cwd) + ")"
		if !c.noErr(op, err) {
			continue
		}
		if t.DisplayPath != tc.want {
			c.errorf("%s: DisplayPath %q; want %q", op, t.DisplayPath, tc.want)
		}
		if t.Key == "" {
			c.errorf("%s: empty Key", op)
		}
	}
	rel, err := filepath.Rel(c.root, c.path("default.txt"))
	if err != nil {
		c.fatalf("fixture: %v", err)
	}
	t, err := c.fsys.Resolve(c.ctx, rel, fs.ResolveOptions{})
	if c.noErr("Resolve("+strconv.Quote(rel)+") without Cwd", err) && t.DisplayPath != c.path("default.txt") {
		c.errorf("Resolve(%q) without Cwd: DisplayPath %q; want %q (relative to the default base, the root)", rel, t.DisplayPath, c.path("default.txt"))
	}
}

// The same file yields the same key however it is spelled (symbolic links, ".."), a missing path
// keeps its key once created (also below a symlinked directory), and different files have
// different keys.
func checkResolveIdentity(c *checker) {
	c.put("f.txt", "f")
	c.put("real/g.txt", "g")
	c.symlink("f.txt", "link.txt")
	c.symlink("real", "dlink")
	key := c.resolve("f.txt").Key
	for _, p := range []string{"./f.txt", "real/../f.txt", "link.txt"} {
		t, err := c.fsys.Resolve(c.ctx, p, fs.ResolveOptions{Cwd: c.dir})
		if c.noErr("Resolve("+strconv.Quote(p)+")", err) && t.Key != key {
			c.errorf("Resolve(%q): Key %q; want %q, the key of f.txt (the same file)", p, t.Key, key)
		}
	}
	if link := c.resolve("link.txt"); link.DisplayPath != c.path("link.txt") {
		c.errorf("Resolve(link.txt): DisplayPath %q; want %q (links stay unresolved in the display path)", link.DisplayPath, c.path("link.txt"))
	}
	if a, b := c.resolve("dlink/g.txt"), c.resolve("real/g.txt"); a.Key != b.Key {
		c.errorf("dlink/g.txt has Key %q and real/g.txt %q; want one key (dlink -> real)", a.Key, b.Key)
	}
	if a, b := c.resolve("f.txt"), c.resolve("real/g.txt"); a.Key == b.Key {
		c.errorf("f.txt and real/g.txt share the Key %q", a.Key)
	}
	for _, tc := range []struct{ missing, later string }{
		{"new/deep/n.txt", "new/deep/n.txt"},
		{"dlink/h.txt", "real/h.txt"},
	} {
		before := c.resolve(tc.missing)
		if _, err := c.fsys.WriteText(c.ctx, before, "n", fs.CreateIfAbsent()); !c.noErr("WriteText("+tc.missing+", CreateIfAbsent)", err) {
			continue
		}
		if after := c.resolve(tc.later); after.Key != before.Key {
			c.errorf("%s resolved to Key %q while missing and %s to %q once created; want one key", tc.missing, before.Key, tc.later, after.Key)
		}
	}
}

// Resolving through a regular file is FS_NOT_FOUND `cannot resolve "<p>": a parent path segment
// is not a directory`.
func checkResolveThroughFile(c *checker) {
	c.put("f.txt", "f")
	for _, rel := range []string{"f.txt/child.txt", "f.txt/a/b.txt"} {
		_, err := c.fsys.Resolve(c.ctx, c.path(rel), fs.ResolveOptions{})
		c.wantErr("Resolve("+rel+")", err, fs.ParentNotDirectory(c.path(rel), nil))
	}
}

// A path spelled as a directory (a trailing "/", a last segment "." or "..") whose entry is not a
// directory is FS_NOT_DIRECTORY; a directory or a missing entry resolves as the bare spelling.
func checkResolveDirectorySpelling(c *checker) {
	c.put("f.txt", "f")
	c.mkdir("d")
	for _, p := range []string{"f.txt/", "f.txt/."} {
		_, err := c.fsys.Resolve(c.ctx, p, fs.ResolveOptions{Cwd: c.dir})
		c.wantErr("Resolve("+strconv.Quote(p)+")", err, fs.ResolveNotDirectory(c.path("f.txt"), nil))
	}
	for _, p := range []string{"d", "missing"} {
		bare := c.resolve(p)
		t, err := c.fsys.Resolve(c.ctx, p+"/", fs.ResolveOptions{Cwd: c.dir})
		if c.noErr("Resolve("+strconv.Quote(p+"/")+")", err) && t != bare {
			c.errorf("Resolve(%q) = %+v; want %+v, as Resolve(%q)", p+"/", t, bare, p)
		}
	}
}

// ProcessPath is the canonical absolute path (symbolic links resolved, a missing suffix kept) and
// FileURL the file: URI of that path, percent-encoded so that it parses back to the same path.
func checkProcessPathAndURL(c *checker) {
	odd := "sp ace#h%25?q=1 é[x].txt"
	c.put("plain.txt", "p")
	c.put(odd, "o")
	c.put("sub/x.txt", "x")
	c.symlink("plain.txt", "lnk")
	c.symlink("sub", "dlnk")
	cases := []struct{ rel, want string }{
		{"plain.txt", c.path("plain.txt")},
		{odd, c.path(odd)},
		{"sub/x.txt", c.path("sub/x.txt")},
		{"lnk", c.path("plain.txt")},
		{"dlnk/x.txt", c.path("sub/x.txt")},
		{"dlnk/missing/m.txt", c.path("sub/missing/m.txt")},
	}
	for _, tc := range cases {
		t := c.resolve(tc.rel)
		if got := c.fsys.ProcessPath(t); got != tc.want {
			c.errorf("ProcessPath(%s) = %q; want %q", tc.rel, got, tc.want)
		}
		raw := c.fsys.FileURL(t)
		u, err := url.Parse(raw)
		switch {
		case err != nil:
			c.errorf("FileURL(%s) = %q does not parse: %v", tc.rel, raw, err)
		case u.Scheme != "file" || (u.Host != "" && u.Host != "localhost") || u.Path != tc.want || u.RawQuery != "" || u.Fragment != "":
			c.errorf("FileURL(%s) = %q parses to scheme %q host %q path %q query %q fragment %q; want file:// and the path %q",
				tc.rel, raw, u.Scheme, u.Host, u.Path, u.RawQuery, u.Fragment, tc.want)
		}
	}
}

// Contains is true for the parent itself and what lies below it, false for a sibling that shares
// a name prefix, for the parent's parent and for a file that contains nothing.
func checkContains(c *checker) {
	c.put("a/x.txt", "x")
	c.mkdir("ab")
	a, x, deep, ab, dir := c.resolve("a"), c.resolve("a/x.txt"), c.resolve("a/deep/m.txt"), c.resolve("ab"), c.resolve(".")
	for _, tc := range []struct {
		parent, child fs.Target
		names         string
		want          bool
	}{
		{a, a, "a, a", true},
		{a, x, "a, a/x.txt", true},
		{a, deep, "a, a/deep/m.txt (missing)", true},
		{dir, x, "., a/x.txt", true},
		{a, ab, "a, ab", false},
		{a, dir, "a, .", false},
		{x, a, "a/x.txt, a", false},
	} {
		if got := c.fsys.Contains(tc.parent, tc.child); got != tc.want {
			c.errorf("Contains(%s) = %v; want %v", tc.names, got, tc.want)
		}
	}
}
