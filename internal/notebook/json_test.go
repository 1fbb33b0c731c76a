package notebook_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/notebook"
)

// TestNumbersAsPythonWritesThem pins the number spelling of json.dumps over Python's floats and
// ints (the expected strings are Python's own).
func TestNumbersAsPythonWritesThem(t *testing.T) {
	for lit, want := range map[string]string{
		"0.1": "0.1", "1.0": "1.0", "1e-07": "1e-07", "1e16": "1e+16", "1E15": "1000000000000000.0",
		"2.5e+20": "2.5e+20", "123456789.125": "123456789.125", "-0.0": "-0.0", "0.0001": "0.0001",
		"0.00001": "1e-05", "1e22": "1e+22", "1.7976931348623157e308": "1.7976931348623157e+308",
		"5e-324": "5e-324", "-1.5e-10": "-1.5e-10", "9007199254740993.0": "9007199254740992.0",
		"0.6666666666666666": "0.6666666666666666", "1e100": "1e+100", "12345678901234567.0": "1.2345678901234568e+16",
		"1e400": "Infinity", "-1e400": "-Infinity", "NaN": "NaN", "-0": "0", "100": "100",
		"123456789012345678901234567890": "123456789012345678901234567890", "2.50": "2.5",
	} {
		v, err := notebook.ParseJSON(lit)
		require.NoError(t, err, lit)
		assert.Equal(t, want, string(notebook.Dump(nil, v, 0)), lit)
	}
}

// TestStringsAsPythonWritesThem pins json.dumps(ensure_ascii=False)'s escaping: no escape for
// non-ASCII, U+007F, U+2028 or <>&; short escapes; lower-case \u00xx for other controls.
func TestStringsAsPythonWritesThem(t *testing.T) {
	v, err := notebook.ParseJSON(`"a\"b\\c\/d\n\r\t\b\f\u0001\u001f\u007f\u2028<>&é\ud83d\ude00"`)
	require.NoError(t, err)
	assert.Equal(t, "\"a\\\"b\\\\c/d\\n\\r\\t\\b\\f\\u0001\\u001f\u007f\u2028<>&é😀\"", string(notebook.Dump(nil, v, 0)))
}

// TestParseErrorsSayWhere pins the not-JSON reasons read shows (docs/notebooks.md).
func TestParseErrorsSayWhere(t *testing.T) {
	for text, want := range map[string]string{
		"":                 "Expecting value at line 1, column 1",
		"{\n \"a\": 1,\n}": "Expecting property name enclosed in double quotes at line 3, column 1",
		"{\"a\" 1}":        "Expecting ':' delimiter at line 1, column 6",
		"[1 2]":            "Expecting ',' delimiter at line 1, column 4",
		"{} x":             "Extra data at line 1, column 4",
		"\"é\tx\"":         "Invalid control character at line 1, column 3",
		"\"abc":            "Unterminated string at line 1, column 1",
		`"\x"`:             "Invalid \\escape at line 1, column 2",
		`"\u12g4"`:         "Invalid \\uXXXX escape at line 1, column 2",
		"[01]":             "Expecting ',' delimiter at line 1, column 3",
		"[1.]":             "Expecting ',' delimiter at line 1, column 3",
	} {
		_, err := notebook.ParseJSON(text)
		require.Error(t, err, text)
		assert.Equal(t, want, err.Error(), "%q", text)
	}
	deep := ""
	for range 2000 {
		deep += "["
	}
	_, err := notebook.ParseJSON(deep)
	assert.ErrorContains(t, err, "Nested too deeply")
}

// TestNotNotebooks pins the reasons a JSON text is not read as an nbformat-4 notebook.
func TestNotNotebooks(t *testing.T) {
	for text, want := range map[string]string{
		`[]`:                                "the JSON is not an object",
		`{"cells": []}`:                     "it has no nbformat version",
		`{"nbformat": 3, "worksheets": []}`: "it is nbformat 3; only nbformat 4 is read as cells",
		`{"nbformat": 4}`:                   "it has no cells list",
		`{"nbformat": 4, "cells": [1]}`:     "cell 0 is not an object",
		`{"nbformat": 4, "cells": [{}]}`:    "cell 0 has no cell_type",
		`{"nbformat": 4, "cells": [{"cell_type": "code", "source": 3}]}`: "cell 0: source is not a string or a list of strings",
	} {
		_, err := notebook.Parse(text)
		var fe *notebook.FormatError
		require.ErrorAs(t, err, &fe, text)
		assert.Equal(t, want, fe.Msg, text)
	}
}

// TestSplitLinesIsPythons pins str.splitlines(keepends=True).
func TestSplitLinesIsPythons(t *testing.T) {
	assert.Nil(t, notebook.SplitLines(""))
	assert.Equal(t, []string{"a\n", "b"}, notebook.SplitLines("a\nb"))
	assert.Equal(t, []string{"a\r\n", "b\r", "c\v", "d\f", "e\x1c", "f\x1d", "g\x1e", "h\u0085", "i\u2028", "j\u2029", "k"},
		notebook.SplitLines("a\r\nb\rc\vd\fe\x1cf\x1dg\x1eh\u0085i\u2028j\u2029k"))
	assert.Equal(t, []string{"\n", "\n"}, notebook.SplitLines("\n\n"))
}

// TestDuplicateIDs pins that a cell whose id an earlier cell has, and one whose id is outside
// nbformat's pattern, is named by its index.
func TestDuplicateIDs(t *testing.T) {
	nb, err := notebook.Parse(`{"nbformat": 4, "nbformat_minor": 5, "cells": [
		{"id": "a", "cell_type": "code", "source": ""}, {"id": "a", "cell_type": "code", "source": ""}, {"cell_type": "raw", "source": ""},
		{"id": "x\" type=\"y", "cell_type": "raw", "source": ""}]}`)
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "cell-1", "cell-2", "cell-3"}, []string{nb.DisplayID(0), nb.DisplayID(1), nb.DisplayID(2), nb.DisplayID(3)})
	assert.Equal(t, 3, nb.Find("cell-3"))
	assert.Equal(t, -1, nb.Find(`x" type="y`))
	assert.Equal(t, 0, nb.Find("a"))
	assert.Equal(t, 1, nb.Find("cell-1"))
	assert.Equal(t, -1, nb.Find("cell-0"))
	assert.Equal(t, 2, nb.Find("cell-2"))
}
