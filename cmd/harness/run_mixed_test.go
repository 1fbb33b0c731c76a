package main_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A stream mixing calls, malformed lines, binary garbage, CRLF endings, an empty line and a 5 MiB
// line gets exactly one UTF-8 JSON line per input line, in order, and the calls around the bad lines
// run as if those were not there.
func TestRunMixedStream(t *testing.T) {
	dir := realTemp(t)
	writeFile(t, filepath.Join(dir, "a.txt"), "a\n")
	big := strings.Repeat("b", 5<<20)
	in := []string{
		`{"id":1,"tool":"read","args":{"file_path":"a.txt"}}`,
		"\x00\x01\x02\xff\xfe binary \x7f",
		`{"id":2,"tool":"write","args":{"file_path":"big.txt","content":"` + big + `"}}` + "\r",
		"",
		`{"id":3,"tool":"edit","args":{"file_path":"a.txt","old_string":"a","new_string":"A"}}` + "\r",
		`{"id":4,"tool":"read","args":{"file_path":"big.txt","limit":1}}`,
		`{"id":5,"tool":`,
		"{\"id\":\"\xc3\",\"tool\":\"read\",\"args\":{\"file_path\":\"a.txt\"}}",
	}
	out, stderr, code := runHarness(t, strings.Join(in, "\n")+"\n", "run", "--cwd", dir)
	require.Equal(t, 0, code, stderr)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	require.Len(t, lines, len(in))
	wantIDs := []any{float64(1), nil, float64(2), nil, float64(3), float64(4), nil, "\uFFFD"}
	wantErr := []bool{false, true, false, true, false, false, true, false}
	for i, l := range lines {
		require.True(t, utf8.ValidString(l), "line %d", i)
		var r runLine
		require.NoError(t, json.Unmarshal([]byte(l), &r), "line %d", i)
		assert.Equal(t, wantIDs[i], r.ID, "line %d", i)
		assert.Equal(t, wantErr[i], r.IsError, "line %d: %.200s", i, r.Text)
	}
	assert.Equal(t, big, readFile(t, filepath.Join(dir, "big.txt")))
	assert.Equal(t, "A\n", readFile(t, filepath.Join(dir, "a.txt")))
	assert.Contains(t, lines[5], `... (line truncated to 2000 chars)`, "the 5 MiB line is read back truncated")
}
