package toolfs

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestLangFromPath(t *testing.T) {
	cases := map[string]string{
		"/a/b.ts": "ts", "x.TSX": "tsx", "a.mjs": "js", "a.jsonc": "json", "a.kt": "kotlin",
		"a.markdown": "md", "a.yml": "yaml", "a.h": "c", "a.hpp": "cpp", `C:\dir\file.Go`: "go",
		"notes": "", ".gitignore": "", "/dir.ts/file": "", "a.constructor": "", "a.__proto__": "",
		"a.": "", "a.unknown": "",
	}
	for p, want := range cases {
		assert.Equal(t, want, LangFromPath(p), p)
	}
}

func TestRenderReadFooters(t *testing.T) {
	line := []Line{{Number: 1, Text: "x"}}
	env := func(body string) string { return envelopeText.Render("/f", body) }
	assert.Equal(t, env("1: x\n\n"+footerCapped.RenderInts(1, 1, 2)),
		RenderRead(ReadValue{Path: "/f", Offset: 1, Lines: line, TotalLines: 99}, 5))
	assert.Equal(t, env("1: x\n\n"+footerWindow.RenderInts(1, 1, 99, 2)),
		RenderRead(ReadValue{Path: "/f", Offset: 1, Lines: line, TotalLines: 99}, 1))
	assert.Equal(t, env(footerEnd.RenderInts(0)),
		RenderRead(ReadValue{Path: "/f", Offset: 1, Lines: []Line{}, TotalLines: 0}, 5))
	write := func(verb, counts string) string {
		return writeSuccess.Render(envelopeText.Render("/f", fsText.Text(verb)), counts)
	}
	assert.Equal(t, write("write.created", countsNew.Render(fsText.Text("lines.one"))),
		RenderWrite(WriteValue{Path: "/f", Operation: "create", Lines: 1, LinesBefore: -1}))
	assert.Equal(t, write("write.updated", countsReplaced.Render(linesMany.RenderInts(0), linesMany.RenderInts(2))),
		RenderWrite(WriteValue{Path: "/f", Operation: "update", LinesBefore: 2}))
	assert.Equal(t, write("write.updated", countsUnknown.Render(linesMany.RenderInts(3))),
		RenderWrite(WriteValue{Path: "/f", Operation: "update", Lines: 3, LinesBefore: -1}))
}
