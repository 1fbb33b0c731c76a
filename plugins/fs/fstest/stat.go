package fstest

import (
	"os"
	"strconv"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// Stat follows symbolic links and reports files, directories and other entries with a version
// (and a file's size, when it reports sizes); an absent entry, a dangling link and a path whose
// parent became a file are (nil, nil).
func checkStatKinds(c *checker) {
	c.put("f.txt", "hello")
	c.mkdir("d")
	c.symlink("f.txt", "flink")
	c.symlink("d", "dlink")
	c.symlink("missing", "dangling")
	c.mkdir("p")
	gone := c.resolve("p/x.txt")
	if err := os.Remove(c.path("p")); err != nil {
		c.fatalf("fixture: %v", err)
	}
	c.put("p", "now a file")
	fifo := mkfifo(c, "fifo")

	fileVersion := c.version("f.txt", c.resolve("f.txt"))
	want := map[string]fs.FileType{"f.txt": fs.TypeFile, "d": fs.TypeDirectory, "flink": fs.TypeFile, "dlink": fs.TypeDirectory}
	if fifo {
		want["fifo"] = fs.TypeOther
	}
	for rel, typ := range sorted(want) {
		info, err := c.fsys.Stat(c.ctx, c.resolve(rel))
		size := int64(-1)
		if typ == fs.TypeFile {
			size = 5
		}
		if c.noErr("Stat("+rel+")", err) && c.wantInfo("Stat("+rel+")", info, typ, size) && rel == "flink" && info.Version != fileVersion {
			c.errorf("Stat(flink).Version = %q; want %q, the version of f.txt it links to", info.Version, fileVersion)
		}
	}
	absent := map[string]fs.Target{"missing": c.resolve("missing"), "missing/deeper.txt": c.resolve("missing/deeper.txt"),
		"dangling": c.resolve("dangling"), "p/x.txt (p is now a file)": gone}
	for name, t := range sorted(absent) {
		info, err := c.fsys.Stat(c.ctx, t)
		if err != nil || info != nil {
			c.errorf("Stat(%s) = %+v, %s; want nil, no error (absent)", name, info, describe(err))
		}
	}
}

// A version is stable while nothing writes the file (reads and listings do not change it), and a
// rewrite by someone else that changes the size changes it.
func checkStatVersions(c *checker) {
	c.put("f.txt", "hello")
	t := c.resolve("f.txt")
	v := c.version("f.txt", t)
	if again := c.version("f.txt", t); again != v {
		c.errorf("two Stats of an unchanged file: versions %q and %q; want one", v, again)
	}
	_, _ = c.fsys.ReadText(c.ctx, t)
	_, _ = c.fsys.ReadBytes(c.ctx, t, 100)
	_, _ = c.stream("f.txt", t)
	_, _ = c.fsys.ListDir(c.ctx, c.resolve("."))
	_, _ = c.fsys.Lstat(c.ctx, c.path("f.txt"), fs.LstatOptions{})
	if after := c.version("f.txt", t); after != v {
		c.errorf("reading and listing changed the version of f.txt (%q -> %q)", v, after)
	}
	c.put("f.txt", "hello, world")
	if after := c.version("f.txt", t); after == v {
		c.errorf("a rewrite outside the provider (5 -> 12 bytes) left the version %q", v)
	}
}

// Lstat probes a path without following its final component: symbolic links (live or dangling)
// are symlinks, a trailing "/" follows the link and makes a non-directory absent; absent entries
// (also below a file) are (nil, nil); a blank path is FS_NOT_FOUND.
func checkLstat(c *checker) {
	c.put("f.txt", "hello")
	c.mkdir("d")
	c.symlink("f.txt", "flink")
	c.symlink("d", "dlink")
	c.symlink("missing", "dangling")
	for _, p := range []string{"", "  "} {
		_, err := c.fsys.Lstat(c.ctx, p, fs.LstatOptions{})
		c.wantErr("Lstat("+strconv.Quote(p)+")", err, fs.BlankPath())
	}
	for rel, typ := range sorted(map[string]fs.FileType{"f.txt": fs.TypeFile, "d": fs.TypeDirectory, "flink": fs.TypeSymlink,
		"dlink": fs.TypeSymlink, "dangling": fs.TypeSymlink, "dlink/": fs.TypeDirectory}) {
		info, err := c.fsys.Lstat(c.ctx, rel, fs.LstatOptions{Cwd: c.dir})
		size := int64(-1)
		if rel == "f.txt" {
			size = 5
		}
		if c.noErr("Lstat("+strconv.Quote(rel)+")", err) {
			c.wantInfo("Lstat("+strconv.Quote(rel)+")", (*fs.Info)(info), typ, size)
		}
	}
	for _, p := range []string{c.path("missing"), c.path("f.txt/x"), c.path("flink") + "/", "missing/x.txt"} {
		info, err := c.fsys.Lstat(c.ctx, p, fs.LstatOptions{Cwd: c.dir})
		if err != nil || info != nil {
			c.errorf("Lstat(%q) = %+v, %s; want nil, no error (absent)", p, info, describe(err))
		}
	}
}

// wantInfo reports unless info (from op) is present with type typ, a version and, when it reports
// a size and size is not negative, that size.
func (c *checker) wantInfo(op string, info *fs.Info, typ fs.FileType, size int64) bool {
	switch {
	case info == nil:
		c.errorf("%s = nil; want a %s", op, typ)
	case info.Type != typ:
		c.errorf("%s.Type = %q; want %q", op, info.Type, typ)
	case info.Version == "":
		c.errorf("%s: empty Version", op)
	case size >= 0 && info.HasSize && info.Size != size:
		c.errorf("%s.Size = %d; want %d", op, info.Size, size)
	default:
		return true
	}
	return false
}
