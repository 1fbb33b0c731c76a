package fstest

import (
	"fmt"
	"iter"
	"strconv"
	"strings"
	"time"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// stream concatenates StreamText.
func (c *checker) stream(rel string, t fs.Target) (string, error) {
	return collectText(c, "StreamText("+rel+")", func() (iter.Seq2[string, error], error) { return c.fsys.StreamText(c.ctx, t) })
}

// readers are the text reads that must agree: ReadText, StreamText and, when implemented,
// StreamTextBytes. Every text the checks lay out is UTF-8, so ReadText must name no charset.
func (c *checker) readers(rel string, t fs.Target) map[string]func() (string, error) {
	out := map[string]func() (string, error){
		"ReadText":   func() (string, error) { return c.readText(rel, t) },
		"StreamText": func() (string, error) { return c.stream(rel, t) },
	}
	if bs, ok := c.fsys.(fs.TextByteStreamer); ok {
		out["StreamTextBytes"] = func() (string, error) {
			return collectText(c, "StreamTextBytes("+rel+")", func() (iter.Seq2[[]byte, error], error) { return bs.StreamTextBytes(c.ctx, t) })
		}
	}
	return out
}

// readText is ReadText's text; it reports an outcome that names a charset for UTF-8 text.
func (c *checker) readText(rel string, t fs.Target) (string, error) {
	read, err := c.fsys.ReadText(c.ctx, t)
	if err == nil && read.Charset != "" {
		c.errorf("ReadText(%s).Charset = %q; want \"\" (the text is UTF-8)", rel, read.Charset)
	}
	return read.Text, err
}

// wantText reports unless every text read of rel returns want.
func (c *checker) wantText(rel string, t fs.Target, want string) {
	for name, read := range sorted(c.readers(rel, t)) {
		got, err := read()
		if c.noErr(name+"("+rel+")", err) && got != want {
			c.errorf("%s(%s) = %s; want %s", name, rel, excerpt(got), excerpt(want))
		}
	}
}

// wantReadErr reports unless every text read of rel fails with want.
func (c *checker) wantReadErr(rel string, t fs.Target, want *fs.Error) {
	for name, read := range sorted(c.readers(rel, t)) {
		_, err := read()
		c.wantErr(name+"("+rel+")", err, want)
	}
}

// Text reads return the file's bytes as they are (no newline normalization), without a leading
// UTF-8 BOM (only the first; one later in the text stays); a NUL after the first 8192 bytes is
// text. ReadText, StreamText and StreamTextBytes agree.
func checkReadText(c *checker) {
	const bom = "\uFEFF"
	cases := []struct{ name, data, want string }{
		{"empty", "", ""},
		{"lf", "plain\nlines\n", "plain\nlines\n"},
		{"crlf", "a\r\nb\r\n", "a\r\nb\r\n"},
		{"lone-cr", "a\rb", "a\rb"},
		{"mixed", "a\r\n\nb\r\r\n", "a\r\n\nb\r\r\n"},
		{"unicode", "héllo ✓ 😀 \u2028 end", "héllo ✓ 😀 \u2028 end"},
		{"bom", bom + "text\n", "text\n"},
		{"bom-only", bom, ""},
		{"two-boms", bom + bom + "x", bom + "x"},
		{"inner-bom", "x" + bom + "y", "x" + bom + "y"},
		{"late-nul", strings.Repeat("a", 8192) + "\x00b", strings.Repeat("a", 8192) + "\x00b"},
	}
	for _, tc := range cases {
		c.put(tc.name, tc.data)
		c.wantText(tc.name, c.resolve(tc.name), tc.want)
	}
}

// A NUL in the first 8192 bytes is FS_NOT_TEXT "binary file" (judged before UTF-8); any invalid
// UTF-8 (a stray byte, a sequence cut by the end of the file, a surrogate, an overlong form, far
// into the file) is FS_NOT_TEXT "invalid UTF-8 text"; every text read agrees.
func checkReadNotText(c *checker) {
	binary := map[string]string{
		"nul-first":   "\x00abc",
		"nul-at-8191": strings.Repeat("a", 8191) + "\x00" + strings.Repeat("b", 100),
		"nul-invalid": "\xff\x00",
		"bom-nul":     "\uFEFF\x00",
	}
	invalid := map[string]string{
		"stray":     "ab\xffcd",
		"cut":       "ab\xc3",
		"surrogate": "\xed\xa0\x80",
		"overlong":  "\xc0\xaf",
		"far":       strings.Repeat("abcdefgh", 1<<14) + "\xff",
	}
	for name, data := range sorted(binary) {
		c.put(name, data)
		c.wantReadErr(name, c.resolve(name), fs.ReadBinary(c.path(name)))
	}
	for name, data := range sorted(invalid) {
		c.put(name, data)
		c.wantReadErr(name, c.resolve(name), fs.ReadInvalidUTF8(c.path(name)))
	}
}

// Reads of a directory or a FIFO are FS_NOT_REGULAR_FILE (without blocking on the FIFO), of a
// missing file FS_NOT_FOUND, for every text read and ReadBytes.
func checkReadNotRegular(c *checker) {
	c.mkdir("d")
	cases := map[string]*fs.Error{"d": fs.ReadNotRegular(c.path("d")), "missing": fs.ReadNotFound(c.path("missing"), nil)}
	if mkfifo(c, "fifo") {
		cases["fifo"] = fs.ReadNotRegular(c.path("fifo"))
	}
	for rel, want := range sorted(cases) {
		t := c.resolve(rel)
		reads := c.readers(rel, t)
		reads["ReadBytes"] = func() (string, error) { b, err := c.fsys.ReadBytes(c.ctx, t, 1<<20); return string(b), err }
		for name, read := range sorted(reads) {
			done, err := within(blockLimit, func() error { _, err := read(); return err })
			if !done {
				unblockFIFO(c.path(rel))
				c.errorf("%s(%s) was still blocked after %v; want %s %q at once", name, rel, blockLimit, want.Kind, want.Message)
				continue
			}
			c.wantErr(name+"("+rel+")", err, want)
		}
	}
}

// A long text (2 MiB, multi-byte characters at every alignment) streams as the text
// ReadText returns, never splitting a UTF-8 sequence.
func checkStreamLong(c *checker) {
	var b strings.Builder
	for i := 0; b.Len() < 2<<20; i++ {
		b.WriteString(strconv.Itoa(i))
		b.WriteString(": xxxxxx"[:2+i%7])
		b.WriteString("é😀✓")
		b.WriteString("\r\n")
	}
	c.put("long.txt", b.String())
	c.wantText("long.txt", c.resolve("long.txt"), b.String())
}

// ReadBytes returns the raw bytes (BOM, NUL and invalid UTF-8 included), at most maxBytes: a file
// of exactly maxBytes is read, a larger one is FS_TOO_LARGE with its size and the limit.
func checkReadBytes(c *checker) {
	data := "\uFEFFa\x00\xff\r\n"
	c.put("raw", data)
	c.put("empty", "")
	t := c.resolve("raw")
	for _, limit := range []int64{100, int64(len(data))} {
		got, err := c.fsys.ReadBytes(c.ctx, t, limit)
		if c.noErr(fmt.Sprintf("ReadBytes(raw, %d)", limit), err) && string(got) != data {
			c.errorf("ReadBytes(raw, %d) = %q; want %q", limit, got, data)
		}
	}
	_, err := c.fsys.ReadBytes(c.ctx, t, int64(len(data)-1))
	c.wantErr(fmt.Sprintf("ReadBytes(raw, %d)", len(data)-1), err, fs.ReadTooLarge(c.path("raw"), int64(len(data)), int64(len(data)-1)))
	got, err := c.fsys.ReadBytes(c.ctx, c.resolve("empty"), 0)
	if c.noErr("ReadBytes(empty, 0)", err) && len(got) != 0 {
		c.errorf("ReadBytes(empty, 0) = %q; want no bytes", got)
	}
}

// excerpt shows a long text by its length, head and tail.
func excerpt(s string) string {
	if len(s) <= 80 {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprintf("%d bytes %q...%q", len(s), s[:32], s[len(s)-32:])
}

// blockLimit is how long a read of a FIFO may take before the check calls it blocked.
var blockLimit = 10 * time.Second

// within runs fn and waits at most d for it; done is false when fn is still running.
func within(d time.Duration, fn func() error) (done bool, err error) {
	ch := make(chan error, 1)
	go func() { ch <- fn() }()
	select {
	case err := <-ch:
		return true, err
	case <-time.After(d):
		return false, nil
	}
}
