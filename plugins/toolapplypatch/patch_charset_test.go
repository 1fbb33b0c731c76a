package toolapplypatch_test

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/encoding/unicode"

	"github.com/cordon-dev/cordon/internal/charset"
)

// legacy declares windows-1252 for everything under legacy/.
var legacy = charset.Rule{Glob: "legacy/", Charset: "windows-1252"}

func utf16LE(t *testing.T, s string) string {
	t.Helper()
	b, err := unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM).NewEncoder().String(s)
	require.NoError(t, err)
	return "\xFF\xFE" + b
}

// charsetEnvs runs body without and with the read gate (after a read of every named file).
func charsetEnvs(t *testing.T, files map[string]string, body func(t *testing.T, e *patchEnv)) {
	for name, gated := range map[string]bool{"ungated": false, "gated": true} {
		t.Run(name, func(t *testing.T) {
			dir, err := filepath.EvalSymlinks(t.TempDir())
			require.NoError(t, err)
			e := newPatchEnv(t, dir, gated, legacy)
			for n, data := range files {
				e.write(t, n, data)
				if gated {
					e.readTool(t, n)
				}
			}
			body(t, e)
		})
	}
}

// docs/encodings.md "apply_patch": an updated file keeps its charset, its CRLF, its BOM and
// every byte outside the chunks; an added file is written in the charset declared for it; the
// diffs are of the decoded texts.
func TestPatchKeepsTheCharset(t *testing.T) {
	charsetEnvs(t, map[string]string{
		"legacy/a.txt": "caf\xe9\r\nold\r\nlast \xe9\r\n",
		"u16.txt":      utf16LE(t, "one\r\nzwei ü\r\n"),
	}, func(t *testing.T, e *patchEnv) {
		r := e.patch("*** Update File: legacy/a.txt\n@@\n café\n-old\n+new é\n+added\n" +
			"*** Update File: u16.txt\n@@\n-zwei ü\n+ZWEI Ü\n" +
			"*** Add File: legacy/new.txt\n+née\n")
		require.False(t, r.IsError, r.Text())
		assert.Equal(t, "caf\xe9\r\nnew \xe9\r\nadded\r\nlast \xe9\r\n", e.read(t, "legacy/a.txt"))
		assert.Equal(t, utf16LE(t, "one\r\nZWEI Ü\r\n"), e.read(t, "u16.txt"))
		assert.Equal(t, "n\xe9e\n", e.read(t, "legacy/new.txt"))
		meta, err := json.Marshal(r.Meta)
		require.NoError(t, err)
		require.JSONEq(t, `{"diffs":[`+
			`{"path":"legacy/a.txt","oldText":"café\nold\nlast é","newText":"café\nnew é\nadded\nlast é"},`+
			`{"path":"u16.txt","oldText":"one\nzwei ü","newText":"one\nZWEI Ü"},`+
			`{"path":"legacy/new.txt","oldText":null,"newText":"née"}]}`, string(meta))
	})
}

// A chunk adding a character the file's charset cannot encode refuses the whole patch with
// edit's error (write's for an added file), and no file changes.
func TestPatchRefusesTextTheCharsetCannotEncode(t *testing.T) {
	files := map[string]string{"plain.txt": "plain\n", "legacy/a.txt": "caf\xe9\r\n"}
	charsetEnvs(t, files, func(t *testing.T, e *patchEnv) {
		edit := e.call("edit", map[string]any{"file_path": "legacy/a.txt", "old_string": "café", "new_string": "café →"})
		require.True(t, edit.IsError)
		require.Equal(t, `Error: cannot edit "`+filepath.Join(e.dir, "legacy/a.txt")+`": U+2192 '→' cannot be encoded in windows-1252`, edit.Text())
		r := e.patch("*** Update File: plain.txt\n@@\n-plain\n+PLAIN\n*** Update File: legacy/a.txt\n@@\n-café\n+café →\n")
		require.True(t, r.IsError)
		assert.Equal(t, edit.Text(), r.Text())
		assert.Equal(t, "FS_NOT_TEXT", r.Code())

		write := e.call("write", map[string]any{"file_path": "legacy/new.txt", "content": "→\n"})
		require.True(t, write.IsError)
		r = e.patch("*** Update File: plain.txt\n@@\n-plain\n+PLAIN\n*** Add File: legacy/new.txt\n+→\n")
		require.True(t, r.IsError)
		assert.Equal(t, `Error: cannot write "`+filepath.Join(e.dir, "legacy/new.txt")+`": U+2192 '→' cannot be encoded in windows-1252`, r.Text())
		assert.Equal(t, write.Text(), r.Text())
		for n, data := range files {
			assert.Equal(t, data, e.read(t, n), n)
		}
		assert.NoFileExists(t, filepath.Join(e.dir, "legacy/new.txt"))
	})
}

// A moved windows-1252 file stays windows-1252 where its new path declares it, and becomes UTF-8
// where nothing is declared (as write would store it there): either way a read of the new
// path gives back its text.
func TestPatchMovesAWindows1252File(t *testing.T) {
	charsetEnvs(t, map[string]string{
		"legacy/a.txt": "caf\xe9\r\nold\r\n",
		"legacy/b.txt": "na\xefve\r\nold\r\n",
	}, func(t *testing.T, e *patchEnv) {
		r := e.patch("*** Update File: legacy/a.txt\n*** Move to: legacy/sub/a.txt\n@@\n-old\n+new é\n" +
			"*** Update File: legacy/b.txt\n*** Move to: plain/b.txt\n@@\n-old\n+new é\n")
		require.False(t, r.IsError, r.Text())
		assert.Equal(t, "caf\xe9\r\nnew \xe9\r\n", e.read(t, "legacy/sub/a.txt"))
		assert.Equal(t, "naïve\r\nnew é\r\n", e.read(t, "plain/b.txt"))
		assert.NoFileExists(t, filepath.Join(e.dir, "legacy/a.txt"))
		assert.NoFileExists(t, filepath.Join(e.dir, "legacy/b.txt"))
		for _, n := range []string{"legacy/sub/a.txt", "plain/b.txt"} {
			e.readTool(t, n)
		}
	})
}

// A file that is not UTF-8 and has no declared charset is refused as edit refuses it, with the
// line that says how to declare one.
func TestPatchInvalidUTF8SaysHowToDeclareACharset(t *testing.T) {
	charsetEnvs(t, map[string]string{"plain.txt": "plain\n"}, func(t *testing.T, e *patchEnv) {
		e.write(t, "old.txt", "caf\xe9\n")
		r := e.patch("*** Update File: plain.txt\n@@\n-plain\n+PLAIN\n*** Update File: old.txt\n@@\n-x\n+y\n")
		require.True(t, r.IsError)
		assert.Equal(t, "Error: cannot edit \""+filepath.Join(e.dir, "old.txt")+"\": invalid UTF-8 text\n"+
			"If it is text in another charset, declare it: an `encodings` entry {glob, charset} in the provider config, or `charset` in .editorconfig.", r.Text())
		assert.Equal(t, "FS_NOT_TEXT", r.Code())
		assert.Equal(t, "plain\n", e.read(t, "plain.txt"))
	})
}
