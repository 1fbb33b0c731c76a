package main_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/unicode"
)

// encodingCase is one file of the encodings table: stored in enc after bom, read, edited (one word)
// and rewritten through `harness run`.
type encodingCase struct {
	name, file, charset string // charset: what read's envelope line names
	enc                 encoding.Encoding
	bom                 string
	text                string // the file's text (UTF-8)
	old, new            string // the edit of one word
	rewrite             string // the write's content
}

func mustEncode(t *testing.T, enc encoding.Encoding, s string) []byte {
	t.Helper()
	b, err := enc.NewEncoder().Bytes([]byte(s))
	require.NoError(t, err, s)
	return b
}

// TestEncodingsTable reads, edits and writes files in UTF-16LE/BE (BOM, CRLF), windows-1252,
// latin1 (by .editorconfig), Shift_JIS, GBK and EUC-KR (by encodings rules) through `harness
// run`, comparing every stored byte with the expected re-encoding, then checks the refusals
// (new text the charset cannot encode, a lossy file under a rule, an undeclared non-UTF-8 file)
// leave each file unchanged, and that grep matches the decoded text. It logs the table.
func TestEncodingsTable(t *testing.T) {
	dir := realTemp(t)
	writeFile(t, filepath.Join(dir, ".editorconfig"), "root = true\n[*.lat]\ncharset = latin1\n")
	config := filepath.Join(dir, "encodings.yaml")
	writeFile(t, config, fmt.Sprintf("plugins:\n  - name: fs-local\n    config:\n      cwd: %q\n      encodings:\n"+
		"        - { glob: '*.cp1252', charset: windows-1252 }\n"+
		"        - { glob: 'lossy/', charset: shift_jis }\n"+
		"        - { glob: '*.sjis', charset: shift_jis }\n"+
		"        - { glob: '*.gbk', charset: GBK }\n"+
		"        - { glob: '*.kr', charset: euc-kr }\n"+
		"  - name: fs-observation-policy\n  - name: tools\n  - name: tool-fs\n  - name: tool-apply-patch\n  - name: tool-fs-search\n", dir))
	utf16le := unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM)
	utf16be := unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM)
	cases := []encodingCase{
		{"UTF-16LE, BOM, CRLF", "le.txt", "utf-16le", utf16le, "\xFF\xFE", "first line\r\nsecond 😀 word\r\nthird\r\n", "word", "WORD", "new\r\nlines ü\r\n"},
		{"UTF-16BE, BOM, CRLF", "be.txt", "utf-16be", utf16be, "\xFE\xFF", "first line\r\nsecond 😀 word\r\nthird\r\n", "word", "WORD", "new\r\nlines ü\r\n"},
		{"windows-1252 by rule", "a.cp1252", "windows-1252", charmap.Windows1252, "", "café – 5€\nnaïve word\n", "word", "wörd", "Grüße, €\n"},
		{"latin1 by .editorconfig", "a.lat", "iso-8859-1", charmap.ISO8859_1, "", "Ærø, ñ\r\nmid word end\r\n", "word", "wörd", "¡olé!\n"},
		{"Shift_JIS by rule", "a.sjis", "shift_jis", japanese.ShiftJIS, "", "日本語のテキスト\n二行目 word です\n", "word", "単語", "新しい内容\n"},
		{"GBK by rule", "a.gbk", "gbk", simplifiedchinese.GBK, "", "中文文本\n第二行 word 结束\n", "word", "单词", "新的内容\n"},
		{"EUC-KR by rule", "a.kr", "euc-kr", korean.EUCKR, "", "한국어 텍스트\n둘째 줄 word 끝\n", "word", "단어", "새 내용\n"},
	}
	for _, c := range cases {
		writeFile(t, filepath.Join(dir, c.file), c.bom+string(mustEncode(t, c.enc, c.text)))
	}
	lossy := "ok \x87\x90 lossy\n" // 87 90 decodes to ≒, which encodes back to 81 E0
	for _, sub := range []string{"lossy", "g"} {
		require.NoError(t, mkdir(filepath.Join(dir, sub)))
	}
	writeFile(t, filepath.Join(dir, "lossy", "x.txt"), lossy)
	writeFile(t, filepath.Join(dir, "plain.txt"), "caf\xe9\n")

	p := startRun(t, "--config", config)
	id := 0
	call := func(tool string, args map[string]any) runLine {
		id++
		return p.call(jsonLine(map[string]any{"id": id, "tool": tool, "args": args}))
	}
	disk := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		return b
	}
	verdict := func(ok bool) string {
		if ok {
			return "ok"
		}
		return "FAIL"
	}

	t.Log("| file | charset | read | edit (one word) | apply_patch (the edit undone) | write | bytes |")
	t.Log("|---|---|---|---|---|---|---|")
	for _, c := range cases {
		path := filepath.Join(dir, c.file)
		orig := disk(c.file)

		r := call("read", map[string]any{"file_path": c.file})
		var v struct {
			Charset string `json:"charset"`
			Lines   []struct{ Text string }
		}
		require.NoError(t, json.Unmarshal(r.Value, &v), r.Text)
		readOK := assert.False(t, r.IsError, r.Text) &&
			assert.Contains(t, r.Text, "<path>"+path+"</path>\n<type>file</type>\n<charset>"+c.charset+"</charset>\n<content>\n", c.name) &&
			assert.Equal(t, c.charset, v.Charset, c.name) &&
			assert.Equal(t, strings.Split(strings.TrimSuffix(strings.ReplaceAll(c.text, "\r\n", "\n"), "\n"), "\n")[1], v.Lines[1].Text, c.name)

		r = call("edit", map[string]any{"file_path": c.file, "old_string": c.old, "new_string": c.new})
		oldB, newB := mustEncode(t, c.enc, c.old), mustEncode(t, c.enc, c.new)
		at := bytes.Index(orig, oldB)
		require.Positive(t, at, c.name)
		want := append(append(append([]byte(nil), orig[:at]...), newB...), orig[at+len(oldB):]...)
		got := disk(c.file)
		editOK := assert.False(t, r.IsError, r.Text) && assert.Equal(t, want, got, c.name)
		var meta struct {
			Diffs []struct{ OldText, NewText string }
		}
		require.NoError(t, json.Unmarshal(r.Meta, &meta), string(r.Meta))
		editOK = editOK && assert.Len(t, meta.Diffs, 1) &&
			assert.Contains(t, meta.Diffs[0].NewText, c.new, "the diff is of the decoded text") &&
			assert.Contains(t, meta.Diffs[0].OldText, c.old)

		// apply_patch puts the edited line back: the file is its original bytes again.
		var line string
		for _, l := range strings.Split(strings.ReplaceAll(c.text, "\r\n", "\n"), "\n") {
			if strings.Contains(l, c.old) {
				line = l
				break
			}
		}
		patch := "*** Begin Patch\n*** Update File: " + c.file + "\n@@\n-" + strings.Replace(line, c.old, c.new, 1) + "\n+" + line + "\n*** End Patch"
		r = call("apply_patch", map[string]any{"input": patch})
		patchOK := assert.False(t, r.IsError, r.Text) && assert.Equal(t, orig, disk(c.file), c.name)

		r = call("write", map[string]any{"file_path": c.file, "content": c.rewrite})
		wantW := []byte(c.bom + string(mustEncode(t, c.enc, c.rewrite)))
		writeOK := assert.False(t, r.IsError, r.Text) && assert.Equal(t, wantW, disk(c.file), c.name)

		bom := "no BOM"
		if c.bom != "" {
			bom = fmt.Sprintf("BOM % X kept", c.bom)
		}
		t.Logf("| %s | %s | %s | %s | %s | %s | edit: %d of %d bytes identical, %d re-encoded; apply_patch: the original bytes; write: %d bytes, %s |",
			c.name, c.charset, verdict(readOK), verdict(editOK), verdict(patchOK), verdict(writeOK),
			len(orig)-len(oldB), len(orig), len(newB), len(wantW), bom)
	}

	// A new file that matches a rule is written in its charset.
	r := call("write", map[string]any{"file_path": "fresh.sjis", "content": "新規 ファイル\n"})
	newOK := assert.False(t, r.IsError, r.Text) && assert.Equal(t, mustEncode(t, japanese.ShiftJIS, "新規 ファイル\n"), disk("fresh.sjis"))
	t.Logf("| new file by rule (fresh.sjis) | shift_jis | - | - | - | %s | written in Shift_JIS |", verdict(newOK))

	// Refusals: each file stays as it was.
	sjis := filepath.Join(dir, "a.sjis")
	before := disk("a.sjis")
	r = call("edit", map[string]any{"file_path": "a.sjis", "old_string": "新しい", "new_string": "새로운"})
	unenc := assert.True(t, r.IsError) && assert.Equal(t, `Error: cannot edit "`+sjis+`": U+C0C8 '새' cannot be encoded in shift_jis`, r.Text) &&
		assert.Equal(t, "FS_NOT_TEXT", *r.Code)
	r = call("write", map[string]any{"file_path": "a.sjis", "content": "price ₩100\n"})
	unenc = unenc && assert.Equal(t, `Error: cannot write "`+sjis+`": U+20A9 '₩' cannot be encoded in shift_jis`, r.Text) &&
		assert.Equal(t, before, disk("a.sjis"))
	t.Logf("| refusal: unencodable new text (edit, write) | shift_jis | - | %s | - | %s | unchanged |", verdict(unenc), verdict(unenc))

	lossyPath := filepath.Join(dir, "lossy", "x.txt")
	notSJIS := `: not shift_jis text (byte 3 does not round-trip)`
	r = call("read", map[string]any{"file_path": "lossy/x.txt"})
	lossyOK := assert.Equal(t, `Error: cannot read "`+lossyPath+`"`+notSJIS, r.Text) && assert.Equal(t, "FS_NOT_TEXT", *r.Code)
	r = call("edit", map[string]any{"file_path": "lossy/x.txt", "old_string": "ok", "new_string": "OK"})
	lossyOK = lossyOK && assert.Equal(t, `Error: cannot edit "`+lossyPath+`"`+notSJIS, r.Text)
	r = call("write", map[string]any{"file_path": "lossy/x.txt", "content": "x"})
	lossyOK = lossyOK && assert.Equal(t, `Error: cannot write "`+lossyPath+`"`+notSJIS, r.Text) &&
		assert.Equal(t, lossy, string(disk("lossy/x.txt")))
	t.Logf("| refusal: lossy file under a rule (lossy/x.txt) | shift_jis | %s | %s | - | %s | unchanged |", verdict(lossyOK), verdict(lossyOK), verdict(lossyOK))

	plain := filepath.Join(dir, "plain.txt")
	guidance := "\nIf it is text in another charset, declare it: an `encodings` entry {glob, charset} in the provider config, or `charset` in .editorconfig."
	r = call("read", map[string]any{"file_path": "plain.txt"})
	undeclared := assert.Equal(t, `Error: cannot read "`+plain+`": invalid UTF-8 text`+guidance, r.Text)
	r = call("edit", map[string]any{"file_path": "plain.txt", "old_string": "caf", "new_string": "CAF"})
	undeclared = undeclared && assert.Equal(t, `Error: cannot edit "`+plain+`": invalid UTF-8 text`+guidance, r.Text) &&
		assert.Equal(t, "caf\xe9\n", string(disk("plain.txt")))
	t.Logf("| refusal: undeclared non-UTF-8 (plain.txt) | utf-8 | %s | %s | - | - | unchanged |", verdict(undeclared), verdict(undeclared))

	// grep sees the decoded text: a BOM'd UTF-16 file and files in declared charsets.
	writeFile(t, filepath.Join(dir, "g", "u16.txt"), "\xFF\xFE"+string(mustEncode(t, utf16le, "alpha\r\nneedle in utf-16\r\n")))
	writeFile(t, filepath.Join(dir, "g", "k.sjis"), string(mustEncode(t, japanese.ShiftJIS, "一行目\nneedle と日本語\n")))
	r = call("grep", map[string]any{"pattern": "needle", "path": "g"})
	grepOK := assert.False(t, r.IsError, r.Text) &&
		assert.Contains(t, r.Text, "needle in utf-16") && assert.Contains(t, r.Text, "needle と日本語")
	t.Logf("| grep (UTF-16LE BOM, Shift_JIS rule) | - | %s | - | - | - | decoded lines reported |", verdict(grepOK))
}
