package elision_test

import (
	"strings"
	"testing"

	"github.com/cordon-dev/cordon/internal/elision"
)

func TestPlaceholderFindsElisionsInTheFilesCommentSyntax(t *testing.T) {
	for _, c := range []struct {
		name, line string
		want       bool
	}{
		{"a.go", "\t// ... rest of file unchanged ...", true},
		{"a.go", "// ... existing code ...", true},
		{"a.go", "// ...", true},
		{"a.go", "/* ... */", true},
		{"a.go", "// rest of the code unchanged", true},
		{"a.go", "// existing code here", true},
		{"a.go", "\t// ... other methods ...", true},
		{"a.py", "    # ... rest of the function remains the same", true},
		{"a.py", "# remaining tests unchanged ...", true},
		{"a.html", "<!-- ... -->", true},
		{"a.sql", "-- ... rest unchanged ...", true},
		{"notes", "# ... rest unchanged ...", true},
		{"a.tsx", "{/* ... existing JSX ... */}", true},
		// Not placeholders.
		{"a.py", "// ... rest of file unchanged ...", false}, // not Python's comment syntax
		{"a.go", "// Load reads the file and returns the rest of its lines.", false},
		{"a.go", "// The caller must hold mu...", false},
		{"a.go", "fmt.Println(\"...\")", false},
		{"a.py", "    ...", false},
		{"a.go", "args ...string", false},
		{"a.go", "// TODO: more cases", false},
	} {
		_, n, ok := elision.Placeholder(c.name, "package a\n"+c.line+"\n", "package a\n")
		if ok != c.want || (ok && n != 2) {
			t.Errorf("Placeholder(%q, %q) = line %d, %v; want %v", c.name, c.line, n, ok, c.want)
		}
	}
}

func TestPlaceholderTheFileAlreadyHadIsNoElision(t *testing.T) {
	old := "func f() {\n\t// ...\n}\n"
	if l, _, ok := elision.Placeholder("a.go", old+"func g() {}\n", old); ok {
		t.Fatalf("a comment the file had was taken for a placeholder: %q", l)
	}
}

func TestDroppedCountsLinesContentDoesNotKeep(t *testing.T) {
	old := "a\nb\n\nc\nd\n"
	gone, solid := elision.Dropped(old, "a\n  d\nx\n", nil)
	if gone != 3 || solid != 2 { // b, "", c
		t.Fatalf("Dropped = %d, %d; want 3, 2", gone, solid)
	}
	gone, solid = elision.Dropped(old, "a\n", func(l int) bool { return l >= 4 })
	if gone != 2 || solid != 2 { // c, d
		t.Fatalf("Dropped(keep lines 4-) = %d, %d; want 2, 2", gone, solid)
	}
	// The read lines (4-5: "}" and "x") are matched with content first: the unread "}" on line 2
	// is not kept by the content's "}", which is the read one (the model run's count, 159 for 161).
	gone, solid = elision.Dropped("a\n}\nb\n}\nx\n", "}\nx\ny\n", func(l int) bool { return l < 4 })
	if gone != 3 || solid != 3 { // a, }, b
		t.Fatalf("Dropped(read lines 4-5) = %d, %d; want 3, 3", gone, solid)
	}
	if g, s := elision.Dropped("", "x\n", nil); g != 0 || s != 0 {
		t.Fatalf("Dropped of an empty file = %d, %d", g, s)
	}
}

// A line longer than MaxLine that reaches a Replacement in pieces is not held: it counts as a
// non-blank line the content does not keep, blank or not; a line of any length in one piece is
// compared whole.
func TestReplacementCountsAnOverlongLineAsDropped(t *testing.T) {
	blank := strings.Repeat(" ", elision.MaxLine+1)
	old := "a\n" + blank + "\nb\n"
	r := elision.NewReplacement("f.txt", "a\n\nb\n", nil)
	for i := 0; i < len(old); i += 4096 {
		_, _ = r.WriteString(old[i:min(i+4096, len(old))])
	}
	if n := r.Lines(); n != 3 {
		t.Fatalf("Lines = %d; want 3", n)
	}
	if g, s := r.DroppedAll(); g != 1 || s != 1 {
		t.Fatalf("DroppedAll = %d, %d; want 1, 1 (the long line)", g, s)
	}
	if g, s := elision.Dropped(old, "a\n\nb\n", nil); g != 0 || s != 0 {
		t.Fatalf("Dropped (whole) = %d, %d; want 0, 0: a blank line kept by the content's", g, s)
	}
}

func TestLines(t *testing.T) {
	for text, want := range map[string]int{"": 0, "a": 1, "a\n": 1, "a\nb": 2, "\n\n": 2} {
		if got := elision.Lines(text); got != want {
			t.Errorf("Lines(%q) = %d, want %d", text, got, want)
		}
	}
}

func FuzzPlaceholder(f *testing.F) {
	for _, s := range []string{"// ... rest unchanged ...", "# ...", "<!-- … -->", "x := 1"} {
		f.Add("a.go", s, "package a\n")
	}
	f.Fuzz(func(t *testing.T, name, content, old string) {
		line, n, ok := elision.Placeholder(name, content, old)
		if ok && (n < 1 || !elision.Candidate(content) || line == "") {
			t.Fatalf("Placeholder(%q) = %q at %d without a candidate", content, line, n)
		}
		gone, solid := elision.Dropped(old, content, nil)
		if solid > gone || gone > elision.Lines(old) {
			t.Fatalf("Dropped = %d, %d of %d lines", gone, solid, elision.Lines(old))
		}
	})
}
