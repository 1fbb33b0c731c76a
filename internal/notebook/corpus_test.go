package notebook_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/notebook"
	"github.com/cordon-dev/cordon/internal/notebook/nbformattest"
)

// TestCorpusEditsKeepEveryOtherByte pins, over the real notebooks of testdata/corpus (nbformat 4.0
// to 4.5, written by several tools), that a replace, an insert and a delete each change only
// the bytes of the cell they touch (and, for an insert or a delete, one separator), that
// nbformat reads the result as the notebook it makes of the same edit, and that where nbformat
// writes the original byte for byte, the edit's bytes are exactly nbformat's.
func TestCorpusEditsKeepEveryOtherByte(t *testing.T) {
	files, err := filepath.Glob("testdata/corpus/*/*.ipynb")
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(files), 20)
	type probe struct {
		file string
		nbformattest.Case
		got string
	}
	var probes []probe
	minors := map[int]int{}
	canonical := map[string]bool{}
	var unedited []nbformattest.Case
	for _, f := range files {
		raw, err := os.ReadFile(f)
		require.NoError(t, err)
		text := string(raw)
		nb, err := notebook.Parse(text)
		require.NoError(t, err, f)
		minors[nb.Minor]++
		unedited = append(unedited, nbformattest.Case{Text: text, Mode: "none"})
		if len(nb.Cells) == 0 {
			continue
		}
		i := len(nb.Cells) / 2
		start, end := nb.Span(i)
		src := "edited = True\nprint(\"é\")\n"

		got, err := nb.Replace(i, src, "")
		require.NoError(t, err)
		require.Equal(t, text[:start], got[:start], f)
		require.True(t, strings.HasSuffix(got, text[end:]), f)
		probes = append(probes, probe{f, nbformattest.Case{Text: text, Mode: "replace", Index: i, Source: src}, got})

		id := ""
		if nb.HasIDs() {
			id = nb.NewID()
		}
		got, err = nb.Insert(i, notebook.TypeMarkdown, id, "# inserted\n")
		require.NoError(t, err)
		require.Equal(t, text[:end], got[:end], f)
		require.True(t, strings.HasSuffix(got, text[end:]), f)
		probes = append(probes, probe{f, nbformattest.Case{Text: text, Mode: "insert", Index: i, Source: "# inserted\n", Type: "markdown", ID: id}, got})

		// A delete takes the cell and the separator after it (before it, for the last cell).
		got = nb.Delete(i)
		switch {
		case i+1 < len(nb.Cells):
			next, _ := nb.Span(i + 1)
			require.Equal(t, text[:start]+text[next:], got, f)
			require.Empty(t, strings.Trim(text[end:next], ", \n\r\t"), f)
		case i > 0:
			_, prev := nb.Span(i - 1)
			require.Equal(t, text[:prev]+text[end:], got, f)
			require.Empty(t, strings.Trim(text[prev:start], ", \n\r\t"), f)
		}
		probes = append(probes, probe{f, nbformattest.Case{Text: text, Mode: "delete", Index: i}, got})
	}
	for i, a := range nbformattest.Ask(t, unedited) {
		canonical[files[i]] = a.Text == unedited[i].Text
	}
	cases := make([]nbformattest.Case, len(probes))
	for i, p := range probes {
		cases[i] = p.Case
		cases[i].Ours = &probes[i].got
	}
	exact := 0
	for i, a := range nbformattest.Ask(t, cases) {
		p := probes[i]
		require.NotNil(t, a.Same, "%s %s: %s", p.file, p.Mode, deref(a.Invalid))
		require.True(t, *a.Same, "%s %s: nbformat reads the edit as another notebook", p.file, p.Mode)
		if canonical[p.file] {
			require.Equal(t, a.Text, p.got, "%s %s", p.file, p.Mode)
			exact++
		}
	}
	t.Logf("%d notebooks (minor versions %v), %d edits, %d of them on notebooks nbformat writes byte for byte and equal to nbformat's bytes", len(files), minors, len(probes), exact)
}
