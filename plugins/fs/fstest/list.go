package fstest

import (
	"reflect"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// ListDir returns the direct children in name order, the same twice, each with its basename, the
// type its link resolves to (other for a dangling link or a FIFO), a target whose display path is
// the parent's joined with the name and whose key is the child's, a version (when set) that is
// the one Stat reports, and a size for regular files only. Children of a directory reached
// through a symbolic link are spelled below the link.
func checkListDir(c *checker) {
	c.put("list/zeta.md", "zeta!")
	c.put("list/alpha.md", "alpha")
	c.mkdir("list/dir-skill")
	c.symlink("missing", "list/broken-link")
	c.symlink("alpha.md", "list/link.md")
	c.mkdir("empty")
	c.symlink("list", "via")
	want := []struct {
		name string
		typ  fs.FileType
		size int64
	}{
		{"alpha.md", fs.TypeFile, 5},
		{"broken-link", fs.TypeOther, -1},
		{"dir-skill", fs.TypeDirectory, -1},
		{"fifo", fs.TypeOther, -1},
		{"link.md", fs.TypeFile, 5},
		{"zeta.md", fs.TypeFile, 5},
	}
	if !mkfifo(c, "list/fifo") {
		want = append(want[:3], want[4:]...)
	}
	for _, dir := range []string{"list", "via"} {
		entries, err := c.fsys.ListDir(c.ctx, c.resolve(dir))
		if !c.noErr("ListDir("+dir+")", err) {
			continue
		}
		if len(entries) != len(want) {
			names := make([]string, len(entries))
			for i, e := range entries {
				names[i] = e.Name
			}
			c.errorf("ListDir(%s) names %q; want %d entries in name order", dir, names, len(want))
			continue
		}
		for i, w := range want {
			e := entries[i]
			rel := dir + "/" + w.name
			switch {
			case e.Name != w.name:
				c.errorf("ListDir(%s)[%d].Name = %q; want %q (name order)", dir, i, e.Name, w.name)
				continue
			case e.Type != w.typ:
				c.errorf("ListDir(%s) %s: Type %q; want %q", dir, w.name, e.Type, w.typ)
			case e.Target.DisplayPath != c.path(rel):
				c.errorf("ListDir(%s) %s: DisplayPath %q; want %q", dir, w.name, e.Target.DisplayPath, c.path(rel))
			case w.size >= 0 && (!e.HasSize || e.Size != w.size):
				c.errorf("ListDir(%s) %s: size %d (HasSize %v); want %d", dir, w.name, e.Size, e.HasSize, w.size)
			case w.size < 0 && e.HasSize:
				c.errorf("ListDir(%s) %s: a size (%d) on a %s; want sizes on regular files only", dir, w.name, e.Size, w.typ)
			}
			if key := c.resolve("list/" + w.name).Key; e.Target.Key != key {
				c.errorf("ListDir(%s) %s: Key %q; want %q, the key Resolve gives list/%s", dir, w.name, e.Target.Key, key, w.name)
			}
			if e.Version != "" && w.typ != fs.TypeOther {
				if v := c.version(rel, e.Target); e.Version != v {
					c.errorf("ListDir(%s) %s: Version %q; Stat reports %q", dir, w.name, e.Version, v)
				}
			}
		}
		again, err := c.fsys.ListDir(c.ctx, c.resolve(dir))
		if c.noErr("ListDir("+dir+") again", err) && !reflect.DeepEqual(again, entries) {
			c.errorf("two listings of the unchanged %s differ:\n%+v\n%+v", dir, entries, again)
		}
	}
	entries, err := c.fsys.ListDir(c.ctx, c.resolve("empty"))
	if c.noErr("ListDir(empty)", err) && len(entries) != 0 {
		c.errorf("ListDir(empty) = %+v; want no entries", entries)
	}
}

// Listing a missing path is FS_NOT_FOUND, listing a file or a FIFO FS_NOT_DIRECTORY.
func checkListDirErrors(c *checker) {
	c.put("f.txt", "f")
	cases := map[string]*fs.Error{"missing": fs.ListNotFound(c.path("missing"), nil), "f.txt": fs.ListNotDirectory(c.path("f.txt"))}
	if mkfifo(c, "fifo") {
		cases["fifo"] = fs.ListNotDirectory(c.path("fifo"))
	}
	for rel, want := range sorted(cases) {
		_, err := c.fsys.ListDir(c.ctx, c.resolve(rel))
		c.wantErr("ListDir("+rel+")", err, want)
	}
}
