package hostfs_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/charset"
	"github.com/cordon-dev/cordon/plugins/fs"
)

// replace is an Update that replaces old by new once, as a patch's chunk does.
func replace(old, new string) func(string) (string, error) {
	return func(text string) (string, error) { return strings.Replace(text, old, new, 1), nil }
}

// A change set decodes and stores each file in its charset as edit and write do
// (docs/encodings.md): an update re-encodes only what changed, CRLF and the BOM kept; an add
// under a rule is written in its charset; a write over a file keeps the file's; a delete
// reports the decoded text it removed.
func TestApplyChangesKeepsTheCharset(t *testing.T) {
	p, dir := newCharsetProvider(t, charset.Rule{Glob: "legacy/", Charset: "windows-1252"})
	writeFile(t, filepath.Join(dir, "legacy", "a.txt"), "caf\xe9\r\nold line\r\nlast \xe9\r\n")
	writeFile(t, filepath.Join(dir, "u16.txt"), utf16LE(t, "one\r\nzwei ü\r\ndrei\r\n"))
	writeFile(t, filepath.Join(dir, "w16.txt"), utf16LE(t, "prior\r\n"))
	writeFile(t, filepath.Join(dir, "legacy", "gone.txt"), "na\xefve\n")
	outs, err := p.ApplyChanges(context.Background(), []fs.Change{
		{Kind: fs.ChangeUpdate, Target: resolve(t, p, "legacy/a.txt"), Update: replace("old line", "new é line\r\nadded")},
		{Kind: fs.ChangeUpdate, Target: resolve(t, p, "u16.txt"), Update: replace("zwei ü", "ZWEI Ü")},
		{Kind: fs.ChangeWrite, Target: resolve(t, p, "legacy/new.txt"), Content: "née\n"},
		{Kind: fs.ChangeWrite, Target: resolve(t, p, "w16.txt"), Content: "after ä\n"},
		{Kind: fs.ChangeDelete, Target: resolve(t, p, "legacy/gone.txt")},
	})
	require.NoError(t, err)
	require.Equal(t, map[string]string{
		"legacy/a.txt":   "caf\xe9\r\nnew \xe9 line\r\nadded\r\nlast \xe9\r\n",
		"u16.txt":        utf16LE(t, "one\r\nZWEI Ü\r\ndrei\r\n"),
		"legacy/new.txt": "n\xe9e\n",
		"w16.txt":        utf16LE(t, "after ä\n"),
	}, readAll(t, dir))
	want := []struct{ before, after string }{
		{"café\nold line\nlast é\n", "café\nnew é line\nadded\nlast é\n"},
		{"one\nzwei ü\ndrei\n", "one\nZWEI Ü\ndrei\n"},
		{"", "née\n"},
		{"prior\n", "after ä\n"},
		{"naïve\n", ""},
	}
	for i, w := range want {
		if w.before == "" {
			require.Nil(t, outs[i].Before, i)
		} else {
			require.Equal(t, w.before, *outs[i].Before, i)
		}
		if w.after == "" {
			require.Nil(t, outs[i].After, i)
		} else {
			require.Equal(t, w.after, *outs[i].After, i)
		}
	}
	requireClean(t, p, dir)
}

// New text a file's charset cannot encode refuses the whole set with edit's (or write's)
// refusal, and every file stays as it was.
func TestApplyChangesRefusesTextTheCharsetCannotEncode(t *testing.T) {
	p, dir := newCharsetProvider(t, charset.Rule{Glob: "legacy/", Charset: "windows-1252"})
	legacy := filepath.Join(dir, "legacy", "a.txt")
	writeFile(t, filepath.Join(dir, "plain.txt"), "plain\n")
	writeFile(t, legacy, "caf\xe9\r\n")
	before := readAll(t, dir)
	_, editErr := p.EditText(context.Background(), resolve(t, p, legacy), fs.EditRequest{OldString: "café", NewString: "café →"}, nil)
	requireFsError(t, editErr, fs.CodeNotText, `cannot edit "`+legacy+`": U+2192 '→' cannot be encoded in windows-1252`)

	_, err := p.ApplyChanges(context.Background(), []fs.Change{
		{Kind: fs.ChangeUpdate, Target: resolve(t, p, "plain.txt"), Update: upper},
		{Kind: fs.ChangeUpdate, Target: resolve(t, p, legacy), Update: replace("café", "café →")},
	})
	requireFsError(t, err, fs.CodeNotText, editErr.Error())
	require.Equal(t, before, readAll(t, dir))

	_, err = p.ApplyChanges(context.Background(), []fs.Change{
		{Kind: fs.ChangeUpdate, Target: resolve(t, p, "plain.txt"), Update: upper},
		{Kind: fs.ChangeWrite, Target: resolve(t, p, "legacy/new.txt"), Content: "→\n"},
	})
	requireFsError(t, err, fs.CodeNotText, `cannot write "`+filepath.Join(dir, "legacy", "new.txt")+`": U+2192 '→' cannot be encoded in windows-1252`)
	require.Equal(t, before, readAll(t, dir))
	requireClean(t, p, dir)
}

// A file that is not text in its charset is refused by an update as by edit.
func TestApplyChangesRefusesWhatDoesNotRoundTrip(t *testing.T) {
	p, dir := newCharsetProvider(t, charset.Rule{Glob: "*.sjis", Charset: "shift_jis"})
	path := filepath.Join(dir, "lossy.sjis")
	writeFile(t, path, sjis(t, "あいう")+"\x87\x90")
	_, err := p.ApplyChanges(context.Background(), []fs.Change{{Kind: fs.ChangeUpdate, Target: resolve(t, p, path), Update: upper}})
	requireFsError(t, err, fs.CodeNotText, `cannot edit "`+path+`": not shift_jis text (byte 6 does not round-trip)`)
}

// A moved file is stored in the charset its new path is read in: the one the encodings rules or
// .editorconfig declare there (as write stores a new file there), else that of its own BOM (kept
// with it), else UTF-8; so a read of the new path gives back its text. A file it replaces plays
// no part.
func TestApplyChangesMoveKeepsOrDeclaresTheCharset(t *testing.T) {
	p, dir := newCharsetProvider(t, charset.Rule{Glob: "legacy/", Charset: "windows-1252"}, charset.Rule{Glob: "jp/", Charset: "shift_jis"})
	writeFile(t, filepath.Join(dir, ".editorconfig"), "root = true\n[*.md]\ncharset = utf-8-bom\n")
	for _, n := range []string{"keep", "md", "same"} {
		writeFile(t, filepath.Join(dir, "legacy", n+".txt"), "caf\xe9\r\n"+n+"\r\n")
	}
	writeFile(t, filepath.Join(dir, "legacy", "jp.txt"), "plain\r\njp\r\n")
	writeFile(t, filepath.Join(dir, "u16.txt"), utf16LE(t, "ü\r\n"))
	writeFile(t, filepath.Join(dir, "plain", "keep.txt"), utf16LE(t, "replaced\r\n")) // gives the move no charset
	to := func(path string) *fs.Target { tg := resolve(t, p, path); return &tg }
	outs, err := p.ApplyChanges(context.Background(), []fs.Change{
		{Kind: fs.ChangeUpdate, Target: resolve(t, p, "legacy/keep.txt"), MoveTo: to("plain/keep.txt"), Update: replace("keep", "kept é")},
		{Kind: fs.ChangeUpdate, Target: resolve(t, p, "legacy/jp.txt"), MoveTo: to("jp/jp.txt"), Update: replace("jp", "日本")},
		{Kind: fs.ChangeUpdate, Target: resolve(t, p, "legacy/md.txt"), MoveTo: to("doc.md"), Update: upper},
		{Kind: fs.ChangeUpdate, Target: resolve(t, p, "legacy/same.txt"), MoveTo: to("legacy/sub/same.txt"), Update: upper},
		{Kind: fs.ChangeUpdate, Target: resolve(t, p, "u16.txt"), MoveTo: to("plain/u16.txt"), Update: upper},
	})
	require.NoError(t, err)
	for i, n := range []string{"plain/keep.txt", "jp/jp.txt", "doc.md", "legacy/sub/same.txt", "plain/u16.txt"} {
		read, err := p.ReadText(context.Background(), resolve(t, p, n))
		require.NoError(t, err, n)
		require.Equal(t, *outs[i].After, strings.ReplaceAll(read.Text, "\r\n", "\n"), "a read of %s gives back its text", n)
	}
	require.Equal(t, map[string]string{
		".editorconfig":       "root = true\n[*.md]\ncharset = utf-8-bom\n",
		"plain/keep.txt":      "café\r\nkept é\r\n", // nothing declared there: UTF-8
		"jp/jp.txt":           sjis(t, "plain\r\n日本\r\n"),
		"doc.md":              "\ufeffCAFÉ\r\nMD\r\n",
		"legacy/sub/same.txt": "CAF\xc9\r\nSAME\r\n",
		"plain/u16.txt":       utf16LE(t, "Ü\r\n"),
	}, readAll(t, dir))

	// A destination charset that cannot encode the text refuses the set with write's refusal.
	writeFile(t, filepath.Join(dir, "legacy", "x.txt"), "\xe9\n")
	before := readAll(t, dir)
	_, err = p.ApplyChanges(context.Background(), []fs.Change{
		{Kind: fs.ChangeUpdate, Target: resolve(t, p, "legacy/x.txt"), MoveTo: to("jp/x.txt"), Update: upper},
	})
	requireFsError(t, err, fs.CodeNotText, `cannot write "`+filepath.Join(dir, "jp", "x.txt")+`": U+00C9 'É' cannot be encoded in shift_jis`)
	require.Equal(t, before, readAll(t, dir))
	requireClean(t, p, dir)
}

// maxFileBytes bounds the stored bytes of an update, as it bounds an edit's: a UTF-16 result
// over it is refused though its UTF-8 text is below it.
func TestApplyChangesBoundsTheStoredBytes(t *testing.T) {
	p, dir := providerWithMax(t, 64)
	path := filepath.Join(dir, "u.txt")
	data := utf16LE(t, strings.Repeat("x", 20)) // 42 bytes
	writeFile(t, path, data)
	grow := strings.Repeat("x", 40) // 82 bytes stored, 40 as UTF-8
	_, editErr := p.EditText(context.Background(), resolve(t, p, path), fs.EditRequest{OldString: strings.Repeat("x", 20), NewString: grow}, nil)
	requireFsError(t, editErr, fs.CodeTooLarge, `cannot edit "`+path+`": the result would be 82 bytes, over the 64-byte limit`)
	_, err := p.ApplyChanges(context.Background(), []fs.Change{{Kind: fs.ChangeUpdate, Target: resolve(t, p, path), Update: replace(strings.Repeat("x", 20), grow)}})
	requireFsError(t, err, fs.CodeTooLarge, editErr.Error())
	_, err = p.ApplyChanges(context.Background(), []fs.Change{{Kind: fs.ChangeWrite, Target: resolve(t, p, path), Content: grow}})
	requireFsError(t, err, fs.CodeTooLarge, `cannot write "`+path+`": 82 bytes exceeds the 64-byte limit`)
	require.Equal(t, data, readDisk(t, path))
}

// A guard whose version moved over a file in another charset is decided on its decoded text:
// a touch (same bytes) lands.
func TestApplyChangesRecheckDecodes(t *testing.T) {
	p, dir := newCharsetProvider(t, charset.Rule{Glob: "*.txt", Charset: "windows-1252"})
	for _, n := range []string{"u.txt", "d.txt"} {
		writeFile(t, filepath.Join(dir, n), "\xe9\r\n")
	}
	rc := &recheck{}
	_, err := p.ApplyChanges(context.Background(), []fs.Change{
		{Kind: fs.ChangeUpdate, Target: resolve(t, p, "u.txt"), Guard: &fs.EditGuard{Version: "v0", Recheck: rc}, Update: upper},
		{Kind: fs.ChangeDelete, Target: resolve(t, p, "d.txt"), Guard: &fs.EditGuard{Version: "v0", Recheck: rc}},
	})
	require.NoError(t, err)
	require.Equal(t, []string{"edit é\r\n", "write é\r\n"}, rc.calls)
	require.Equal(t, map[string]string{"u.txt": "\xc9\r\n"}, readAll(t, dir))
	_, err = os.Stat(filepath.Join(dir, "d.txt"))
	require.True(t, os.IsNotExist(err))
}
