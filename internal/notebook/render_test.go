package notebook_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/notebook"
)

// cellWith is a one-cell notebook whose code cell has the given outputs (JSON values).
func cellWith(t *testing.T, outputs ...any) *notebook.Notebook {
	t.Helper()
	b, err := json.Marshal(map[string]any{"nbformat": 4, "nbformat_minor": 5, "cells": []any{
		map[string]any{"id": "c1", "cell_type": "code", "execution_count": nil, "metadata": map[string]any{}, "source": "x", "outputs": outputs},
	}})
	require.NoError(t, err)
	nb, err := notebook.Parse(string(b))
	require.NoError(t, err)
	return nb
}

func numberedLines(prefix string, n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		b.WriteString(prefix + strconv.Itoa(i) + "\n")
	}
	return b.String()
}

// TestOutputsAsATerminalShowsThem pins docs/notebooks.md "Outputs": ANSI escapes removed, a line
// keeping what follows its last carriage return, 30 lines at most (the first ones, or an error's
// last ones), other mime types listed.
func TestOutputsAsATerminalShowsThem(t *testing.T) {
	view := func(nb *notebook.Notebook) string {
		return string(notebook.RenderCell(nil, nb, 0, notebook.RenderOptions{MaxLineLength: 2000}))
	}
	got := view(cellWith(t,
		map[string]any{"output_type": "stream", "name": "stderr", "text": "\x1b[1;31mred\x1b[0m \x1b]8;;http://x\x07link\x1b]8;;\x07\n 10%\r 50%\r100%\nok\r\n"},
		map[string]any{"output_type": "display_data", "metadata": map[string]any{}, "data": map[string]any{"text/html": "<b>x</b>", "application/javascript": "f()"}},
	))
	assert.Equal(t, "<cell id=\"c1\" type=\"code\">\n1: x\n<output type=\"stream\" name=\"stderr\">\nred link\n100%\nok\n</output>\n"+
		"<output type=\"display_data\">\n[application/javascript, text/html output not shown]\n</output>\n</cell>\n", got)

	got = view(cellWith(t, map[string]any{"output_type": "stream", "name": "stdout", "text": numberedLines("line ", 100)}))
	assert.Contains(t, got, "\nline 30\n... (70 more lines not shown)\n</output>")
	assert.NotContains(t, got, "line 31\n")

	tb := strings.Split(strings.TrimSuffix(numberedLines("frame ", 50), "\n"), "\n")
	got = view(cellWith(t, map[string]any{"output_type": "error", "ename": "E", "evalue": "v", "traceback": tb}))
	assert.Contains(t, got, "<output type=\"error\" ename=\"E\">\n... (20 earlier lines not shown)\nframe 21\n")
	assert.Contains(t, got, "\nframe 50\n</output>")

	got = view(cellWith(t, map[string]any{"output_type": "error", "ename": "KeyError", "evalue": "'k'", "traceback": []any{}}))
	assert.Contains(t, got, "\nKeyError: 'k'\n</output>")

	long := strings.Repeat("w", 100) + "\n"
	got = view(cellWith(t, map[string]any{"output_type": "stream", "name": "stdout", "text": strings.Repeat(long, 30)}))
	assert.Contains(t, got, "... (11 more lines not shown)", "about 2,000 bytes: 19 lines of 101 bytes")
}
