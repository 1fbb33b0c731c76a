package textedit_test

import (
	"strings"
	"testing"

	"github.com/cordon-dev/cordon/internal/textedit"
)

func TestNormalizeLF(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"a\nb", "a\nb"},
		{"a\r\nb\r\n", "a\nb\n"},
		{"lone\rcr\r\n", "lone\rcr\n"},
		{"\r\r\n", "\r\n"},
		{"\r\n\r\n", "\n\n"},
	}
	for _, tt := range tests {
		if got := textedit.NormalizeLF(tt.in); got != tt.want {
			t.Errorf("NormalizeLF(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestDetectLineEndings(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want textedit.LineEndings
	}{
		{"empty", "", textedit.LF},
		{"no newline", "abc", textedit.LF},
		{"lf", "a\nb\n", textedit.LF},
		{"crlf", "a\r\nb\r\n", textedit.CRLF},
		{"tie is lf", "a\r\nb\n", textedit.LF},
		{"crlf majority", "a\r\nb\r\nc\n", textedit.CRLF},
		{"lone cr is nothing", "a\rb\rc\r\nd", textedit.CRLF},
		// Only the first 4096 characters count: 4096 LF-free runes then CRLFs.
		{"beyond sample", strings.Repeat("x", 4096) + "\r\n\r\n", textedit.LF},
		// Characters, not bytes: 4094 two-byte runes leave room for one CRLF.
		{"sample counts runes", strings.Repeat("é", 4094) + "\r\n" + "\n\n", textedit.CRLF},
		{"pair cut by boundary", strings.Repeat("x", 4095) + "\r\n", textedit.LF},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := textedit.DetectLineEndings(tt.in); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestRestoreLineEndings(t *testing.T) {
	tests := []struct {
		in   string
		le   textedit.LineEndings
		want string
	}{
		{"a\nb\n", textedit.LF, "a\nb\n"},
		{"a\nb\n", textedit.CRLF, "a\r\nb\r\n"},
		{"a\rb\n", textedit.CRLF, "a\rb\r\n"},
		// a lone CR before a line break survives the round trip
		{"x\r\n", textedit.CRLF, "x\r\r\n"},
	}
	for _, tt := range tests {
		if got := textedit.RestoreLineEndings(tt.in, tt.le); got != tt.want {
			t.Errorf("Restore(%q, %v) = %q, want %q", tt.in, tt.le, got, tt.want)
		}
	}
}

func TestDecode(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    textedit.Doc
		failure textedit.Failure
	}{
		{"plain", "a\nb", textedit.Doc{Raw: "a\nb", Content: "a\nb"}, textedit.None},
		{"crlf", "a\r\nb\r\n", textedit.Doc{Raw: "a\r\nb\r\n", Content: "a\nb\n", Endings: textedit.CRLF}, textedit.None},
		{"bom", "\xEF\xBB\xBFhi\r\n", textedit.Doc{Raw: "hi\r\n", Content: "hi\n", Endings: textedit.CRLF, BOM: true}, textedit.None},
		{"only one bom stripped", "\xEF\xBB\xBF\xEF\xBB\xBFx", textedit.Doc{Raw: "\uFEFFx", Content: "\uFEFFx", BOM: true}, textedit.None},
		{"late nul", strings.Repeat("a", 10000) + "\x00", textedit.Doc{}, textedit.Binary},
		{"nul wins over utf8", "\xff\x00", textedit.Doc{}, textedit.Binary},
		{"invalid", "a\xffb", textedit.Doc{}, textedit.InvalidUTF8},
		{"truncated bom", "\xEF\xBBx", textedit.Doc{}, textedit.InvalidUTF8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, f := textedit.Decode([]byte(tt.in))
			if f != tt.failure || doc != tt.want {
				t.Errorf("Decode = %+v, %v; want %+v, %v", doc, f, tt.want, tt.failure)
			}
		})
	}
}

func TestTrimBOM(t *testing.T) {
	if got := textedit.TrimBOM("\uFEFF\uFEFFx"); got != "\uFEFFx" {
		t.Errorf("TrimBOM = %q", got)
	}
}
