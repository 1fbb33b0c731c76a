package charset_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/charset"
)

func lookup(t *testing.T, label string) charset.Charset {
	t.Helper()
	cs, err := charset.Lookup(label)
	require.NoError(t, err)
	return cs
}

func TestLookupNamesWHATWGCharsets(t *testing.T) {
	for label, name := range map[string]string{
		"windows-1252": "windows-1252", "latin1": "windows-1252", "SJIS": "shift_jis", "shift_jis": "shift_jis",
		"euc-jp": "euc-jp", "gbk": "gbk", "gb18030": "gb18030", "big5": "big5", "euc-kr": "euc-kr",
		"iso-8859-2": "iso-8859-2", "utf-16le": "utf-16le", "utf-16be": "utf-16be", "utf-8": "utf-8",
	} {
		require.Equal(t, name, lookup(t, label).Name(), label)
	}
	require.True(t, lookup(t, "utf8").IsUTF8())
	for _, bad := range []string{"", "klingon", "iso-2022-jp", "replacement"} {
		_, err := charset.Lookup(bad)
		require.Error(t, err, bad)
	}
}

func TestSniffBOM(t *testing.T) {
	for _, tc := range []struct {
		head string
		name string
		n    int
	}{{"\xEF\xBB\xBFa", "utf-8", 3}, {"\xFF\xFEa\x00", "utf-16le", 2}, {"\xFE\xFF\x00a", "utf-16be", 2}} {
		cs, n, ok := charset.SniffBOM([]byte(tc.head))
		require.True(t, ok)
		require.Equal(t, tc.name, cs.Name())
		require.Equal(t, tc.n, n)
	}
	for _, head := range []string{"", "\xEF\xBB", "\xFF", "ab"} {
		_, _, ok := charset.SniffBOM([]byte(head))
		require.False(t, ok, "%q", head)
	}
}

func TestDecodeEncodeRoundTrip(t *testing.T) {
	for _, tc := range []struct{ label, text string }{
		{"windows-1252", "café – €"}, {"shift_jis", "日本語テキスト"}, {"gbk", "中文文本"},
		{"euc-kr", "한국어 텍스트"}, {"big5", "繁體中文"}, {"euc-jp", "日本語"}, {"gb18030", "中文 😀"},
		{"iso-8859-2", "Zażółć"}, {"utf-16le", "a\r\nb 😀"}, {"utf-16be", "a\r\nb 😀"},
	} {
		cs := lookup(t, tc.label)
		b, err := charset.Encode(cs, tc.text)
		require.NoError(t, err, tc.label)
		text, err := charset.Decode(cs, b)
		require.NoError(t, err, tc.label)
		require.Equal(t, tc.text, string(text), tc.label)
	}
}

func TestDecodeRefusesWhatDoesNotRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		label string
		raw   string
		off   int64
	}{
		{"shift_jis", "ab\x85\x40\x82", 2}, // 85 40: no character; then a truncated pair
		{"shift_jis", "ab\x82\xa0\x82", 4}, // 82 A0 is あ; the last lead byte has no trail
		{"shift_jis", "\xa0x", 0},          // A0: no character
		{"euc-kr", "ok\xc7", 2},            // truncated at the end
		{"utf-16le", "a\x00\x00\xd8", 2},   // lone high surrogate
		{"utf-16le", "a\x00b", 2},          // odd length
		{"shift_jis", "x\x87\x90", 1},      // NEC row 13 ≒: encodes back to 81 E0
		{"shift_jis", "xy\xfa\x5c", 2},     // IBM extension 纊: encodes back to ED 40
		{"gbk", "ab\xa2\xe3", 2},           // A2 E3 is €, which encodes to 80
	} {
		_, err := charset.Decode(lookup(t, tc.label), []byte(tc.raw))
		nt, ok := errors.AsType[*charset.NotTextError](err)
		require.True(t, ok, "%s %q: %v", tc.label, tc.raw, err)
		require.Equal(t, tc.off, nt.Offset, "%s %q", tc.label, tc.raw)
		require.Contains(t, nt.Error(), "not "+lookup(t, tc.label).Name()+" text (byte ")
	}
}

func TestEncodeNamesTheCharacter(t *testing.T) {
	for _, tc := range []struct {
		label, text string
		r           rune
	}{
		{"windows-1252", "price: 5€, 日", '日'},
		{"shift_jis", "テスト 한", '한'},
		{"shift_jis", "yen ¥", '¥'}, // encodes to 5C, which decodes to '\'
		{"iso-8859-2", "é ß €", '€'},
	} {
		_, err := charset.Encode(lookup(t, tc.label), tc.text)
		ue, ok := errors.AsType[*charset.UnencodableError](err)
		require.True(t, ok, "%s %q: %v", tc.label, tc.text, err)
		require.Equal(t, tc.r, ue.Rune)
	}
	_, err := charset.Encode(lookup(t, "windows-1252"), "a€日")
	require.EqualError(t, err, "U+65E5 '日' cannot be encoded in windows-1252")
}

func write(t testing.TB, path, data string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(data), 0o644))
}

func TestResolverOrder(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, ".editorconfig"), "root = true\n[*.txt]\ncharset = latin1\n[legacy/**]\ncharset = utf-16le\n[*.md]\ncharset = utf-8-bom\n")
	r, err := charset.NewResolver(root, []charset.Rule{
		{Glob: "*.sjis.txt", Charset: "shift_jis"},
		{Glob: "jp/", Charset: "euc-jp"},
		{Glob: "/top.txt", Charset: "gbk"},
		{Glob: "*.txt", Charset: "windows-1252"},
	})
	require.NoError(t, err)
	for _, tc := range []struct {
		rel, head, name string
		src             charset.Source
		bom             int
	}{
		{"a.sjis.txt", "", "shift_jis", charset.SourceRule, 0},
		{"deep/b.sjis.txt", "", "shift_jis", charset.SourceRule, 0},
		{"a.sjis.txt", "\xFF\xFE", "utf-16le", charset.SourceBOM, 2},
		{"a.sjis.txt", "\xEF\xBB\xBF", "utf-8", charset.SourceBOM, 3},
		{"jp/x/y.c", "", "euc-jp", charset.SourceRule, 0},
		{"top.txt", "", "gbk", charset.SourceRule, 0},
		{"sub/top.txt", "", "windows-1252", charset.SourceRule, 0},
		{"legacy/x.c", "", "utf-16le", charset.SourceEditorConfig, 0},
		{"other.c", "", "utf-8", charset.SourceDefault, 0},
	} {
		d, n := r.Resolve(filepath.Join(root, tc.rel), []byte(tc.head))
		require.Equal(t, tc.name, d.Charset.Name(), tc.rel)
		require.Equal(t, tc.src, d.Source, tc.rel)
		require.Equal(t, tc.bom, n, tc.rel)
	}
	// No rule: .editorconfig decides; its latin1 is ISO-8859-1; a file outside cwd matches no rule.
	bare, err := charset.NewResolver(filepath.Join(root, "elsewhere"), []charset.Rule{{Glob: "*", Charset: "gbk"}})
	require.NoError(t, err)
	d := bare.Declared(filepath.Join(root, "n.txt"))
	require.Equal(t, "iso-8859-1", d.Charset.Name())
	require.Equal(t, charset.SourceEditorConfig, d.Source)
	d = bare.Declared(filepath.Join(root, "readme.md"))
	require.True(t, d.Charset.IsUTF8())
	require.True(t, d.BOM)
	require.True(t, d.Declared())
}

func TestEditorConfigNearerAndLaterWin(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, ".editorconfig"), "root = true\n[*]\ncharset = latin1\n[*.c]\ncharset = utf-16be\n")
	write(t, filepath.Join(root, "sub", ".editorconfig"), "[*.c]\ncharset = utf-16le\n[bogus.c]\ncharset = klingon\n")
	r, err := charset.NewResolver(root, nil)
	require.NoError(t, err)
	require.Equal(t, "utf-16be", r.Declared(filepath.Join(root, "a.c")).Charset.Name())
	require.Equal(t, "utf-16le", r.Declared(filepath.Join(root, "sub", "a.c")).Charset.Name())
	require.Equal(t, "iso-8859-1", r.Declared(filepath.Join(root, "sub", "a.h")).Charset.Name())
	// An unknown value declares nothing, not even what an earlier section said.
	require.Equal(t, charset.SourceDefault, r.Declared(filepath.Join(root, "sub", "bogus.c")).Source)
	s := r.Session()
	d, _ := s.Resolve(filepath.Join(root, "sub", "a.c"), nil)
	require.Equal(t, "utf-16le", d.Charset.Name())
	d, _ = s.Resolve(filepath.Join(root, "a.c"), nil)
	require.Equal(t, "utf-16be", d.Charset.Name())
}

func TestNewResolverNamesTheBadEntry(t *testing.T) {
	_, err := charset.NewResolver("/", []charset.Rule{{Glob: "*.a", Charset: "gbk"}, {Glob: "*.b", Charset: "klingon"}})
	require.EqualError(t, err, `encodings[1] (glob "*.b"): unknown charset "klingon" (a WHATWG Encoding Standard label, such as windows-1252 or shift_jis)`)
	_, err = charset.NewResolver("/", []charset.Rule{{Glob: "", Charset: "gbk"}})
	require.ErrorContains(t, err, "encodings[0]: glob")
	_, err = charset.NewResolver("/", []charset.Rule{{Glob: "!x", Charset: "gbk"}})
	require.ErrorContains(t, err, "encodings[0]: glob")
}

// RawOffset maps text offsets back to byte offsets past many offset marks.
func TestRawOffsetAcrossMarks(t *testing.T) {
	for _, label := range []string{"shift_jis", "utf-16be", "gb18030"} {
		cs := lookup(t, label)
		text := strings.Repeat("日本語 text 😀\n", 20000) // about 400 KiB of UTF-8
		if label == "shift_jis" {
			text = strings.ReplaceAll(text, "😀", "x")
		}
		raw, err := charset.Encode(cs, text)
		require.NoError(t, err)
		ti, err := charset.DecodeIndexed(cs, raw)
		require.NoError(t, err)
		require.Equal(t, text, string(ti.UTF8))
		for _, k := range []int{0, 1, 32 << 10, 100003, len(text) / 2, len(text) - 1, len(text)} {
			for k > 0 && k < len(text) && !utf8.RuneStart(text[k]) {
				k--
			}
			head, err := charset.EncodeKnown(cs, text[:k])
			require.NoError(t, err)
			require.Equal(t, len(head), ti.RawOffset(k), "%s at %d", label, k)
		}
	}
}

// windows-1252 is the WHATWG decoder's: 81, 8D, 8F, 90 and 9D, which older tables leave
// undefined, are the C1 controls of the same value, and a file holding them round-trips byte for
// byte (docs/encodings.md).
func TestWindows1252FollowsWHATWG(t *testing.T) {
	cs := lookup(t, "windows-1252")
	raw := []byte("a\x80\x81\x8d\x8f\x90\x9d\x9f\xffz")
	text, err := charset.Decode(cs, raw)
	require.NoError(t, err)
	require.Equal(t, "a€\u0081\u008d\u008f\u0090\u009dŸÿz", string(text))
	back, err := charset.Encode(cs, string(text))
	require.NoError(t, err)
	require.Equal(t, raw, back)
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	text, err = charset.Decode(cs, all)
	require.NoError(t, err)
	back, err = charset.EncodeKnown(cs, string(text))
	require.NoError(t, err)
	require.Equal(t, all, back)
	_, err = charset.Encode(cs, "\u0080")
	require.EqualError(t, err, "U+0080 '\\u0080' cannot be encoded in windows-1252")
}

// TestEditorConfigBeneathLooksAtNothingAbove: under a confinement (the Beneath forms) no
// .editorconfig above the top directory is looked at, and one beneath it reached through a
// symlink that leaves it is not read; unbounded, both apply as EditorConfig finds them.
func TestEditorConfigBeneathLooksAtNothingAbove(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	top := filepath.Join(base, "ws")
	write(t, filepath.Join(base, ".editorconfig"), "root = true\n[*]\ncharset = latin1\n")
	write(t, filepath.Join(base, "out", ".editorconfig"), "root = true\n[*]\ncharset = utf-16le\n")
	write(t, filepath.Join(top, "sub", ".editorconfig"), "[*.c]\ncharset = utf-16be\n")
	require.NoError(t, os.Symlink(filepath.Join(base, "out"), filepath.Join(top, "link")))
	r, err := charset.NewResolver(top, nil)
	require.NoError(t, err)

	for _, tc := range []struct{ path, unbounded, beneath string }{
		{filepath.Join(top, "a.txt"), "iso-8859-1", "utf-8"},
		{filepath.Join(top, "sub", "a.c"), "utf-16be", "utf-16be"},
		{filepath.Join(top, "sub", "a.txt"), "iso-8859-1", "utf-8"},
		{filepath.Join(top, "link", "a.txt"), "utf-16le", "utf-8"},
	} {
		assert.Equal(t, tc.unbounded, r.Declared(tc.path).Charset.Name(), tc.path)
		assert.Equal(t, tc.beneath, r.DeclaredBeneath(top, tc.path).Charset.Name(), tc.path)
		d, _ := r.ResolveBeneath(top, tc.path, nil)
		assert.Equal(t, tc.beneath, d.Charset.Name(), tc.path)
		d, _ = r.SessionBeneath(top).Resolve(tc.path, nil)
		assert.Equal(t, tc.beneath, d.Charset.Name(), tc.path)
		d, _ = r.Session().Resolve(tc.path, nil)
		assert.Equal(t, tc.unbounded, d.Charset.Name(), tc.path)
	}
}
