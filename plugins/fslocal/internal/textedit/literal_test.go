package textedit_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cordon-dev/cordon/plugins/fslocal/internal/textedit"
)

func TestApply(t *testing.T) {
	tests := []struct {
		name       string
		content    string
		old, new   string
		replaceAll bool
		want       string
		count      int
		failure    textedit.Failure
	}{
		{"single", "a OLD b", "OLD", "NEW", false, "a NEW b", 1, textedit.None},
		{"delete", "a OLD b", "OLD ", "", false, "a b", 1, textedit.None},
		{"empty old", "abc", "", "x", false, "", 0, textedit.EmptyOld},
		{"empty after normalization is not possible", "a\nb", "\r\n", "-", false, "a-b", 1, textedit.None},
		{"not found", "abc", "zz", "x", false, "", 0, textedit.NotFound},
		{"ambiguous", "x x x", "x", "y", false, "", 3, textedit.Ambiguous},
		{"replace all", "x x x", "x", "y", true, "y y y", 3, textedit.None},
		{"non-overlapping count", "aaa", "aa", "b", false, "ba", 1, textedit.None},
		{"non-overlapping all", "aaaa", "aa", "b", true, "bb", 2, textedit.None},
		{"literal dollar", "price", "price", "$& $1 $$", false, "$& $1 $$", 1, textedit.None},
		{"regex chars literal", "a.*b", ".*", "+", false, "a+b", 1, textedit.None},
		{"crlf old and new normalized", "a\nOLD\nb", "a\r\nOLD", "a\r\nNEW", false, "a\nNEW\nb", 1, textedit.None},
		{"whitespace old is legal", "a  b", " ", "_", true, "a__b", 2, textedit.None},
		{"replace all single", "one", "one", "two", true, "two", 1, textedit.None},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, n, f := textedit.Apply(tt.content, tt.old, tt.new, tt.replaceAll)
			if out != tt.want || n != tt.count || f != tt.failure {
				t.Errorf("Apply = %q, %d, %v; want %q, %d, %v", out, n, f, tt.want, tt.count, tt.failure)
			}
		})
	}
}

func TestFailureString(t *testing.T) {
	for f := textedit.None; f <= textedit.Ambiguous; f++ {
		if s := f.String(); s == "" || s == "unknown" {
			t.Errorf("Failure(%d).String() = %q", f, s)
		}
	}
	if textedit.Failure(99).String() != "unknown" || textedit.CRLF.String() != "CRLF" || textedit.LF.String() != "LF" {
		t.Error("String fallbacks")
	}
}

// refReplace is the reference model: scan left to right with Index, replace
// each match, resume after it.
func refReplace(content, old, new string) (string, int) {
	var b strings.Builder
	n := 0
	for {
		i := strings.Index(content, old)
		if i < 0 {
			b.WriteString(content)
			return b.String(), n
		}
		n++
		b.WriteString(content[:i])
		b.WriteString(new)
		content = content[i+len(old):]
	}
}

func refNormalize(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func FuzzApply(f *testing.F) {
	f.Add("a\r\nOLD\r\nb\r\n", "OLD", "NEW", false, false)
	f.Add("\xEF\xBB\xBFx\r\nx\r\n", "x", "y\n", true, true)
	f.Add("aaa", "aa", "b", false, false)
	f.Add("a\rb\r\r\nc\n", "b", "$&", false, false)
	f.Add("line\nline\r\nline", "line", "L", true, false)
	f.Add("", "", "x", false, false)
	f.Fuzz(func(t *testing.T, raw, old, new string, replaceAll, bom bool) {
		file := raw
		if bom {
			file = textedit.BOM + raw
		}
		doc, fail := textedit.Decode([]byte(file))
		if fail != textedit.None {
			return
		}
		if doc.BOM != (bom || strings.HasPrefix(raw, textedit.BOM)) {
			t.Fatalf("BOM detection: %v", doc.BOM)
		}
		if doc.Content != refNormalize(textedit.TrimBOM(file)) {
			t.Fatalf("content %q", doc.Content)
		}
		out, n, f := textedit.Apply(doc.Content, old, new, replaceAll)
		nOld, nNew := refNormalize(old), refNormalize(new)
		if nOld == "" {
			if f != textedit.EmptyOld {
				t.Fatalf("empty old: %v", f)
			}
			return
		}
		want, wantN := refReplace(doc.Content, nOld, nNew)
		switch {
		case wantN == 0:
			if f != textedit.NotFound {
				t.Fatalf("want NotFound, got %v", f)
			}
			return
		case wantN > 1 && !replaceAll:
			if f != textedit.Ambiguous || n != wantN {
				t.Fatalf("want Ambiguous %d, got %v %d", wantN, f, n)
			}
			return
		}
		if f != textedit.None || out != want || n != wantN {
			t.Fatalf("Apply = %q %d %v; want %q %d", out, n, f, want, wantN)
		}
		disk := doc.Encode(out)
		if doc.BOM != strings.HasPrefix(disk, textedit.BOM) {
			t.Fatalf("BOM not kept: %q", disk)
		}
		body := disk
		if doc.BOM {
			body = disk[len(textedit.BOM):]
		}
		if doc.Endings == textedit.CRLF {
			// every LF is preceded by CR, and stripping the CRs we added
			// gives back the edited content
			if strings.Count(body, "\n") != strings.Count(body, "\r\n") {
				t.Fatalf("bare LF left in CRLF file: %q", body)
			}
			if strings.ReplaceAll(body, "\r\n", "\n") != out {
				t.Fatalf("CRLF restore changed content: %q vs %q", body, out)
			}
		} else if body != out {
			t.Fatalf("LF file rewritten: %q vs %q", body, out)
		}
		// The written file decodes back to the edited content (unless the
		// edit itself inserted a NUL, which makes the file binary).
		if strings.Contains(out, "\x00") || !utf8.ValidString(out) || !doc.BOM && strings.HasPrefix(out, textedit.BOM) {
			return
		}
		again, fail := textedit.Decode([]byte(disk))
		wantAgain := out
		if doc.Endings == textedit.LF {
			wantAgain = refNormalize(out)
		}
		if fail != textedit.None || again.Content != wantAgain || again.BOM != doc.BOM {
			t.Fatalf("re-decode: %v %q, want %q", fail, again.Content, wantAgain)
		}
	})
}
