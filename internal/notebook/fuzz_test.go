package notebook_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/cordon-dev/cordon/internal/notebook"
)

// FuzzParse checks that no text makes the parser, a cell's view or an edit panic, that a parsed notebook's
// edits parse again with the cells they should have, and that what Dump writes parses back to
// the same bytes.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/corpus/*/*.ipynb")
	for _, p := range files[:min(len(files), 6)] {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(string(b))
		}
	}
	f.Add(`{"nbformat": 4, "nbformat_minor": 5, "cells": []}`)
	f.Add(`{"nbformat": 4, "nbformat_minor": 4, "cells": [{"cell_type": "markdown", "source": ["a\n", "b"]}]}`)
	f.Add(`[1.5e3, -0, "\ud800", NaN, {"b": 1, "a": [true, null]}]`)
	f.Fuzz(func(t *testing.T, text string) {
		if v, err := notebook.ParseJSON(text); err == nil {
			out := string(notebook.Dump(nil, v, 0))
			v2, err := notebook.ParseJSON(out)
			if err != nil {
				t.Fatalf("Dump wrote what does not parse: %v\n%s", err, out)
			}
			if again := string(notebook.Dump(nil, v2, 0)); again != out {
				t.Fatalf("Dump is not stable:\n%s\n%s", out, again)
			}
		}
		nb, err := notebook.Parse(text)
		if err != nil {
			return
		}
		n := len(nb.Cells)
		for i := range n {
			notebook.RenderCell(nil, nb, i, notebook.RenderOptions{MaxLineLength: 20})
			notebook.RenderCell(nil, nb, i, notebook.RenderOptions{SourceLines: 1})
		}
		check := func(what, got string, want int) {
			nb2, err := notebook.Parse(got)
			if err != nil {
				t.Fatalf("%s: the edited notebook does not parse: %v\n%s", what, err, got)
			}
			if len(nb2.Cells) != want {
				t.Fatalf("%s: %d cells, want %d", what, len(nb2.Cells), want)
			}
		}
		got, err := nb.Insert(n-1, notebook.TypeCode, "", "x\n")
		if err != nil {
			t.Fatal(err)
		}
		check("insert", got, n+1)
		if n > 0 {
			got, err := nb.Replace(0, "y\r\nz", notebook.TypeMarkdown)
			if err != nil {
				t.Fatal(err)
			}
			check("replace", got, n)
			check("delete", nb.Delete(n-1), n-1)
		}
	})
}
