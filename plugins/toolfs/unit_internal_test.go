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
	assert.Equal(t, "<path>/f</path>\n<type>file</type>\n<content>\n1: x\n\n(Output capped. Showing lines 1-1. Use offset=2 to continue.)\n</content>",
		RenderRead(ReadValue{Path: "/f", Offset: 1, Lines: line, TotalLines: 99}, 5))
	assert.Equal(t, "<path>/f</path>\n<type>file</type>\n<content>\n1: x\n\n(Showing lines 1-1 of 99. Use offset=2 to continue.)\n</content>",
		RenderRead(ReadValue{Path: "/f", Offset: 1, Lines: line, TotalLines: 99}, 1))
	assert.Equal(t, "<path>/f</path>\n<type>file</type>\n<content>\n(End of file - total 0 lines)\n</content>",
		RenderRead(ReadValue{Path: "/f", Offset: 1, Lines: []Line{}, TotalLines: 0}, 5))
	assert.Equal(t, "<path>/f</path>\n<type>file</type>\n<content>\nCreated file\n</content>\nWrote 1 line to a new file.", RenderWrite(WriteValue{Path: "/f", Operation: "create", Lines: 1, LinesBefore: -1}))
	assert.Equal(t, "<path>/f</path>\n<type>file</type>\n<content>\nUpdated file\n</content>\nWrote 0 lines; the file had 2 lines.", RenderWrite(WriteValue{Path: "/f", Operation: "update", LinesBefore: 2}))
	assert.Equal(t, "<path>/f</path>\n<type>file</type>\n<content>\nUpdated file\n</content>\nWrote 3 lines.", RenderWrite(WriteValue{Path: "/f", Operation: "update", Lines: 3, LinesBefore: -1}))
}
