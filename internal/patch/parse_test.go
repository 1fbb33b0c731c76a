package patch_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/echo"
	"github.com/cordon-dev/cordon/internal/patch"
)

func TestParseOperations(t *testing.T) {
	p, err := patch.Parse("*** Begin Patch\n" +
		"*** Add File: path/add.py\n+abc\n+def\n" +
		"*** Delete File: path/delete.py\n" +
		"*** Update File: path/update.py\n*** Move to: path/update2.py\n@@ def f():\n-    pass\n+    return 123\n" +
		"\n@@\n keep\n*** End of File\n" +
		"*** End Patch")
	require.NoError(t, err)
	require.Equal(t, []patch.Op{
		{Kind: patch.Add, Path: "path/add.py", Lines: []string{"abc", "def"}, Line: 2},
		{Kind: patch.Delete, Path: "path/delete.py", Line: 5},
		{Kind: patch.Update, Path: "path/update.py", MoveTo: "path/update2.py", Line: 6, Chunks: []patch.Chunk{
			// A blank line inside a chunk is an empty context line (as in Codex).
			{Context: "def f():", HasContext: true, Old: []string{"    pass", ""}, New: []string{"    return 123", ""}, Line: 8},
			{Old: []string{"keep"}, New: []string{"keep"}, EOF: true, Line: 12},
		}},
	}, p.Ops)
	require.Equal(t, "abc\ndef\n", p.Ops[0].Text())
}

func TestParseLenientForms(t *testing.T) {
	for name, text := range map[string]string{
		"padded markers":   " *** Begin Patch \n  *** Update File: a\n@@\n-x\n+y\n *** End Patch ",
		"CRLF":             "*** Begin Patch\r\n*** Update File: a\r\n@@\r\n-x\r\n+y\r\n*** End Patch\r\n",
		"heredoc":          "<<'EOF'\n*** Begin Patch\n*** Update File: a\n@@\n-x\n+y\n*** End Patch\nEOF\n",
		"no @@ first":      "*** Begin Patch\n*** Update File: a\n-x\n+y\n*** End Patch",
		"surrounding text": "\n\n*** Begin Patch\n*** Update File: a\n@@\n-x\n+y\n*** End Patch\n\n",
	} {
		t.Run(name, func(t *testing.T) {
			p, err := patch.Parse(text)
			require.NoError(t, err)
			require.Len(t, p.Ops, 1)
			require.Equal(t, "a", p.Ops[0].Path)
			require.Equal(t, []string{"x"}, p.Ops[0].Chunks[0].Old)
			require.Equal(t, []string{"y"}, p.Ops[0].Chunks[0].New)
		})
	}
}

func TestParseErrors(t *testing.T) {
	for name, c := range map[string]struct{ text, msg string }{
		"no begin":      {"bad", "invalid patch: the first line of the patch must be '*** Begin Patch'"},
		"empty":         {"", "invalid patch: the first line of the patch must be '*** Begin Patch'"},
		"no end":        {"*** Begin Patch\nbad", "invalid patch: the last line of the patch must be '*** End Patch'"},
		"bad header":    {"*** Begin Patch\n*** Frobnicate File: foo\n*** End Patch", "invalid patch: line 2: '*** Frobnicate File: foo' is not a valid file header; valid headers are '*** Add File: <path>', '*** Delete File: <path>' and '*** Update File: <path>'"},
		"empty update":  {"*** Begin Patch\n*** Update File: a\n*** End Patch", "invalid patch: line 2: the Update File section for 'a' has no @@ chunk"},
		"bad line":      {"*** Begin Patch\n*** Update File: a\n@@\n-x\n@@\nbad\n*** End Patch", "invalid patch: line 6: unexpected line in a chunk: 'bad'; every line must start with ' ' (context), '+' (added) or '-' (removed)"},
		"bare @@":       {"*** Begin Patch\n*** Update File: a\n@@\n*** End Patch", "invalid patch: line 4: the chunk has no lines"},
		"eof first":     {"*** Begin Patch\n*** Update File: a\n@@\n*** End of File\n*** End Patch", "invalid patch: line 4: the chunk has no lines"},
		"second no @@":  {"*** Begin Patch\n*** Update File: a\n@@\n-x\nzz\n*** End Patch", "invalid patch: line 5: expected a chunk to start with a @@ line, got 'zz'"},
		"trailing only": {"*** Begin Patch\n*** Update File: a\n@@\n", "invalid patch: the last line of the patch must be '*** End Patch'"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := patch.Parse(c.text)
			var pe *patch.ParseError
			require.True(t, errors.As(err, &pe), "%v", err)
			require.Equal(t, c.msg, err.Error())
		})
	}
}

func TestParseEmptyPatch(t *testing.T) {
	p, err := patch.Parse("*** Begin Patch\n*** End Patch\n")
	require.NoError(t, err)
	require.Empty(t, p.Ops)
}

// FuzzParse checks that Parse never panics and fails only with a *ParseError, that an accepted
// Update always has chunks, and that applying any accepted chunk to a file (the input after a NUL,
// if any) never panics.
func FuzzParse(f *testing.F) {
	f.Add("*** Begin Patch\n*** Add File: a\n+x\n*** End Patch")
	f.Add("*** Begin Patch\n*** Update File: a\n*** Move to: b\n@@ ctx\n x\n-y\n+z\n*** End of File\n*** End Patch\n")
	f.Add("<<EOF\n*** Begin Patch\n*** Delete File: a\n*** End Patch\nEOF")
	f.Add(" *** Begin Patch\n\n@@\n*** End Patch ")
	f.Add("*** Begin Patch\n*** Update File: a\n@@ x\n y\n-z\n+w\n*** End Patch\x00x\r\ny\r\nz")
	f.Fuzz(func(t *testing.T, text string) {
		raw := "a\nb\r\nc"
		if i := strings.Index(text, "\x00"); i >= 0 { // the part after a NUL is the file
			text, raw = text[:i], text[i+1:]
		}
		p, err := patch.Parse(text)
		if err != nil {
			var pe *patch.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error of another type: %T %v", err, err)
			}
			return
		}
		for _, op := range p.Ops {
			if op.Kind == patch.Update && len(op.Chunks) == 0 {
				t.Fatalf("an update without chunks: %+v", op)
			}
			for _, c := range op.Chunks {
				_, _ = patch.Apply(t.Context(), raw, []patch.Chunk{c}) // never panics
			}
		}
	})
}

// docs/apply_patch.md "Errors": a line the error repeats is cut to echo.MaxBytes, the cut
// marked, so a 1 MB line gives an error of a few hundred bytes in the same sentence.
func TestParseErrorsBoundTheEcho(t *testing.T) {
	long := strings.Repeat("é", 500_000) // 1,000,000 bytes
	head := echo.String(long, echo.MaxBytes)
	require.Equal(t, strings.Repeat("é", 100)+"[cut: 999800 more bytes]", head)
	for name, c := range map[string]struct{ text, msg string }{
		"bad header":   {"*** Begin Patch\n" + long + "\n*** End Patch", "invalid patch: line 2: '" + head + "' is not a valid file header; valid headers are '*** Add File: <path>', '*** Delete File: <path>' and '*** Update File: <path>'"},
		"empty update": {"*** Begin Patch\n*** Update File: " + long + "\n*** End Patch", "invalid patch: line 2: the Update File section for '" + head + "' has no @@ chunk"},
		"bad line":     {"*** Begin Patch\n*** Update File: a\n@@\n-x\n@@\n" + long + "\n*** End Patch", "invalid patch: line 6: unexpected line in a chunk: '" + head + "'; every line must start with ' ' (context), '+' (added) or '-' (removed)"},
		"second no @@": {"*** Begin Patch\n*** Update File: a\n@@\n-x\n" + long + "\n*** End Patch", "invalid patch: line 5: expected a chunk to start with a @@ line, got '" + head + "'"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := patch.Parse(c.text)
			require.Error(t, err)
			require.Equal(t, c.msg, err.Error())
		})
	}
}
