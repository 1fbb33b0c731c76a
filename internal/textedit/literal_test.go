package textedit_test

import (
	"strings"
	"testing"

	"github.com/cordon-dev/cordon/internal/textedit"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs/editmodel"
)

func decode(t *testing.T, file string) textedit.Doc {
	t.Helper()
	doc, f := textedit.Decode([]byte(file))
	if f != textedit.None {
		t.Fatalf("Decode(%q): %v", file, f)
	}
	return doc
}

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
			out, n, f := decode(t, tt.content).Apply(tt.old, tt.new, tt.replaceAll)
			if out != tt.want || n != tt.count || f != tt.failure {
				t.Errorf("Apply = %q, %d, %v; want %q, %d, %v", out, n, f, tt.want, tt.count, tt.failure)
			}
		})
	}
}

// TestApplyKeepsTheFileBytes pins the splice: the bytes outside the matched
// spans never change, whatever the file's dominant style, and the new text's
// line breaks follow the span's own, else the line break ending the span's
// line, else the file's dominant style.
func TestApplyKeepsTheFileBytes(t *testing.T) {
	lf400 := strings.Repeat("lf\n", 400)
	crlf2000 := strings.Repeat("crlf\r\n", 2000)
	tests := []struct {
		name, file, old, new string
		replaceAll           bool
		want                 string
	}{
		{"mixed endings, LF line edited", "a1\na2\na3\r\na4\n", "a1", "A1", false, "A1\na2\na3\r\na4\n"},
		{"mixed endings, CRLF line edited", "a1\na2\na3\r\na4\n", "a3", "A3", false, "a1\na2\nA3\r\na4\n"},
		{"CRLF tail of an LF-dominant file", lf400 + crlf2000 + "end", "end", "END", false, lf400 + crlf2000 + "END"},
		{"LF head of a CRLF-dominant file", strings.Repeat("a\n", 3) + strings.Repeat("b\r\n", 10), "a\na", "x\ny", false, "x\ny\na\n" + strings.Repeat("b\r\n", 10)},
		{"lone CR before a CRLF", "x\r\r\ny\r\n", "y", "Y", false, "x\r\r\nY\r\n"},
		{"lone CR before a CRLF in an LF file", "x\r\r\ny\nz\n", "z", "Z", false, "x\r\r\ny\nZ\n"},
		{"match across a CRLF", "a\r\nb\nc\n", "a\nb", "1\n2\n3", false, "1\r\n2\r\n3\nc\n"},
		{"span's bare LF wins in a CRLF file", "p\r\nq\nr\r\ns\r\n", "q\nr", "Q\nR", false, "p\r\nQ\nR\r\ns\r\n"},
		{"tie in the span: the following CRLF", "p\r\nq\nr\r\ns\n", "p\nq\nr", "P\nQ", false, "P\r\nQ\r\ns\n"},
		{"tie in the span: the following LF", "p\r\nq\nr\ns\r\n", "p\nq\nr", "P\nQ", false, "P\nQ\ns\r\n"},
		{"no break in the span: its line's CRLF", "a\nb\nc\r\nd\n", "c", "c1\nc2", false, "a\nb\nc1\r\nc2\r\nd\n"},
		{"no break in the span: its line's LF", "a\r\nb\r\nc\nd\r\n", "c", "c1\nc2", false, "a\r\nb\r\nc1\nc2\nd\r\n"},
		{"last line unterminated: the dominant CRLF", "a\r\nb\r\nc\nd", "d", "d1\nd2", false, "a\r\nb\r\nc\nd1\r\nd2"},
		{"last line unterminated: the dominant LF", "a\nb\nc\r\nd", "d", "d1\nd2", false, "a\nb\nc\r\nd1\nd2"},
		{"new CRLF normalized, then styled", "a\nb\r\n", "b", "x\r\ny", false, "a\nx\r\ny\r\n"},
		{"new lone CR kept", "a\r\nb\r\n", "a", "x\ry", false, "x\ry\r\nb\r\n"},
		{"replace all, each span its own style", "k\nk\r\nk\n", "k", "K\nK", true, "K\nK\nK\r\nK\r\nK\nK\n"},
		{"replace all of a line break", "a\nb\r\nc\n", "\n", ";", true, "a;b;c;"},
		{"delete across styles", "a\r\nb\nc\r\n", "a\nb\n", "", false, "c\r\n"},
		{"pure CRLF file", "a\r\nOLD\r\nb\r\n", "OLD", "NEW", false, "a\r\nNEW\r\nb\r\n"},
		{"pure CRLF file, multi-line new", "x\r\ny\r\n", "x\r\n", "1\r\n2\n", false, "1\r\n2\r\ny\r\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body, _, f := decode(t, tt.file).Apply(tt.old, tt.new, tt.replaceAll)
			if f != textedit.None || body != tt.want {
				t.Fatalf("Apply = %q, %v; want %q", body, f, tt.want)
			}
			if m := editmodel.Edit(tt.file, tt.old, tt.new, tt.replaceAll); m.Disk != tt.want {
				t.Fatalf("the model disagrees with the pinned bytes: %q", m.Disk)
			}
		})
	}
}

// Plan sizes the result from the spans alone: the size is that of the text
// Body builds, CRLF files (where a span's raw length and the new text's line
// breaks vary) included.
func TestPlanSize(t *testing.T) {
	for _, tt := range []struct{ file, old, new string }{
		{"x", "x", strings.Repeat("y", 1000)},
		{"a OLD b OLD", "OLD", ""},
		{"a\r\nOLD\r\nb\r\n", "OLD", "N1\nN2\n"},
		{"a\nb\r\na\nb\r\n", "a\nb", "c\nd\ne"},
		{"p\r\nq\nr\r\n", "\n", "\n\n"},
		{"\xEF\xBB\xBFk\r\nk", "k", "kk\n"},
	} {
		doc := decode(t, tt.file)
		e, f := doc.Plan(tt.old, tt.new, true)
		if f != textedit.None {
			t.Fatalf("Plan(%q, %q): %v", tt.file, tt.old, f)
		}
		body, _, _ := doc.Apply(tt.old, tt.new, true)
		if e.Size() != int64(len(body)) || e.Body() != body {
			t.Errorf("Plan(%q, %q, %q): size %d, body %q (%d bytes)", tt.file, tt.old, tt.new, e.Size(), body, len(body))
		}
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

var modelFailures = map[string]textedit.Failure{
	"": textedit.None, editmodel.Binary: textedit.Binary, editmodel.InvalidUTF8: textedit.InvalidUTF8,
	editmodel.EmptyOld: textedit.EmptyOld, editmodel.NotFound: textedit.NotFound, editmodel.Ambiguous: textedit.Ambiguous,
}

// FuzzApply compares Decode and Apply with the independent model
// (editmodel): the failure, the count and the new bytes, and checks that the
// bytes outside the replaced spans are unchanged.
func FuzzApply(f *testing.F) {
	f.Add("a\r\nOLD\r\nb\r\n", "OLD", "NEW", false, false)
	f.Add("\xEF\xBB\xBFx\r\nx\r\n", "x", "y\n", true, true)
	f.Add("aaa", "aa", "b", false, false)
	f.Add("a\rb\r\r\nc\n", "b", "$&", false, false)
	f.Add("line\nline\r\nline", "line", "L", true, false)
	f.Add("a1\na2\na3\r\na4\n", "a1", "A1\nB1", false, false)
	f.Add("p\r\nq\nr\r\n", "p\nq", "P\r\nQ", false, false)
	f.Add("", "", "x", false, false)
	f.Fuzz(func(t *testing.T, raw, old, new string, replaceAll, bom bool) {
		file := raw
		if bom {
			file = textedit.BOM + raw
		}
		want := editmodel.Edit(file, old, new, replaceAll)
		doc, fail := textedit.Decode([]byte(file))
		if fail != textedit.None {
			if modelFailures[want.Failure] != fail {
				t.Fatalf("Decode: %v, model %q", fail, want.Failure)
			}
			return
		}
		if doc.Raw != strings.TrimPrefix(file, textedit.BOM) || doc.Content != strings.ReplaceAll(doc.Raw, "\r\n", "\n") {
			t.Fatalf("Doc %+v", doc)
		}
		body, n, f := doc.Apply(old, new, replaceAll)
		if f != modelFailures[want.Failure] || n != want.Count {
			t.Fatalf("Apply: %v %d, model %q %d", f, n, want.Failure, want.Count)
		}
		if f != textedit.None {
			return
		}
		if e, _ := doc.Plan(old, new, replaceAll); e.Size() != int64(len(body)) || e.Count() != n {
			t.Fatalf("Plan: size %d count %d, built %d bytes, %d matches", e.Size(), e.Count(), len(body), n)
		}
		disk := body
		if doc.BOM {
			disk = textedit.BOM + body
		}
		if disk != want.Disk {
			t.Fatalf("Apply = %q, model %q", disk, want.Disk)
		}
		if !want.KeepsGaps(disk, doc.BOM) {
			t.Fatalf("bytes outside the spans changed: %q, gaps %q", disk, want.Gaps)
		}
	})
}

// Spans names exactly the replacements Body makes.
func TestSpansRebuildBody(t *testing.T) {
	for _, tc := range []struct{ file, old, new string }{
		{"a OLD b OLD", "OLD", "N"},
		{"a\r\nOLD\r\nb\nOLD\n", "OLD", "x\ny"},
		{"p\r\nq\nr\r\ns\r\n", "q\nr", "Q\nR"},
	} {
		doc := decode(t, tc.file)
		e, f := doc.Plan(tc.old, tc.new, true)
		if f != textedit.None {
			t.Fatalf("Plan(%q): %v", tc.file, f)
		}
		var b strings.Builder
		last := 0
		e.Spans(func(rs, re int, text string) {
			b.WriteString(doc.Raw[last:rs])
			b.WriteString(text)
			last = re
		})
		b.WriteString(doc.Raw[last:])
		if got := b.String(); got != e.Body() {
			t.Errorf("%q: spans rebuild %q, Body is %q", tc.file, got, e.Body())
		}
	}
}
