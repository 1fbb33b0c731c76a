package fstest

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// wantWrite reports unless out is the outcome of a write of rel: the operation, the prior text
// (nil for a create), the new text LF-normalized without a leading BOM, and a version that Stat
// reports and that differs from the one before (prior, "" for a create).
func (c *checker) wantWrite(op, rel string, t fs.Target, out fs.WriteOutcome, operation fs.Operation, before *string, after string, prior fs.Version) {
	if out.Operation != operation {
		c.errorf("%s: Operation %q; want %q", op, out.Operation, operation)
	}
	switch {
	case before == nil && out.Before != nil:
		c.errorf("%s: Before %q; want nil (nothing was there)", op, *out.Before)
	case before != nil && out.Before == nil:
		c.errorf("%s: Before nil; want %q", op, *before)
	case before != nil && *out.Before != *before:
		c.errorf("%s: Before %q; want %q", op, *out.Before, *before)
	}
	if out.After != after {
		c.errorf("%s: After %q; want %q", op, out.After, after)
	}
	c.wantNewVersion(op, rel, t, out.Version, prior)
}

// wantNewVersion reports unless v, the version a mutation returned, is what Stat now reports and
// differs from prior.
func (c *checker) wantNewVersion(op, rel string, t fs.Target, v, prior fs.Version) {
	now := c.version(rel, t)
	switch {
	case v == "":
		c.errorf("%s: empty Version", op)
	case v != now:
		c.errorf("%s: Version %q; Stat then reports %q", op, v, now)
	case v == prior:
		c.errorf("%s: the version stayed %q; want a new version after every write", op, v)
	}
}

func ptr(s string) *string { return &s }

// A create (unguarded or CreateIfAbsent) makes missing parent directories, writes the content
// byte for byte (CRLF kept, no BOM added, a BOM of the content kept) and reports it LF-normalized
// without a BOM, with no prior text.
func checkWriteCreate(c *checker) {
	cases := []struct {
		rel, content, after string
		intent              *fs.WriteIntent
	}{
		{"new/deep/a.txt", "one\r\ntwo\n", "one\ntwo\n", nil},
		{"b.txt", "guarded\n", "guarded\n", fs.CreateIfAbsent()},
		{"empty.txt", "", "", nil},
		{"bom.txt", "\uFEFFhi\r\n", "hi\n", nil},
	}
	for _, tc := range cases {
		t := c.resolve(tc.rel)
		op := fmt.Sprintf("WriteText(%s, %s)", tc.rel, intentName(tc.intent))
		out, err := c.fsys.WriteText(c.ctx, t, tc.content, tc.intent)
		if !c.noErr(op, err) {
			continue
		}
		c.wantWrite(op, tc.rel, t, out, fs.OperationCreate, nil, tc.after, "")
		c.wantDisk(op, tc.rel, tc.content)
	}
}

// An unguarded write over a file replaces it: Before is the prior text LF-normalized, the bytes
// are the content, and even the same content again gets a new version.
func checkWriteUpdate(c *checker) {
	c.put("u.txt", "old\r\nline\n")
	t := c.resolve("u.txt")
	v := c.version("u.txt", t)
	for _, step := range []struct{ content, before string }{{"new\n", "old\nline\n"}, {"new\n", "new\n"}} {
		op := fmt.Sprintf("WriteText(u.txt, %q, nil) over %q", step.content, step.before)
		out, err := c.fsys.WriteText(c.ctx, t, step.content, nil)
		if !c.noErr(op, err) {
			return
		}
		c.wantWrite(op, "u.txt", t, out, fs.OperationUpdate, ptr(step.before), step.content, v)
		c.wantDisk(op, "u.txt", step.content)
		v = out.Version
	}
}

// CreateIfAbsent over an existing file is FS_NOT_OBSERVED and changes nothing.
func checkWriteCreateIfAbsent(c *checker) {
	c.put("e.txt", "keep")
	t := c.resolve("e.txt")
	v := c.version("e.txt", t)
	_, err := c.fsys.WriteText(c.ctx, t, "clobber", fs.CreateIfAbsent())
	c.wantErr("WriteText(e.txt, CreateIfAbsent) over a file", err, fs.OverwriteNotObserved(c.path("e.txt"), nil))
	c.unchanged("WriteText(CreateIfAbsent)", "e.txt", t, "keep", v)
}

// ReplaceIfVersion writes only over the version given: the current one (from Stat or from the
// last outcome) succeeds, an older one, one another writer outdated and a made-up one are
// FS_STALE_VERSION "file changed since it was read", and a missing file is FS_STALE_VERSION "file
// no longer exists" and is not created.
func checkWriteReplaceIfVersion(c *checker) {
	c.put("r.txt", "v1")
	t := c.resolve("r.txt")
	v1 := c.version("r.txt", t)
	out, err := c.fsys.WriteText(c.ctx, t, "v2", fs.ReplaceIfVersion(v1))
	if !c.noErr("WriteText(r.txt, ReplaceIfVersion(current))", err) {
		return
	}
	c.wantWrite("WriteText(r.txt, ReplaceIfVersion(current))", "r.txt", t, out, fs.OperationUpdate, ptr("v1"), "v2", v1)
	v2 := out.Version
	for name, v := range sorted(map[string]fs.Version{"an older version": v1, "a made-up version": "fstest-not-a-version"}) {
		_, err := c.fsys.WriteText(c.ctx, t, "v3", fs.ReplaceIfVersion(v))
		c.wantErr("WriteText(r.txt, ReplaceIfVersion("+name+"))", err, fs.WriteChanged(c.path("r.txt")))
		c.unchanged("WriteText(ReplaceIfVersion("+name+"))", "r.txt", t, "v2", v2)
	}
	out, err = c.fsys.WriteText(c.ctx, t, "v3", fs.ReplaceIfVersion(v2))
	if c.noErr("WriteText(r.txt, ReplaceIfVersion(the last outcome's version))", err) {
		c.wantDisk("a guarded write", "r.txt", "v3")
	}
	c.put("r.txt", "rewritten by another process")
	_, err = c.fsys.WriteText(c.ctx, t, "v4", fs.ReplaceIfVersion(out.Version))
	c.wantErr("WriteText(r.txt, ReplaceIfVersion) after another process rewrote it", err, fs.WriteChanged(c.path("r.txt")))
	c.wantDisk("a stale guarded write", "r.txt", "rewritten by another process")

	gone := c.resolve("gone.txt")
	_, err = c.fsys.WriteText(c.ctx, gone, "back", fs.ReplaceIfVersion(v2))
	c.wantErr("WriteText(gone.txt, ReplaceIfVersion) of a missing file", err, fs.WriteNoLongerExists(c.path("gone.txt")))
	if _, ok := c.disk("gone.txt"); ok {
		c.errorf("a failed ReplaceIfVersion created gone.txt")
	}
}

// Writing onto a directory is FS_NOT_REGULAR_FILE whatever the intent.
func checkWriteNotRegular(c *checker) {
	c.mkdir("d")
	t := c.resolve("d")
	v := c.version("d", t)
	for _, intent := range []*fs.WriteIntent{nil, fs.CreateIfAbsent(), fs.ReplaceIfVersion(v)} {
		_, err := c.fsys.WriteText(c.ctx, t, "x", intent)
		c.wantErr("WriteText(d, "+intentName(intent)+") onto a directory", err, fs.WriteNotRegular(c.path("d"), nil))
	}
	if info, err := os.Lstat(c.path("d")); err != nil || !info.IsDir() {
		c.errorf("a failed write onto the directory d replaced it")
	}
}

// A write over a file that starts with a UTF-8 BOM keeps the BOM (once, also when the content
// brings its own); a write over a file without one adds none. The outcome's texts show no BOM.
func checkWriteBOM(c *checker) {
	const bom = "\uFEFF"
	c.put("b.txt", bom+"old\n")
	c.put("n.txt", "plain")
	b := c.resolve("b.txt")
	out, err := c.fsys.WriteText(c.ctx, b, "new\n", nil)
	if c.noErr("WriteText(b.txt) over a BOM file", err) {
		c.wantWrite("WriteText(b.txt) over a BOM file", "b.txt", b, out, fs.OperationUpdate, ptr("old\n"), "new\n", "")
		c.wantDisk("WriteText(b.txt, \"new\\n\") over a BOM file", "b.txt", bom+"new\n")
	}
	if _, err := c.fsys.WriteText(c.ctx, b, bom+"own\n", nil); c.noErr("WriteText(b.txt, BOM+content)", err) {
		c.wantDisk("WriteText(b.txt, BOM+\"own\\n\") over a BOM file", "b.txt", bom+"own\n")
	}
	if _, err := c.fsys.WriteText(c.ctx, c.resolve("n.txt"), "x", nil); c.noErr("WriteText(n.txt)", err) {
		c.wantDisk("WriteText(n.txt, \"x\") over a file without BOM", "n.txt", "x")
	}
}

// A write through a symbolic link writes the file it links to and leaves the link in place.
func checkWriteSymlink(c *checker) {
	c.put("target.txt", "before")
	c.symlink("target.txt", "link.txt")
	t := c.resolve("link.txt")
	out, err := c.fsys.WriteText(c.ctx, t, "through", nil)
	if !c.noErr("WriteText(link.txt)", err) {
		return
	}
	c.wantDisk("WriteText(link.txt)", "target.txt", "through")
	wantLink(c, "WriteText(link.txt)", "link.txt", "target.txt")
	if v := c.version("target.txt", c.resolve("target.txt")); out.Version != v {
		c.errorf("WriteText(link.txt): Version %q; Stat(target.txt) reports %q", out.Version, v)
	}
}

// wantLink reports unless rel is still a symbolic link to target.
func wantLink(c *checker, op, rel, target string) {
	if got, err := os.Readlink(c.path(rel)); err != nil || got != target {
		c.errorf("after %s, %s is no longer a link to %s (%q, %v)", op, rel, target, got, err)
	}
}

// Successful and failed writes leave nothing in the directory but the files written (no staging
// residue).
func checkWriteNoResidue(c *checker) {
	c.mkdir("w/sub")
	a := c.resolve("w/a.txt")
	out, err := c.fsys.WriteText(c.ctx, a, "1", nil)
	c.noErr("WriteText(w/a.txt)", err)
	_, err = c.fsys.WriteText(c.ctx, a, "2", fs.ReplaceIfVersion(out.Version))
	c.noErr("WriteText(w/a.txt, ReplaceIfVersion)", err)
	_, _ = c.fsys.WriteText(c.ctx, a, "3", fs.ReplaceIfVersion(out.Version))
	_, _ = c.fsys.WriteText(c.ctx, a, "4", fs.CreateIfAbsent())
	_, _ = c.fsys.WriteText(c.ctx, c.resolve("w/sub"), "5", nil)
	_, _ = c.fsys.EditText(c.ctx, a, fs.EditRequest{OldString: "2", NewString: "6"}, nil)
	_, _ = c.fsys.EditText(c.ctx, a, fs.EditRequest{OldString: "absent", NewString: "7"}, nil)
	wantNames(c, "writes and edits", "w", "a.txt", "sub")
}

// wantNames reports unless dir holds exactly names (read with the os package).
func wantNames(c *checker, after, dir string, names ...string) {
	entries, err := os.ReadDir(c.path(dir))
	if err != nil {
		c.fatalf("reading %s back: %v", dir, err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if !slices.Equal(got, names) {
		c.errorf("after %s, %s holds %q; want %q", after, dir, got, names)
	}
}

// Guarded writes racing on one version: exactly one wins, the others are FS_STALE_VERSION and
// the file holds the winner's content; racing CreateIfAbsent: one creates, the others are
// FS_NOT_OBSERVED.
func checkWriteConcurrent(c *checker) {
	const n = 8
	c.put("c.txt", "base")
	t := c.resolve("c.txt")
	v := c.version("c.txt", t)
	race(c, "WriteText(c.txt, ReplaceIfVersion(v0))", "c.txt", n, fs.WriteChanged(c.path("c.txt")), func(i int) error {
		_, err := c.fsys.WriteText(c.ctx, t, writerContent(i), fs.ReplaceIfVersion(v))
		return err
	})
	fresh := c.resolve("fresh.txt")
	race(c, "WriteText(fresh.txt, CreateIfAbsent)", "fresh.txt", n, fs.OverwriteNotObserved(c.path("fresh.txt"), nil), func(i int) error {
		_, err := c.fsys.WriteText(c.ctx, fresh, writerContent(i), fs.CreateIfAbsent())
		return err
	})
}

func writerContent(i int) string { return fmt.Sprintf("writer %d\n", i) }

// race runs op(0..n-1) at once and reports unless exactly one succeeds, every other fails with
// lost, and rel holds the winner's content.
func race(c *checker, op, rel string, n int, lost *fs.Error, do func(i int) error) {
	errs := make([]error, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			errs[i] = do(i)
		}()
	}
	close(start)
	wg.Wait()
	winner := -1
	var wins []string
	for i, err := range errs {
		if err == nil {
			winner = i
			wins = append(wins, fmt.Sprint(i))
			continue
		}
		c.wantErr(fmt.Sprintf("%s, racer %d of %d", op, i, n), err, lost)
	}
	if len(wins) != 1 {
		c.errorf("%s, %d racers: %d succeeded (%s); want exactly one", op, n, len(wins), strings.Join(wins, ", "))
		return
	}
	c.wantDisk(op+" race", rel, writerContent(winner))
}

func intentName(i *fs.WriteIntent) string {
	switch {
	case i == nil:
		return "nil"
	case i.Kind == fs.IntentReplaceIfVersion:
		return "ReplaceIfVersion"
	}
	return string(i.Kind)
}
