package main_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadmeRunExample runs the `harness run` example of README.md, as printed there, and compares
// every output line byte for byte (with the example's /tmp/demo replaced by the test directory), so
// the README cannot drift from the program.
func TestReadmeRunExample(t *testing.T) {
	in, want := readmeRunExample(t)
	require.Len(t, in, 3, "the README example has three input lines")
	require.Len(t, want, len(in), "one output line per input line")
	dir := realTemp(t)
	writeFile(t, filepath.Join(dir, "notes.txt"), "hello\nworld\n")
	out, stderr, code := runHarness(t, strings.Join(in, "\n")+"\n", "run", "--cwd", dir)
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, strings.ReplaceAll(strings.Join(want, "\n")+"\n", "/tmp/demo", dir), out)
}

// readmeRunExample extracts the input lines (the quoted JSON of the printf) and the expected output
// lines of the first sh block in the README's "The `run` protocol" section.
func readmeRunExample(t *testing.T) (in, out []string) {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	_, section, ok := strings.Cut(string(b), "## The `run` protocol")
	require.True(t, ok, "README has a run protocol section")
	_, block, ok := strings.Cut(section, "```sh\n")
	require.True(t, ok)
	block, _, ok = strings.Cut(block, "```")
	require.True(t, ok)
	quoted := regexp.MustCompile(`^\s*'(\{.*\})' \\$`)
	for _, line := range strings.Split(block, "\n") {
		if m := quoted.FindStringSubmatch(line); m != nil {
			in = append(in, m[1])
		} else if strings.HasPrefix(line, `{"id"`) {
			out = append(out, line)
		}
	}
	return in, out
}

// readmeBlock returns the first fenced block of the given language after heading in README.md.
func readmeBlock(t *testing.T, heading, lang string) string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	_, section, ok := strings.Cut(string(b), heading)
	require.True(t, ok, "README has %q", heading)
	_, block, ok := strings.Cut(section, "```"+lang+"\n")
	require.True(t, ok, "a %s block after %q", lang, heading)
	block, _, ok = strings.Cut(block, "```")
	require.True(t, ok)
	return block
}

// The README's YAML composition composes as printed (with its project directory replaced), and its
// sandbox denial text is the one the sandboxed profile answers.
func TestReadmeCompositionAndDenialExamples(t *testing.T) {
	dir := realTemp(t)
	cfg := filepath.Join(dir, "cordon.yaml")
	writeFile(t, cfg, strings.ReplaceAll(readmeBlock(t, "## Composing plugins in YAML", "yaml"), "/home/me/project", dir))
	out, stderr, code := runHarness(t, "", "config", "--config", cfg)
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, 4, strings.Count(out, "# active"), out)

	assert.Equal(t, deniedText+"\n", readmeBlock(t, "## The sandboxed profile", "text"))
}
