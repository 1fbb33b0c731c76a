package nearmiss_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/nearmiss"
)

func TestFindKinds(t *testing.T) {
	file := "func f() {\n\tif err != nil {\n\t\treturn err\n\t}\n\n\tx := \"a\"\n\treturn nil  \n}\n"
	cases := []struct {
		old         string
		first, last int
		kind        string
	}{
		{"    if err != nil {\n        return err\n    }", 2, 4, "indentation"},
		{"\treturn nil\n}", 7, 8, "trailing whitespace"},
		{"\t\treturn err\n\t}\r", 3, 4, "line endings (a carriage return)"},
		{"\tx := “a”", 6, 6, "quotes (curly vs straight)"},
		{"\t}\n\tx := \"a\"", 4, 6, "blank lines (the file has more)"},
		{"\tif  err != nil {", 2, 2, "spacing inside a line"},
	}
	for _, c := range cases {
		r := nearmiss.Find(file, c.old)
		require.True(t, r.Searched)
		require.Len(t, r.Places, 1, "%q", c.old)
		p := r.Places[0]
		assert.Equal(t, [2]int{c.first, c.last}, [2]int{p.First, p.Last}, "%q", c.old)
		assert.Contains(t, nearmiss.Explain(r, file), c.kind, "%q", c.old)
	}
}

func TestEquallyClosePlacesAreAllShown(t *testing.T) {
	file := "a {\n  b\n}\nc {\n  b\n}\n"
	r := nearmiss.Find(file, "    b\n}")
	require.Len(t, r.Places, 2)
	out := nearmiss.Explain(r, file)
	assert.Contains(t, out, "is at 2 places, equally close; none was changed")
	assert.Contains(t, out, "lines 2-3")
	assert.Contains(t, out, "lines 5-6")
	// A closer place wins over one that differs in more.
	r = nearmiss.Find("  b\n}\n\tb\n\t}\n", "\tb  \n\t}")
	require.Len(t, r.Places, 1)
	assert.Equal(t, 3, r.Places[0].First)
}

func TestBounds(t *testing.T) {
	big := strings.Repeat("x\n", nearmiss.MaxLines+1)
	assert.False(t, nearmiss.Find(big, "  x").Searched, "too many lines: not searched")
	assert.False(t, nearmiss.Find(strings.Repeat("y", nearmiss.MaxBytes+1), "y ").Searched)
	assert.Equal(t, "", nearmiss.Explain(nearmiss.Find("abc\n", "zzz"), "abc\n"), "nothing close: no guidance")
	many := strings.Repeat("  v\n", 5000)
	out := nearmiss.Explain(nearmiss.Find(many, "v\r"), many)
	assert.LessOrEqual(t, len(out), nearmiss.ExplainMaxBytes)
	assert.Contains(t, out, "more places")
}

func FuzzFind(f *testing.F) {
	f.Add("a\n\tb\n c \n", " b\n c")
	f.Add("x “q” y\r\n\r\nz", "x \"q\" y\nz")
	f.Add("", "a")
	f.Add("\n\n\n", "\n")
	f.Fuzz(func(t *testing.T, text, old string) {
		r := nearmiss.Find(text, old)
		lines := strings.Count(strings.ReplaceAll(text, "\r\n", "\n"), "\n") + 1
		for _, p := range r.Places {
			if p.First < 1 || p.First > p.Last || p.Last > lines {
				t.Fatalf("place %d-%d outside 1-%d", p.First, p.Last, lines)
			}
		}
		if r2 := nearmiss.Find(text, old); len(r2.Places) != len(r.Places) {
			t.Fatal("not deterministic")
		}
		if out := nearmiss.Explain(r, text); len(out) > nearmiss.ExplainMaxBytes {
			t.Fatalf("explanation of %d bytes", len(out))
		}
	})
}
