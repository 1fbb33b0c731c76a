package fstest

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// searcher returns fsys as an fs.Searcher, or skips the check.
func (c *checker) searcher() fs.Searcher {
	s, ok := c.fsys.(fs.Searcher)
	if !ok {
		c.skip("the provider does not implement fs.Searcher")
	}
	return s
}

// tree lays out the search fixture under s/: three .txt files and other.md, newest first
// sub/deep/c.txt, sub/b.txt, other.md, a.txt, and two files never found without IncludeIgnored:
// skip.txt (named in s/.ignore) and .git/x.txt (VCS metadata, never listed).
func (c *checker) tree() fs.Target {
	files := []struct{ rel, data string }{
		{"s/a.txt", "first\nneedle one\nlast\n"},
		{"s/other.md", "needle in markdown\n"},
		{"s/sub/b.txt", "needle two\r\nx\r\n"},
		{"s/sub/deep/c.txt", "no\nneedle three\nneedle four\n"},
		{"s/skip.txt", "needle ignored\n"},
		{"s/.git/x.txt", "needle in git\n"},
		{"s/.ignore", "skip.txt\n"},
	}
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, f := range files {
		c.put(f.rel, f.data)
		at := base.Add(time.Duration(i) * time.Hour)
		if err := os.Chtimes(c.path(f.rel), at, at); err != nil {
			c.fatalf("fixture: %v", err)
		}
	}
	return c.resolve("s")
}

// Glob lists the files whose path matches, newest first, spelled below the root's display path:
// a pattern without "/" matches names at any depth, one with "/" the relative path; ignored files
// only with IncludeIgnored, VCS metadata never.
func checkGlob(c *checker) {
	s := c.searcher()
	root := c.tree()
	for _, tc := range []struct {
		q    fs.GlobQuery
		want []string
	}{
		{fs.GlobQuery{Pattern: "**/*.txt"}, []string{"sub/deep/c.txt", "sub/b.txt", "a.txt"}},
		{fs.GlobQuery{Pattern: "*.txt"}, []string{"sub/deep/c.txt", "sub/b.txt", "a.txt"}},
		{fs.GlobQuery{Pattern: "sub/*.txt"}, []string{"sub/b.txt"}},
		{fs.GlobQuery{Pattern: "*.txt", SearchLimits: fs.SearchLimits{IncludeIgnored: true}}, []string{"skip.txt", "sub/deep/c.txt", "sub/b.txt", "a.txt"}},
		{fs.GlobQuery{Pattern: "*.none"}, nil},
	} {
		op := fmt.Sprintf("Glob(s, %q, IncludeIgnored %v)", tc.q.Pattern, tc.q.IncludeIgnored)
		res, err := s.Glob(c.ctx, root, tc.q)
		if !c.noErr(op, err) {
			continue
		}
		var rels []string
		for _, f := range res.Files {
			rels = append(rels, f.Rel)
			if want := root.DisplayPath + "/" + f.Rel; f.Path != want {
				c.errorf("%s: %s has Path %q; want %q", op, f.Rel, f.Path, want)
			}
		}
		if !slices.Equal(rels, tc.want) {
			c.errorf("%s found %q; want %q (newest first)", op, rels, tc.want)
		}
		if res.Stopped {
			c.errorf("%s: Stopped without a MaxVisited", op)
		}
	}
}

// Grep reports every matching line (files newest first, lines in order) with its number and its
// text as ReadText shows it (without the line break); Include narrows a walk; a file as root is
// searched alone (Rel ""); an error of emit stops the search and is returned.
func checkGrep(c *checker) {
	s := c.searcher()
	root := c.tree()
	type hit struct {
		rel  string
		line int
	}
	for _, tc := range []struct {
		root fs.Target
		q    fs.GrepQuery
		want []hit
	}{
		{root, fs.GrepQuery{Pattern: "needle"}, []hit{{"sub/deep/c.txt", 2}, {"sub/deep/c.txt", 3}, {"sub/b.txt", 1}, {"other.md", 1}, {"a.txt", 2}}},
		{root, fs.GrepQuery{Pattern: "needle", Include: "*.md"}, []hit{{"other.md", 1}}},
		{root, fs.GrepQuery{Pattern: `t(wo|hree)$`}, []hit{{"sub/deep/c.txt", 2}, {"sub/b.txt", 1}}},
		{c.resolve("s/a.txt"), fs.GrepQuery{Pattern: "[se]"}, []hit{{"", 1}, {"", 2}, {"", 3}}},
	} {
		tc.q.MaxLineBytes = 4096
		op := fmt.Sprintf("Grep(%s, %q, include %q)", tc.root.DisplayPath, tc.q.Pattern, tc.q.Include)
		var got []hit
		_, err := s.Grep(c.ctx, tc.root, tc.q, func(m fs.LineMatch) error {
			got = append(got, hit{m.Rel, m.Line})
			path := root.DisplayPath + "/" + m.Rel
			if m.Rel == "" {
				path = tc.root.DisplayPath
			}
			if m.Path != path {
				c.errorf("%s: line %s:%d has Path %q; want %q", op, m.Rel, m.Line, m.Path, path)
			}
			read, err := c.fsys.ReadText(c.ctx, c.resolve(strings.TrimPrefix(path, c.dir+"/")))
			lines := strings.Split(read.Text, "\n")
			switch {
			case err != nil || m.Line < 1 || m.Line > len(lines):
				c.errorf("%s: line %s:%d is not a line of the file (%s)", op, m.Rel, m.Line, describe(err))
			case string(m.Text) != strings.TrimSuffix(lines[m.Line-1], "\r") || !m.ValidUTF8 || m.Truncated:
				c.errorf("%s: line %s:%d has Text %q (ValidUTF8 %v, Truncated %v); ReadText shows %q", op, m.Rel, m.Line, m.Text, m.ValidUTF8, m.Truncated, lines[m.Line-1])
			}
			return nil
		})
		if c.noErr(op, err) && !slices.Equal(got, tc.want) {
			c.errorf("%s matched %v; want %v", op, got, tc.want)
		}
	}
	c.put("u.txt", "ééé needle\n")
	var cut []fs.LineMatch
	_, err := s.Grep(c.ctx, c.resolve("u.txt"), fs.GrepQuery{Pattern: "needle", MaxLineBytes: 3}, func(m fs.LineMatch) error {
		m.Text = slices.Clone(m.Text)
		cut = append(cut, m)
		return nil
	})
	if c.noErr("Grep(u.txt, MaxLineBytes 3)", err) && (len(cut) != 1 || string(cut[0].Text) != "é" || !cut[0].Truncated || !cut[0].ValidUTF8) {
		c.errorf("Grep(u.txt, MaxLineBytes 3) of %q = %+v; want one match, Text %q (cut on a UTF-8 boundary), Truncated, ValidUTF8", "ééé needle\n", cut, "é")
	}
	stop := errors.New("fstest: enough")
	calls := 0
	_, err = s.Grep(c.ctx, root, fs.GrepQuery{Pattern: "needle", MaxLineBytes: 4096}, func(fs.LineMatch) error { calls++; return stop })
	if !errors.Is(err, stop) || calls != 1 {
		c.errorf("Grep whose emit fails at once: emit ran %d time(s), Grep returned %v; want one call and emit's error", calls, err)
	}
}

// A glob or regular expression that does not compile is a *fs.PatternError (Include set when it
// is the include glob); a missing root is an error.
func checkSearchErrors(c *checker) {
	s := c.searcher()
	root := c.tree()
	var pe *fs.PatternError
	if _, err := s.Glob(c.ctx, root, fs.GlobQuery{Pattern: "["}); !errors.As(err, &pe) || pe.Include {
		c.errorf("Glob(s, %q): got %v; want a *fs.PatternError for the pattern", "[", err)
	}
	emit := func(fs.LineMatch) error { return nil }
	if _, err := s.Grep(c.ctx, root, fs.GrepQuery{Pattern: "("}, emit); !errors.As(err, &pe) || pe.Include {
		c.errorf("Grep(s, %q): got %v; want a *fs.PatternError for the pattern", "(", err)
	}
	if _, err := s.Grep(c.ctx, root, fs.GrepQuery{Pattern: "x", Include: "["}, emit); !errors.As(err, &pe) || !pe.Include {
		c.errorf("Grep(s, include %q): got %v; want a *fs.PatternError with Include", "[", err)
	}
	missing := c.resolve("missing")
	if _, err := s.Glob(c.ctx, missing, fs.GlobQuery{Pattern: "*"}); err == nil {
		c.errorf("Glob of a missing root: no error")
	}
	if _, err := s.Grep(c.ctx, missing, fs.GrepQuery{Pattern: "x"}, emit); err == nil {
		c.errorf("Grep of a missing root: no error")
	}
}
