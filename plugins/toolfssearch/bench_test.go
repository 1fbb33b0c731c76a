package toolfssearch_test

import (
	"strconv"
	"testing"

	"github.com/cordon-dev/cordon/plugins/toolfssearch"
)

func BenchmarkRenderGrep(b *testing.B) {
	v := toolfssearch.GrepValue{Total: 1000, SpillPath: "/state/cordon/spill/x.txt"}
	for i := range 250 {
		v.Matches = append(v.Matches, toolfssearch.GrepMatch{Path: "dir/file" + strconv.Itoa(i/10) + ".go", Line: i + 1,
			Text: "func line(r io.Reader) { return 12345 + x }", Truncated: i%7 == 0, ValidUTF8: i%11 != 0})
	}
	for b.Loop() {
		_ = toolfssearch.RenderGrep(v)
	}
}

func BenchmarkRenderGlob(b *testing.B) {
	v := toolfssearch.GlobValue{Total: 500, SpillPath: "/state/cordon/spill/x.txt"}
	for i := range 100 {
		v.Paths = append(v.Paths, "dir"+strconv.Itoa(i%9)+"/sub/file"+strconv.Itoa(i)+".go")
	}
	for b.Loop() {
		_ = toolfssearch.RenderGlob(v)
	}
}
