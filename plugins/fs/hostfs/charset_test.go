package hostfs_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/unicode"

	"github.com/cordon-dev/cordon/internal/charset"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/hostfs"
)

func newCharsetProvider(t *testing.T, rules ...charset.Rule) (*hostfs.Provider, string) {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	p, err := hostfs.New(hostfs.Config{Cwd: dir, Encodings: rules}, nil)
	require.NoError(t, err)
	return p, dir
}

func utf16LE(t *testing.T, s string) string {
	t.Helper()
	b, err := unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM).NewEncoder().String(s)
	require.NoError(t, err)
	return "\xFF\xFE" + b
}

func sjis(t *testing.T, s string) string {
	t.Helper()
	b, err := japanese.ShiftJIS.NewEncoder().String(s)
	require.NoError(t, err)
	return b
}

// A BOM'd UTF-16 file is decoded by every read primitive alike: its NULs do not make it binary,
// because the BOM is looked at first.
func TestUTF16WithBOMReadsAsText(t *testing.T) {
	p, dir := newCharsetProvider(t)
	text := strings.Repeat("line ü 😀\r\n", 2000) // past the NUL sample and a stream chunk
	path := filepath.Join(dir, "u.txt")
	writeFile(t, path, utf16LE(t, text))
	tg := resolve(t, p, path)
	read, err := p.ReadText(context.Background(), tg)
	require.NoError(t, err)
	require.Equal(t, text, read.Text)
	require.Equal(t, "utf-16le", read.Charset, "the read names the charset it decoded with")
	got, err := streamAll(t, p, context.Background(), tg)
	require.NoError(t, err)
	require.Equal(t, text, got)
	got, err = streamBytesAll(t, p, context.Background(), tg)
	require.NoError(t, err)
	require.Equal(t, text, got)
	require.Equal(t, "utf-16le", p.TextCharset(context.Background(), tg), "what a stream decodes from")
	// A NUL in the decoded text is still binary.
	writeFile(t, path, utf16LE(t, "a\x00b"))
	_, err = p.ReadText(context.Background(), tg)
	requireFsError(t, err, fs.CodeNotText, `cannot read "`+path+`": binary file`)
}

// A BOM'd UTF-16 file is edited in UTF-16: its BOM and line breaks kept, the new text encoded;
// one that holds only its BOM is an empty text, where nothing is found (FuzzEditText's find: the
// file untouched, not refused as invalid UTF-8).
func TestUTF16EditKeepsItsEncoding(t *testing.T) {
	p, dir := newCharsetProvider(t)
	path := filepath.Join(dir, "u.txt")
	writeFile(t, path, utf16LE(t, "a\r\nold ü\r\n"))
	tg := resolve(t, p, path)
	out, err := p.EditText(context.Background(), tg, fs.EditRequest{OldString: "old", NewString: "new 😀\nline"}, nil)
	require.NoError(t, err)
	require.Equal(t, utf16LE(t, "a\r\nnew 😀\r\nline ü\r\n"), readDisk(t, path))
	require.Equal(t, "a\nold ü\n", out.Before)
	require.Equal(t, "a\nnew 😀\nline ü\n", out.After)

	for _, bom := range []string{"\xFE\xFF", "\xFF\xFE"} {
		writeFile(t, path, bom)
		_, err = p.EditText(context.Background(), tg, fs.EditRequest{OldString: "0", NewString: "1"}, nil)
		requireFsError(t, err, fs.CodeEditNotFound, `old_string was not found in "`+path+`"`)
		require.Equal(t, bom, readDisk(t, path))
	}
}

func TestCharsetEditKeepsEveryOtherByte(t *testing.T) {
	p, dir := newCharsetProvider(t, charset.Rule{Glob: "*.sjis", Charset: "shift_jis"})
	path := filepath.Join(dir, "a.sjis")
	orig := sjis(t, "一行目\r\n二行目 古い 言葉\r\n三行目\n")
	writeFile(t, path, orig)
	tg := resolve(t, p, path)
	v0 := versionOf(t, p, tg)
	out, err := p.EditText(context.Background(), tg, fs.EditRequest{OldString: "古い", NewString: "新しい\n行"}, &fs.EditGuard{Version: v0})
	require.NoError(t, err)
	want := strings.Replace(orig, sjis(t, "古い"), sjis(t, "新しい\r\n行"), 1) // the new break follows its line's CRLF
	require.Equal(t, want, readDisk(t, path))
	require.Equal(t, "一行目\n二行目 古い 言葉\n三行目\n", out.Before)
	require.Equal(t, "一行目\n二行目 新しい\n行 言葉\n三行目\n", out.After)
	require.NotEqual(t, v0, out.Version)
	// The stale guard works on the stored bytes.
	_, err = p.EditText(context.Background(), tg, fs.EditRequest{OldString: "言葉", NewString: "x"}, &fs.EditGuard{Version: v0})
	require.ErrorIs(t, err, fs.ErrStaleVersion)

	// New text Shift_JIS cannot encode is refused; nothing is written.
	_, err = p.EditText(context.Background(), tg, fs.EditRequest{OldString: "言葉", NewString: "단어"}, nil)
	requireFsError(t, err, fs.CodeNotText, `cannot edit "`+path+`": U+B2E8 '단' cannot be encoded in shift_jis`)
	require.Equal(t, want, readDisk(t, path))
}

func TestCharsetRefusesWhatDoesNotRoundTrip(t *testing.T) {
	p, dir := newCharsetProvider(t, charset.Rule{Glob: "*.sjis", Charset: "shift_jis"})
	path := filepath.Join(dir, "lossy.sjis")
	lossy := sjis(t, "あいう") + "\x87\x90" // NEC ≒, which encodes back to 81 E0
	writeFile(t, path, lossy)
	tg := resolve(t, p, path)
	msg := `": not shift_jis text (byte 6 does not round-trip)`
	_, err := p.ReadText(context.Background(), tg)
	requireFsError(t, err, fs.CodeNotText, `cannot read "`+path+msg)
	_, err = streamAll(t, p, context.Background(), tg)
	requireFsError(t, err, fs.CodeNotText, `cannot read "`+path+msg)
	_, err = p.EditText(context.Background(), tg, fs.EditRequest{OldString: "あ", NewString: "x"}, nil)
	requireFsError(t, err, fs.CodeNotText, `cannot edit "`+path+msg)
	_, err = p.WriteText(context.Background(), tg, "x", nil)
	requireFsError(t, err, fs.CodeNotText, `cannot write "`+path+msg)
	require.Equal(t, lossy, readDisk(t, path))
	requireClean(t, p, dir)
}

func TestCharsetWriteKeepsOrDeclares(t *testing.T) {
	p, dir := newCharsetProvider(t, charset.Rule{Glob: "jp/", Charset: "sjis"})
	writeFile(t, filepath.Join(dir, ".editorconfig"), "root = true\n[*.md]\ncharset = utf-8-bom\n")
	ctx := context.Background()

	// Over a BOM'd UTF-16 file: its charset and BOM are kept; the basis is its decoded text.
	u16 := filepath.Join(dir, "u.txt")
	writeFile(t, u16, utf16LE(t, "old\r\n"))
	out, err := p.WriteText(ctx, resolve(t, p, u16), "new ü\r\n", nil)
	require.NoError(t, err)
	require.Equal(t, utf16LE(t, "new ü\r\n"), readDisk(t, u16))
	require.Equal(t, "old\n", *out.Before)
	_, err = p.WriteText(ctx, resolve(t, p, u16), "\uFEFFbom'd\n", nil)
	require.NoError(t, err)
	require.Equal(t, utf16LE(t, "bom'd\n"), readDisk(t, u16), "the content's own BOM is the file's, not a second one")

	// A new file under a rule is written in its charset; one under utf-8-bom gets the BOM.
	require.NoError(t, os.Mkdir(filepath.Join(dir, "jp"), 0o755))
	jp := filepath.Join(dir, "jp", "n.txt")
	_, err = p.WriteText(ctx, resolve(t, p, jp), "日本\n", nil)
	require.NoError(t, err)
	require.Equal(t, sjis(t, "日本\n"), readDisk(t, jp))
	md := filepath.Join(dir, "n.md")
	_, err = p.WriteText(ctx, resolve(t, p, md), "# t\n", nil)
	require.NoError(t, err)
	require.Equal(t, "\xEF\xBB\xBF# t\n", readDisk(t, md))

	// Content the charset cannot encode is refused, naming the character; nothing is written.
	_, err = p.WriteText(ctx, resolve(t, p, jp), "日 ok, 한 no\n", nil)
	requireFsError(t, err, fs.CodeNotText, `cannot write "`+jp+`": U+D55C '한' cannot be encoded in shift_jis`)
	require.Equal(t, sjis(t, "日本\n"), readDisk(t, jp))
	fresh := filepath.Join(dir, "jp", "fresh.txt")
	_, err = p.WriteText(ctx, resolve(t, p, fresh), "한", nil)
	require.ErrorIs(t, err, fs.ErrNotText)
	require.NoFileExists(t, fresh)
	requireClean(t, p, dir)
}

func TestCharsetGrepMatchesDecodedText(t *testing.T) {
	p, dir := newCharsetProvider(t, charset.Rule{Glob: "*.sjis", Charset: "shift_jis"})
	writeFile(t, filepath.Join(dir, "u.txt"), utf16LE(t, "a\r\nfind ü here\r\n"))
	writeFile(t, filepath.Join(dir, "k.sjis"), sjis(t, "x\nfind 日本 here\n"))
	writeFile(t, filepath.Join(dir, "bad.sjis"), "find \x87\x90\n") // does not round-trip: skipped
	writeFile(t, filepath.Join(dir, "plain.txt"), "find plain\n")
	got := map[string]string{}
	_, err := p.Grep(context.Background(), resolve(t, p, dir), fs.GrepQuery{Pattern: "find", MaxLineBytes: 1000}, func(m fs.LineMatch) error {
		got[m.Rel] = string(m.Text)
		return nil
	})
	require.NoError(t, err)
	require.Equal(t, map[string]string{"u.txt": "find ü here", "k.sjis": "find 日本 here", "plain.txt": "find plain"}, got)
}

// Without encodings rules, a grep still decodes what an .editorconfig declares, in the directory
// of the file or any above it, and a UTF-16 file by its BOM (the head the scan read), also past
// the first block; the files no .editorconfig covers are matched as UTF-8.
func TestCharsetGrepFollowsEditorConfigWithoutRules(t *testing.T) {
	p, dir := newCharsetProvider(t)
	writeFile(t, filepath.Join(dir, "a", ".editorconfig"), "[*.lat]\ncharset = latin1\n")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "a", "b", "c"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "z"), 0o755))
	writeFile(t, filepath.Join(dir, "a", "b", "c", "deep.lat"), "find caf\xe9\n")
	writeFile(t, filepath.Join(dir, "a", "near.lat"), "find na\xefve\n")
	writeFile(t, filepath.Join(dir, "z", "other.lat"), "find raw\xe9\n") // no .editorconfig: bytes, not UTF-8
	writeFile(t, filepath.Join(dir, "z", "plain.txt"), "find plain\n")
	writeFile(t, filepath.Join(dir, "z", "big.txt"), utf16LE(t, "\uFEFF"+strings.Repeat("filler line\n", 8000)+"find far ü\n"))
	got := map[string]string{}
	_, err := p.Grep(context.Background(), resolve(t, p, dir), fs.GrepQuery{Pattern: "find", MaxLineBytes: 1000}, func(m fs.LineMatch) error {
		got[m.Rel] = string(m.Text)
		if !m.ValidUTF8 {
			got[m.Rel] = "(invalid)"
		}
		return nil
	})
	require.NoError(t, err)
	require.Equal(t, map[string]string{
		"a/b/c/deep.lat": "find café", "a/near.lat": "find naïve", "z/other.lat": "(invalid)",
		"z/plain.txt": "find plain", "z/big.txt": "find far ü",
	}, got)
}

func TestEncodingsConfigNamesTheEntry(t *testing.T) {
	_, err := hostfs.New(hostfs.Config{Cwd: t.TempDir(), Encodings: []charset.Rule{{Glob: "*.x", Charset: "gbk"}, {Glob: "*.y", Charset: "ebcdic"}}}, nil)
	require.EqualError(t, err, `fs-local: encodings[1] (glob "*.y"): unknown charset "ebcdic" (a WHATWG Encoding Standard label, such as windows-1252 or shift_jis)`)
}

// A file in another charset is decoded whole: maxFileBytes bounds its reads, streamed or not.
func TestCharsetReadIsBoundedByMaxFileBytes(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	p, err := hostfs.New(hostfs.Config{Cwd: dir, MaxFileBytes: 64}, nil)
	require.NoError(t, err)
	path := filepath.Join(dir, "u.txt")
	data := utf16LE(t, strings.Repeat("x", 40)) // 82 bytes
	writeFile(t, path, data)
	tg := resolve(t, p, path)
	msg := `cannot read "` + path + `": 82 bytes exceeds the 64-byte limit`
	_, err = p.ReadText(context.Background(), tg)
	requireFsError(t, err, fs.CodeTooLarge, msg)
	_, err = streamBytesAll(t, p, context.Background(), tg)
	requireFsError(t, err, fs.CodeTooLarge, msg)
}

// ReadText names the charset it decoded with, from the same bytes (docs/fs.md "The provider
// contract"): "" for UTF-8 (with or without its BOM), the UTF-16 of a BOM even when no text
// follows it, an .editorconfig charset; and TextCharset, what a stream asks, agrees.
func TestReadTextNamesItsCharset(t *testing.T) {
	p, dir := newCharsetProvider(t)
	writeFile(t, filepath.Join(dir, ".editorconfig"), "root = true\n[*.lat]\ncharset = latin1\n")
	cases := []struct{ name, data, text, charset string }{
		{"plain.txt", "abc\n", "abc\n", ""},
		{"bom.txt", "\uFEFFabc", "abc", ""},
		{"only-bom.txt", "\xFF\xFE", "", "utf-16le"},
		{"old.lat", "caf\xe9", "café", "iso-8859-1"},
	}
	for _, c := range cases {
		path := filepath.Join(dir, c.name)
		writeFile(t, path, c.data)
		tg := resolve(t, p, path)
		read, err := p.ReadText(context.Background(), tg)
		require.NoError(t, err, c.name)
		require.Equal(t, fs.ReadOutcome{Text: c.text, Charset: c.charset}, read, c.name)
		require.Equal(t, c.charset, p.TextCharset(context.Background(), tg), c.name)
	}
}
