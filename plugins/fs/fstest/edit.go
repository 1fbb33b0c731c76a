package fstest

import (
	"fmt"
	"strings"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// edit is one literal edit of a file made with data, and what it must leave on disk.
type edit struct {
	name, data string
	req        fs.EditRequest
	disk       string
}

// run applies e unguarded and reports unless it succeeds with the file's LF-normalized text
// before and after (no BOM), a new version, and the bytes e.disk.
func (e edit) run(c *checker) {
	c.put(e.name, e.data)
	t := c.resolve(e.name)
	v := c.version(e.name, t)
	op := fmt.Sprintf("EditText(%s, %q -> %q, replaceAll %v) of %q", e.name, e.req.OldString, e.req.NewString, e.req.ReplaceAll, e.data)
	out, err := c.fsys.EditText(c.ctx, t, e.req, nil)
	if !c.noErr(op, err) {
		return
	}
	if before := lfText(e.data); out.Before != before {
		c.errorf("%s: Before %q; want %q", op, out.Before, before)
	}
	if after := lfText(e.disk); out.After != after {
		c.errorf("%s: After %q; want %q", op, out.After, after)
	}
	c.wantNewVersion(op, e.name, t, out.Version, v)
	c.wantDisk(op, e.name, e.disk)
}

// lfText is what an outcome shows of a file's bytes: without its BOM, CRLF read as LF.
func lfText(data string) string {
	return strings.ReplaceAll(strings.TrimPrefix(data, "\uFEFF"), "\r\n", "\n")
}

func req(old, new string) fs.EditRequest { return fs.EditRequest{OldString: old, NewString: new} }

// A unique match is replaced; the returned version guards the next edit.
func checkEditReplace(c *checker) {
	edit{"e.txt", "one two three\n", req("two", "2"), "one 2 three\n"}.run(c)
	t := c.resolve("e.txt")
	out, err := c.fsys.EditText(c.ctx, t, req("2", "II"), &fs.EditGuard{Version: c.version("e.txt", t)})
	if c.noErr("EditText(e.txt) guarded by Stat's version", err) {
		_, err = c.fsys.EditText(c.ctx, t, req("II", "two"), &fs.EditGuard{Version: out.Version})
		if c.noErr("EditText(e.txt) guarded by the last outcome's version", err) {
			c.wantDisk("two guarded edits", "e.txt", "one two three\n")
		}
	}
}

// Matching is literal and counts non-overlapping occurrences left to right: none is
// FS_EDIT_NOT_FOUND, several without ReplaceAll FS_AMBIGUOUS_EDIT with the count, an empty
// old_string FS_EDIT_NOT_FOUND; ReplaceAll replaces each; the new text is inserted verbatim.
func checkEditMatching(c *checker) {
	for _, e := range []edit{
		{"all.txt", "x x x", fs.EditRequest{OldString: "x", NewString: "y", ReplaceAll: true}, "y y y"},
		{"pairs.txt", "aaaa", fs.EditRequest{OldString: "aa", NewString: "b", ReplaceAll: true}, "bb"},
		{"overlap.txt", "aaa", req("aa", "b"), "ba"},
		{"delete.txt", "keep drop keep", req(" drop", ""), "keep keep"},
		{"literal.txt", "abc a.c\n", req("a.c", "$&\\1$1"), "abc $&\\1$1\n"},
	} {
		e.run(c)
	}
	c.put("m.txt", "x x x")
	t := c.resolve("m.txt")
	v := c.version("m.txt", t)
	for _, tc := range []struct {
		req  fs.EditRequest
		want *fs.Error
	}{
		{req("absent", "y"), fs.OldStringNotFound(c.path("m.txt"))},
		{req("x", "y"), fs.AmbiguousEdit(3, c.path("m.txt"))},
		{req("", "y"), fs.OldStringEmpty()},
		{req("X", "y"), fs.OldStringNotFound(c.path("m.txt"))},
	} {
		op := fmt.Sprintf("EditText(m.txt, %q -> %q) of %q", tc.req.OldString, tc.req.NewString, "x x x")
		_, err := c.fsys.EditText(c.ctx, t, tc.req, nil)
		c.wantErr(op, err, tc.want)
		c.unchanged(op, "m.txt", t, "x x x", v)
	}
}

// An edit changes only the bytes it replaces: the other line breaks of the file (CRLF, LF, lone
// CR, mixed) stay as they are; old_string's LFs match CRLF pairs; the new text's line breaks
// follow the line it lands in.
func checkEditLineEndings(c *checker) {
	for _, e := range []edit{
		{"crlf.txt", "a\r\nOLD\r\nb\r\n", req("OLD", "NEW"), "a\r\nNEW\r\nb\r\n"},
		{"span.txt", "a\r\nOLD\r\nb\r\n", req("a\nOLD", "A\nNEW"), "A\r\nNEW\r\nb\r\n"},
		{"lines.txt", "a\r\nOLD\r\nb\r\n", req("OLD", "N1\nN2"), "a\r\nN1\r\nN2\r\nb\r\n"},
		{"mixed.txt", "a1\na2\na3\r\na4\n", req("a1", "A1"), "A1\na2\na3\r\na4\n"},
		{"cr.txt", "x\ry\r\nOLD\r\n", req("OLD", "NEW"), "x\ry\r\nNEW\r\n"},
		{"lf.txt", "a\nOLD\nb\n", req("OLD", "N1\r\nN2"), "a\nN1\nN2\nb\n"},
	} {
		e.run(c)
	}
}

// An edit keeps a leading BOM; the BOM is invisible to matching and to the outcome.
func checkEditBOM(c *checker) {
	const bom = "\uFEFF"
	edit{"body.txt", bom + "head\nbody\n", req("body", "BODY"), bom + "head\nBODY\n"}.run(c)
	edit{"head.txt", bom + "head\nbody\n", req("head", "HEAD"), bom + "HEAD\nbody\n"}.run(c)
	c.put("m.txt", bom+"head\n")
	t := c.resolve("m.txt")
	v := c.version("m.txt", t)
	_, err := c.fsys.EditText(c.ctx, t, req(bom+"head", "x"), nil)
	c.wantErr("EditText(m.txt, BOM+\"head\" -> \"x\")", err, fs.OldStringNotFound(c.path("m.txt")))
	c.unchanged("EditText(BOM+old_string)", "m.txt", t, bom+"head\n", v)
}

// A missing file is FS_STALE_VERSION with or without a guard; a guard other than the current
// version is FS_STALE_VERSION before any matching; a directory is FS_NOT_REGULAR_FILE.
func checkEditGuards(c *checker) {
	gone := c.resolve("gone.txt")
	for _, g := range []*fs.EditGuard{nil, {Version: "fstest-not-a-version"}} {
		_, err := c.fsys.EditText(c.ctx, gone, req("a", "b"), g)
		c.wantErr(fmt.Sprintf("EditText(gone.txt, guard %v) of a missing file", g != nil), err, fs.EditChanged(c.path("gone.txt")))
	}
	if _, ok := c.disk("gone.txt"); ok {
		c.errorf("a failed edit created gone.txt")
	}

	c.put("f.txt", "alpha")
	t := c.resolve("f.txt")
	old := c.version("f.txt", t)
	c.put("f.txt", "alpha beta")
	v := c.version("f.txt", t)
	for name, g := range sorted(map[string]fs.Version{"an outdated version": old, "a made-up version": "fstest-not-a-version"}) {
		for _, r := range []fs.EditRequest{req("beta", "gamma"), req("absent", "x"), req("a", "b")} {
			op := fmt.Sprintf("EditText(f.txt, %q -> %q) guarded by %s", r.OldString, r.NewString, name)
			_, err := c.fsys.EditText(c.ctx, t, r, &fs.EditGuard{Version: g})
			c.wantErr(op, err, fs.EditChanged(c.path("f.txt")))
			c.unchanged(op, "f.txt", t, "alpha beta", v)
		}
	}

	c.mkdir("d")
	d := c.resolve("d")
	for _, g := range []*fs.EditGuard{nil, {Version: c.version("d", d)}} {
		_, err := c.fsys.EditText(c.ctx, d, req("a", "b"), g)
		c.wantErr(fmt.Sprintf("EditText(d, guard %v) of a directory", g != nil), err, fs.EditNotRegular(c.path("d")))
	}
}

// A file with a NUL anywhere is FS_NOT_TEXT "binary file", one with invalid UTF-8 FS_NOT_TEXT
// "invalid UTF-8 text", and neither is rewritten.
func checkEditNotText(c *checker) {
	for _, tc := range []struct {
		rel, data string
		want      *fs.Error
	}{
		{"late-nul", strings.Repeat("a", 10000) + "\x00 TARGET", fs.EditBinary(c.path("late-nul"))},
		{"invalid", "TARGET \xff", fs.EditInvalidUTF8(c.path("invalid"))},
	} {
		c.put(tc.rel, tc.data)
		t := c.resolve(tc.rel)
		v := c.version(tc.rel, t)
		_, err := c.fsys.EditText(c.ctx, t, req("TARGET", "x"), nil)
		c.wantErr("EditText("+tc.rel+")", err, tc.want)
		c.unchanged("EditText", tc.rel, t, tc.data, v)
	}
}

// An edit through a symbolic link edits the file it links to and leaves the link in place.
func checkEditSymlink(c *checker) {
	c.put("target.txt", "before")
	c.symlink("target.txt", "link.txt")
	if _, err := c.fsys.EditText(c.ctx, c.resolve("link.txt"), req("before", "after"), nil); c.noErr("EditText(link.txt)", err) {
		c.wantDisk("EditText(link.txt)", "target.txt", "after")
		wantLink(c, "EditText(link.txt)", "link.txt", "target.txt")
	}
}

// Guarded edits racing on one version: exactly one wins, the others are FS_STALE_VERSION.
func checkEditConcurrent(c *checker) {
	c.put("c.txt", "base")
	t := c.resolve("c.txt")
	v := c.version("c.txt", t)
	race(c, "EditText(c.txt) guarded by v0", "c.txt", 8, fs.EditChanged(c.path("c.txt")), func(i int) error {
		_, err := c.fsys.EditText(c.ctx, t, req("base", writerContent(i)), &fs.EditGuard{Version: v})
		return err
	})
}
