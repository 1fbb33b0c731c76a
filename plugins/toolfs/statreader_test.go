package toolfs_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/toolfs"
)

// With a provider that reads a small file in its look (fs.StatReader, docs/fs.md "The provider
// contract"), read makes that one call instead of Stat and ReadText: below readStreamMinSize for
// text, below the notebook cap for a .ipynb; a larger file is streamed after the look; a file the
// look could not read as text fails with the provider's error; the observation the look's version
// gives guards the next edit. TestReadStreamsAtDefaultCapOrUnknownSize pins the Stat and ReadText
// of a provider without it.
func TestReadLooksOnceWithAStatReader(t *testing.T) {
	e := newEnv(t, envOptions{statText: true})
	e.writeFile(t, "a.txt", "alpha\nbeta")
	r := e.call("read", args{"file_path": "a.txt"})
	requireOK(t, r)
	assert.Equal(t, envelope(e.path("a.txt"), "1: alpha\n2: beta\n\n"+endOf(2)), r.Text())
	assert.Equal(t, []string{"resolve", "statText(10485760)"}, e.fsys.take())
	requireOK(t, e.call("edit", args{"file_path": "a.txt", "old_string": "beta", "new_string": "gamma"}))
	assert.Equal(t, "alpha\ngamma", e.readFile(t, "a.txt"))
	e.fsys.take()

	e.writeFile(t, "bad.ipynb", "{\n \"cells\": [\n}\n")
	r = e.call("read", args{"file_path": "bad.ipynb"})
	requireOK(t, r)
	assert.Equal(t, "it is not valid JSON (Expecting value at line 3, column 1)", r.Value.(toolfs.ReadValue).Note)
	assert.Equal(t, []string{"resolve", "statText(67108865)"}, e.fsys.take())

	// The refusal of a file that is not text, with its guidance, as through Stat and ReadText.
	plain := newEnv(t, envOptions{})
	for _, env := range []*env{e, plain} {
		env.writeFile(t, "bin.dat", "\x00abc")
	}
	got, want := e.call("read", args{"file_path": "bin.dat"}), plain.call("read", args{"file_path": "bin.dat"})
	require.True(t, got.IsError)
	assert.Equal(t, "FS_NOT_TEXT", got.Code())
	assert.Equal(t, strings.ReplaceAll(want.Text(), plain.dir, e.dir), got.Text())
	assert.Equal(t, []string{"resolve", "statText(10485760)"}, e.fsys.take())
	assert.Equal(t, []string{"resolve", "stat", "readText"}, plain.fsys.take()[:3])

	small := toolfs.DefaultConfig()
	small.ReadStreamMinSize = 4
	s := newEnv(t, envOptions{statText: true, config: &small})
	s.writeFile(t, "a.txt", "alpha\nbeta")
	r = s.call("read", args{"file_path": "a.txt"})
	requireOK(t, r)
	assert.Equal(t, envelope(s.path("a.txt"), "1: alpha\n2: beta\n\n"+endOf(2)), r.Text())
	require.Equal(t, []string{"resolve", "statText(4)", "textCharset", "streamText"}, s.fsys.take())
}
