package texts_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/texts"
)

const file = `{
 "plain": "No files found",
 "footer": "(Showing lines {offset}-{end} of {total}. Use offset={next} to continue.)",
 "braces": "a {3} b {not closed and {} and { x} then {name}",
 "twice": "{n} and {n} again"
}`

func set(t *testing.T) texts.Set {
	t.Helper()
	s, err := texts.Parse("test.json", []byte(file))
	require.NoError(t, err)
	return s
}

func TestTemplateRendersBoundValuesInOrder(t *testing.T) {
	s := set(t)
	tpl := s.Template("footer", "offset", "end", "total", "next")
	assert.Equal(t, "(Showing lines 2-3 of 4. Use offset=4 to continue.)", tpl.Render("2", "3", "4", "4"))
	assert.Equal(t, "(Showing lines 2-3 of 4. Use offset=4 to continue.)", tpl.RenderInts(2, 3, 4, 4))
	assert.Equal(t, "x:(Showing lines 2-3 of 4. Use offset=4 to continue.)", string(tpl.Append([]byte("x:"), "2", "3", "4", "4")))
	assert.Equal(t, "No files found", s.Text("plain"))
	assert.Equal(t, "7 and 7 again", s.Template("twice", "n").Render("7"))
}

func TestLoadReadsTheFileFromDisk(t *testing.T) {
	path := filepath.Join(t.TempDir(), "texts.json")
	require.NoError(t, os.WriteFile(path, []byte(file), 0o644))
	s, err := texts.Load(path)
	require.NoError(t, err)
	assert.Equal(t, "No files found", s.Text("plain"))
	assert.Equal(t, "No files found", texts.MustLoad(path).Text("plain"))
	_, err = texts.Load(filepath.Join(t.TempDir(), "absent.json"))
	assert.ErrorIs(t, err, os.ErrNotExist)
	assert.Panics(t, func() { texts.MustLoad(filepath.Join(t.TempDir(), "absent.json")) })
}

func TestOnlyNamesInBracesArePlaceholders(t *testing.T) {
	got := set(t).Template("braces", "name").Render("N")
	assert.Equal(t, "a {3} b {not closed and {} and { x} then N", got)
}

func TestLenIntsIsTheRenderedLength(t *testing.T) {
	tpl := set(t).Template("footer", "offset", "end", "total", "next")
	for _, v := range [][4]int{{1, 9, 10, 10}, {1, 99, 1000, 100}, {123456, 999999, 1 << 40, 1000000}, {0, 0, 0, 0}} {
		assert.Equal(t, len(tpl.RenderInts(v[0], v[1], v[2], v[3])), tpl.LenInts(v[0], v[1], v[2], v[3]))
	}
}

func TestMistakesPanicOrErr(t *testing.T) {
	s := set(t)
	assert.PanicsWithValue(t, `texts test.json: no text "absent"`, func() { s.Template("absent") })
	assert.Panics(t, func() { s.Template("footer", "offset", "end") }, "an unbound placeholder")
	assert.Panics(t, func() { s.Text("footer") })
	_, err := s.Render("footer", "offset", "1")
	assert.ErrorContains(t, err, "placeholder {end} is not among")
	_, err = s.Render("plain", "extra", "1")
	assert.ErrorContains(t, err, "no placeholder {extra}")
	_, err = s.Render("plain", "odd")
	assert.ErrorContains(t, err, "odd name/value pairs")
	_, err = s.Render("absent")
	assert.ErrorContains(t, err, `no text "absent"`)
	_, err = texts.Parse("bad.json", []byte(`{"a": 1}`))
	assert.ErrorContains(t, err, "texts bad.json")
	assert.Panics(t, func() { texts.MustParse("bad.json", []byte("[")) })
	assert.Panics(t, func() { s.MustRender("plain", "extra", "1") })
	assert.Equal(t, "x and x again", s.MustRender("twice", "n", "x"))
	got, err := s.Render("twice", "n", "x")
	require.NoError(t, err)
	assert.Equal(t, "x and x again", got)
	assert.Equal(t, []string{"braces", "footer", "plain", "twice"}, s.Keys())
	assert.Equal(t, "{n} and {n} again", s.Raw("twice"))
}

// FuzzTemplate: rendering with each placeholder's own spelling gives the raw text back, for any
// raw text (literal braces included).
func FuzzTemplate(f *testing.F) {
	f.Add("(Showing lines {offset}-{end}.)")
	f.Add("{a}{b}{ {} {1} {a")
	f.Fuzz(func(t *testing.T, in string) {
		b, err := json.Marshal(map[string]string{"k": in})
		require.NoError(t, err)
		s, err := texts.Parse("fuzz", b)
		require.NoError(t, err)
		raw := s.Raw("k") // in, invalid UTF-8 replaced
		var names []string
		for i := 0; i < len(raw); i++ {
			if raw[i] != '{' {
				continue
			}
			if j := strings.IndexByte(raw[i:], '}'); j > 1 {
				name := raw[i+1 : i+j]
				if isName(name) && !contains(names, name) {
					names = append(names, name)
				}
			}
		}
		values := make([]string, len(names))
		for i, n := range names {
			values[i] = "{" + n + "}"
		}
		assert.Equal(t, raw, s.Template("k", names...).Render(values...))
	})
}

func isName(s string) bool {
	for i, c := range s {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return s != ""
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
