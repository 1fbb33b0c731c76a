package toolfs

import (
	"strings"
	"testing"
)

// The charset line sits between <type> and <content>, and the budget counts exactly its bytes.
func TestCharsetLineAndItsLength(t *testing.T) {
	v := ReadValue{Path: "/w/a.txt", Offset: 1, Lines: []Line{{Number: 1, Text: "日本"}}, TotalLines: 1}
	plain := RenderRead(v, 2000)
	v.Charset = "shift_jis"
	with := RenderRead(v, 2000)
	if !strings.HasPrefix(with, "<path>/w/a.txt</path>\n<type>file</type>\n<charset>shift_jis</charset>\n<content>\n1: 日本\n") {
		t.Fatalf("envelope: %q", with)
	}
	if got, want := len(with)-len(plain), charsetLineLen("shift_jis"); got != want {
		t.Fatalf("the line adds %d bytes, the budget counts %d", got, want)
	}
	if charsetLineLen("") != 0 || strings.Contains(plain, "<charset>") {
		t.Fatal("a UTF-8 file has no charset line")
	}
}
