package fstest

import (
	"math"
	"strings"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// StatText, when implemented (fs.StatReader), is Stat and ReadText in one look: the same Info
// (the version of the bytes read, which for an unchanged file is Stat's), the same text and
// charset below the bound, the same errors; no text at or above the bound, nor of an entry that is
// not a regular file; (nil, nil, nil) for an absent one.
func checkStatText(c *checker) {
	sr, ok := c.fsys.(fs.StatReader)
	if !ok {
		c.skip("the provider does not implement fs.StatReader")
		return
	}
	texts := map[string]string{"empty": "", "crlf": "a\r\nb\r\n", "bom": "\uFEFFtext\n", "long": strings.Repeat("line\n", 5000)}
	for rel, data := range sorted(texts) {
		c.put(rel, data)
		t := c.resolve(rel)
		want, err := c.fsys.ReadText(c.ctx, t)
		if !c.noErr("ReadText("+rel+")", err) {
			continue
		}
		stat, err := c.fsys.Stat(c.ctx, t)
		if !c.noErr("Stat("+rel+")", err) || !c.wantInfo("Stat("+rel+")", stat, fs.TypeFile, int64(len(data))) {
			continue
		}
		info, read, err := sr.StatText(c.ctx, t, int64(len(data))+1)
		switch {
		case !c.noErr("StatText("+rel+")", err):
		case info == nil:
			c.errorf("StatText(%s) described nothing; want Stat's %+v", rel, *stat)
		case read == nil:
			c.errorf("StatText(%s, below %d) read nothing; want the text of a %d-byte file", rel, len(data)+1, len(data))
		case read.Text != want.Text || read.Charset != want.Charset:
			c.errorf("StatText(%s) = %s (charset %q); want ReadText's %s (charset %q)", rel, excerpt(read.Text), read.Charset, excerpt(want.Text), want.Charset)
		case *info != *stat:
			c.errorf("StatText(%s).Info = %+v; want Stat's %+v (the file did not change)", rel, *info, *stat)
		}
		info, read, err = sr.StatText(c.ctx, t, int64(len(data)))
		if c.noErr("StatText("+rel+", at its size)", err) && read != nil {
			c.errorf("StatText(%s, below %d) read a %d-byte file; want no text at the bound", rel, len(data), len(data))
		} else if err == nil && (info == nil || *info != *stat) {
			c.errorf("StatText(%s, at its size).Info = %+v; want Stat's %+v", rel, info, *stat)
		}
	}
	c.put("binary", "\x00abc")
	c.put("invalid", "ab\xffcd")
	for rel, want := range sorted(map[string]*fs.Error{"binary": fs.ReadBinary(c.path("binary")), "invalid": fs.ReadInvalidUTF8(c.path("invalid"))}) {
		info, read, err := sr.StatText(c.ctx, c.resolve(rel), math.MaxInt64)
		if c.wantErr("StatText("+rel+")", err, want) && (info == nil || info.Type != fs.TypeFile || read != nil) {
			c.errorf("StatText(%s) failing to read = %+v, %v; want the file's Info and no text", rel, info, read)
		}
	}
	c.mkdir("d")
	kinds := map[string]fs.FileType{"d": fs.TypeDirectory}
	if mkfifo(c, "fifo") {
		kinds["fifo"] = fs.TypeOther
	}
	for rel, typ := range sorted(kinds) {
		info, read, err := sr.StatText(c.ctx, c.resolve(rel), math.MaxInt64)
		if c.noErr("StatText("+rel+")", err) && c.wantInfo("StatText("+rel+")", info, typ, -1) && read != nil {
			c.errorf("StatText(%s) read a %s; want no text", rel, typ)
		}
	}
	if info, read, err := sr.StatText(c.ctx, c.resolve("missing"), math.MaxInt64); info != nil || read != nil || err != nil {
		c.errorf("StatText(missing) = %+v, %v, %s; want nil, nil, no error (absent)", info, read, describe(err))
	}
}
