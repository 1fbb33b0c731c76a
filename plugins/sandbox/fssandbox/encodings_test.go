package fssandbox_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/charset"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/sandbox"
)

// The encodings key is fs-local's, decoded and validated by it, and reaches the provider: a
// file under a rule is read in its charset.
func TestConfigEncodings(t *testing.T) {
	cfg, err := decode(t, "encodings:\n  - { glob: '*.cp', charset: windows-1252 }\n  - { glob: 'jp/', charset: shift_jis }")
	require.NoError(t, err)
	assert.Equal(t, []charset.Rule{{Glob: "*.cp", Charset: "windows-1252"}, {Glob: "jp/", Charset: "shift_jis"}}, cfg.Encodings)
	_, err = decode(t, "encodings: [{ glob: '*.cp', charset: cp-none }]")
	assert.EqualError(t, err, `fs-local: encodings[0] (glob "*.cp"): unknown charset "cp-none" (a WHATWG Encoding Standard label, such as windows-1252 or shift_jis)`)

	cfg.Cwd = ""
	w := newWorld(t, sandbox.WorkspaceWrite, cfg)
	path := filepath.Join(w.ws, "a.cp")
	require.NoError(t, os.WriteFile(path, []byte("caf\xe9 old\n"), 0o644))
	tg := w.target(t, "a.cp")
	read, err := w.fs.ReadText(w.ctx, tg)
	require.NoError(t, err)
	assert.Equal(t, fs.ReadOutcome{Text: "café old\n", Charset: "windows-1252"}, read)
	assert.Equal(t, "windows-1252", w.fs.TextCharset(w.ctx, tg))
	require.NoError(t, w.edit(t, path, "old", "né"))
	assert.Equal(t, "caf\xe9 n\xe9\n", readDisk(t, path))
}
