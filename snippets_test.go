package cordon_test

import (
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every Go snippet of README.md and docs/ is held by code (docs/testing.md "Snippets held by
// code"): each ```go block equals, modulo indentation, a region of a Go file that CI builds,
// marked
//
//	// snippet: docs/host.md custom-host
//	...
//	// end snippet
//
// and each marked region is a block of the page it names, so the two change together. A region
// may carry several snippet lines when two pages show the same code.
func TestSnippetsAreHeldByCode(t *testing.T) {
	docs := map[string]string{}
	pages := []string{"README.md"}
	more, err := filepath.Glob("docs/*.md")
	require.NoError(t, err)
	sub, err := filepath.Glob("docs/*/*.md")
	require.NoError(t, err)
	for _, p := range append(append(pages, more...), sub...) {
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		docs[filepath.ToSlash(p)] = string(b)
	}
	sources := map[string]string{}
	require.NoError(t, filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".") && p != ".") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if strings.Contains(string(b), snippetMarker) {
				sources[filepath.ToSlash(p)] = string(b)
			}
		}
		return nil
	}))
	held, problems := checkSnippets(docs, sources)
	for _, p := range problems {
		t.Error(p)
	}
	t.Logf("%d Go snippets, each held by code", held)
	assert.Positive(t, held, "the pages' Go snippets were not found")
}

// The check on made-up pages and sources: a block held by a region passes, indentation aside; a
// block no region holds, a region whose page lacks it (the code moved on), a region naming a page
// that does not exist and a region left open are each reported, with where to look.
func TestSnippetsCheckerReports(t *testing.T) {
	docs := map[string]string{
		"docs/a.md": "text\n\n```go\nfunc f() {\n\treturn\n}\n```\n\n```go\nx := 1\n```\n\n```sh\nnot go\n```\n",
	}
	sources := map[string]string{
		"a_test.go": "package a\n\n// snippet: docs/a.md f\nfunc f() {\n\treturn\n}\n\n// end snippet\n\n" +
			"func g() {\n\t// snippet: docs/a.md g\n\t// snippet: docs/b.md g\n\tx := 2\n\t// end snippet\n}\n" +
			"// snippet: docs/a.md open\n",
	}
	held, problems := checkSnippets(docs, sources)
	assert.Equal(t, 1, held)
	assert.Equal(t, []string{
		"a_test.go:11: snippet docs/a.md g is not a ```go block of docs/a.md: the page and the code differ (change both)",
		"a_test.go:12: snippet docs/b.md g names docs/b.md, which is not a page",
		"a_test.go:16: snippet docs/a.md open has no // end snippet",
		"docs/a.md:9: this ```go block is held by no code: mark the Go source that builds it with // snippet: docs/a.md <name> ... // end snippet (unheld there: a_test.go:11 docs/a.md g)",
	}, problems)
}

const snippetMarker = "// snippet: "

// region is a marked part of a Go source: the pages' blocks it holds and its text.
type region struct {
	at   string // file:line of its first snippet line
	keys []snippetKey
	text string
}

type snippetKey struct{ page, name, at string }

// checkSnippets matches the ```go blocks of docs (page path to text) with the marked regions of
// sources (Go file path to text). It returns how many blocks are held and the problems, sorted.
func checkSnippets(docs, sources map[string]string) (held int, problems []string) {
	var regions []region
	for _, file := range slices.Sorted(maps.Keys(sources)) {
		rs, ps := markedRegions(file, sources[file])
		regions = append(regions, rs...)
		problems = append(problems, ps...)
	}
	used := map[snippetKey]bool{}
	for _, page := range slices.Sorted(maps.Keys(docs)) {
		for _, b := range goBlocks(docs[page]) {
			found := false
			for _, r := range regions {
				for _, k := range r.keys {
					if k.page == page && r.text == b.text {
						found, used[k] = true, true
					}
				}
			}
			if found {
				held++
				continue
			}
			var unheld []string
			for _, r := range regions {
				for _, k := range r.keys {
					if k.page == page && !used[k] {
						unheld = append(unheld, k.at+" "+k.page+" "+k.name)
					}
				}
			}
			hint := ""
			if len(unheld) > 0 {
				hint = " (unheld there: " + strings.Join(unheld, ", ") + ")"
			}
			problems = append(problems, page+":"+strconv.Itoa(b.line)+": this ```go block is held by no code: mark the Go source that builds it with "+
				snippetMarker+page+" <name> ... // end snippet"+hint)
		}
	}
	for _, r := range regions {
		for _, k := range r.keys {
			switch _, ok := docs[k.page]; {
			case !ok:
				problems = append(problems, k.at+": snippet "+k.page+" "+k.name+" names "+k.page+", which is not a page")
			case !used[k]:
				problems = append(problems, k.at+": snippet "+k.page+" "+k.name+" is not a ```go block of "+k.page+": the page and the code differ (change both)")
			}
		}
	}
	slices.Sort(problems)
	return held, problems
}

// block is a ```go block of a page: the line of its opening fence and its text, normalized.
type block struct {
	line int
	text string
}

// goBlocks returns the ```go blocks of a Markdown page.
func goBlocks(page string) []block {
	var out []block
	lines := strings.Split(page, "\n")
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "```go" {
			continue
		}
		start := i
		var body []string
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
			body = append(body, lines[i])
		}
		out = append(out, block{line: start + 1, text: normalize(body)})
	}
	return out
}

// markedRegions returns the marked regions of one Go source, and the problems of its markers.
func markedRegions(file, src string) ([]region, []string) {
	var out []region
	var problems []string
	lines := strings.Split(src, "\n")
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(strings.TrimSpace(lines[i]), snippetMarker) {
			continue
		}
		r := region{at: file + ":" + strconv.Itoa(i+1)}
		for ; i < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i]), snippetMarker); i++ {
			page, name, _ := strings.Cut(strings.TrimPrefix(strings.TrimSpace(lines[i]), snippetMarker), " ")
			r.keys = append(r.keys, snippetKey{page: page, name: name, at: file + ":" + strconv.Itoa(i+1)})
		}
		var body []string
		for ; i < len(lines) && strings.TrimSpace(lines[i]) != "// end snippet"; i++ {
			body = append(body, lines[i])
		}
		if i == len(lines) {
			for _, k := range r.keys {
				problems = append(problems, k.at+": snippet "+k.page+" "+k.name+" has no // end snippet")
			}
			continue
		}
		r.text = normalize(body)
		out = append(out, r)
	}
	return out, problems
}

// normalize drops the blank lines around a snippet, trailing spaces and the indentation its lines
// share, so a block compares with code indented inside a function.
func normalize(lines []string) string {
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	prefix, first := "", true
	for i, l := range lines {
		l = strings.TrimRight(l, " \t")
		lines[i] = l
		if l == "" {
			continue
		}
		indent := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		if first {
			prefix, first = indent, false
		}
		for !strings.HasPrefix(indent, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
	}
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, prefix)
	}
	return strings.Join(lines, "\n")
}
