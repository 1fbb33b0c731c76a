package toolfs_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/cordon-dev/cordon/plugins/attachments"
	"github.com/cordon-dev/cordon/plugins/tools/filetool"
)

// extNameModel restates Node's POSIX extname directly: drop trailing '/', take the last segment;
// ".." and a segment whose last '.' is its first character (or that has none) have no extension.
func extNameModel(p string) string {
	base := strings.TrimRight(p, "/")
	base = base[strings.LastIndexByte(base, '/')+1:]
	if base == ".." {
		return ""
	}
	i := strings.LastIndexByte(base, '.')
	if i <= 0 {
		return ""
	}
	return base[i:]
}

// FuzzImagePath checks the path and signature handling of read_image: ExtName agrees with the
// model above, is a suffix of the last segment starting with '.', never contains '/'; the
// extension verdict is consistent (an accepted extension maps to a known media type); and the
// signature sniffer agrees with the signatures of docs/tool-fs.md "read_image", whatever follows
// them.
func FuzzImagePath(f *testing.F) {
	for _, s := range []string{"a.png", "a.JPG", ".png", "png", "foo.", "...", "..", "a.png/", "x/.y.gif", "dir.png/f", "é.WEBP", ""} {
		f.Add(s, []byte("GIF89a"))
	}
	f.Add("shot", png1x1)
	f.Add("x", webp1x1)
	f.Add("y", []byte{0xFF, 0xD8, 0xFF, 0xDB})
	f.Add("z", []byte("RIFF\x00\x00\x00\x00WEBPVP8L"))
	f.Fuzz(func(t *testing.T, p string, data []byte) {
		ext := filetool.ExtName(p)
		if want := extNameModel(p); ext != want {
			t.Fatalf("ExtName(%q) = %q, want %q", p, ext, want)
		}
		if ext != "" {
			trimmed := strings.TrimRight(p, "/")
			if ext[0] != '.' || strings.ContainsRune(ext, '/') || !strings.HasSuffix(trimmed, ext) {
				t.Fatalf("ExtName(%q) = %q is not a dotted suffix of the last segment", p, ext)
			}
		}

		got := filetool.SniffImageType(data)
		var want attachments.MediaType
		switch {
		case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
			want = attachments.MediaTypePNG
		case bytes.HasPrefix(data, []byte("\xff\xd8\xff")):
			want = attachments.MediaTypeJPEG
		case bytes.HasPrefix(data, []byte("GIF87a")) || bytes.HasPrefix(data, []byte("GIF89a")):
			want = attachments.MediaTypeGIF
		case len(data) >= 12 && bytes.Equal(data[:4], []byte("RIFF")) && bytes.Equal(data[8:12], []byte("WEBP")):
			want = attachments.MediaTypeWebP
		}
		if got != want {
			t.Fatalf("SniffImageType(%x) = %q, want %q", data, got, want)
		}
		if got != "" {
			if !got.Known() {
				t.Fatalf("unknown media type %q", got)
			}
			if again := filetool.SniffImageType(append(bytes.Clone(data), 0, 1, 2)); again != got {
				t.Fatalf("trailing bytes changed the verdict: %q vs %q", again, got)
			}
		}
	})
}
