package toolfssearch_test

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/spill"
	"github.com/cordon-dev/cordon/plugins/toolfssearch"
)

func TestGlobOutput(t *testing.T) {
	e := newEnv(t, nil, nil)
	e.write(t, "src/old.go", "", 0)
	e.write(t, "src/new.go", "", 20)
	e.write(t, "b.go", "", 10)
	e.write(t, "a.go", "", 10)
	e.write(t, "notes.md", "", 30)
	e.write(t, ".hidden.go", "", 5)
	e.write(t, ".git/x.go", "", 40)
	requireText(t, e.call("glob", map[string]any{"pattern": "*.go"}), "src/new.go\na.go\nb.go\n.hidden.go\nsrc/old.go")
	requireText(t, e.call("glob", map[string]any{"pattern": "src/*.go"}), "src/new.go\nsrc/old.go")
	requireText(t, e.call("glob", map[string]any{"pattern": "**/*.{go,md}"}), "notes.md\nsrc/new.go\na.go\nb.go\n.hidden.go\nsrc/old.go")
	requireText(t, e.call("glob", map[string]any{"pattern": "*.go", "path": "src"}), "src/new.go\nsrc/old.go")
	requireText(t, e.call("glob", map[string]any{"pattern": "*.rs"}), golden("glob.none"))
	requireText(t, e.call("glob", map[string]any{"pattern": "*", "path": ".git"}), golden("glob.none"))
	// A root outside the session cwd is shown absolute.
	e.session.SetHeader(toolsHeader(filepath.Join(e.dir, "src")))
	requireText(t, e.call("glob", map[string]any{"pattern": "*.go", "path": e.dir}), "new.go\n"+filepath.Join(e.dir, "a.go")+"\n"+filepath.Join(e.dir, "b.go")+"\n"+filepath.Join(e.dir, ".hidden.go")+"\nold.go")
	requireText(t, e.call("glob", map[string]any{"pattern": "*.go"}), "new.go\nold.go")
}

func TestGlobIgnoreRulesAndIncludeIgnored(t *testing.T) {
	for _, include := range []bool{false, true} {
		e := newEnv(t, cfgWith(func(c *toolfssearch.Config) { c.IncludeIgnored = include }), nil)
		require.NoError(t, os.MkdirAll(filepath.Join(e.dir, ".git"), 0o755))
		e.write(t, ".gitignore", "*.log\nbuild/\n", 3)
		e.write(t, "a.log", "hit\n", 2)
		e.write(t, "build/x.go", "hit\n", 1)
		e.write(t, "main.go", "hit\n", 0)
		if include {
			requireText(t, e.call("glob", map[string]any{"pattern": "*"}), ".gitignore\na.log\nbuild/x.go\nmain.go")
			requireText(t, e.call("grep", map[string]any{"pattern": "hit"}), found(3)+"\n\na.log\nLine 1: hit\n\nbuild/x.go\nLine 1: hit\n\nmain.go\nLine 1: hit")
			continue
		}
		requireText(t, e.call("glob", map[string]any{"pattern": "*"}), ".gitignore\nmain.go")
		requireText(t, e.call("grep", map[string]any{"pattern": "hit"}), found(1)+"\n\nmain.go\nLine 1: hit")
		// Explicitly named ignored paths are searched.
		requireText(t, e.call("glob", map[string]any{"pattern": "*", "path": "build"}), "build/x.go")
		requireText(t, e.call("grep", map[string]any{"pattern": "hit", "path": "a.log"}), found(1)+"\n\na.log\nLine 1: hit")
	}
}

func TestGlobOverCap(t *testing.T) {
	layout := func(e *env) {
		for i, p := range []string{"vendor/a.ts", "vendor/b.ts", "vendor/c.ts", "src/d.ts", "guide/e.md", "top.txt"} {
			e.write(t, p, "", 100-i)
		}
	}
	e := newEnv(t, cfgWith(func(c *toolfssearch.Config) { c.GlobMaxResults, c.Spill = 3, false }), nil)
	layout(e)
	requireText(t, e.call("glob", map[string]any{"pattern": "*"}), "vendor/a.ts\nsrc/d.ts\nguide/e.md\n\n"+golden("glob.showing.sampled.narrow", "shown", "3", "total", "6", "entries_shown", "3", "entries_total", "4", "recovery", golden("glob.spill.unsaved")))
	requireText(t, e.call("glob", map[string]any{"pattern": "*.ts"}), "vendor/a.ts\nvendor/b.ts\nsrc/d.ts\n\n"+golden("glob.showing.sampled", "shown", "3", "total", "4", "entries_shown", "2", "entries_total", "2", "recovery", golden("glob.spill.unsaved")))

	e = newEnv(t, cfgWith(func(c *toolfssearch.Config) { c.GlobMaxResults, c.Spill, c.SampleOverCapGlobResults = 3, false, false }), nil)
	layout(e)
	requireText(t, e.call("glob", map[string]any{"pattern": "*"}), "vendor/a.ts\nvendor/b.ts\nvendor/c.ts\n\n"+golden("glob.showing", "shown", "3", "total", "6", "recovery", golden("glob.spill.unsaved")))

	// A flat result: the sample is the head, and the footer says only that.
	e = newEnv(t, cfgWith(func(c *toolfssearch.Config) { c.GlobMaxResults, c.Spill = 2, false }), nil)
	e.write(t, "a.ts", "", 3)
	e.write(t, "b.ts", "", 2)
	e.write(t, "c.ts", "", 1)
	requireText(t, e.call("glob", map[string]any{"pattern": "*"}), "a.ts\nb.ts\n\n"+golden("glob.showing", "shown", "2", "total", "3", "recovery", golden("glob.spill.unsaved")))
}

func TestSampleAcrossTopLevel(t *testing.T) {
	paths := []string{"v/a", "v/b", "v/c", "v/d", "src/e", "guide/f"}
	keys := []string{"v", "v", "v", "v", "src", "guide"}
	page, shown, total := toolfssearch.SampleAcrossTopLevel(paths, keys, 5)
	require.Equal(t, []string{"v/a", "v/b", "v/c", "src/e", "guide/f"}, page)
	require.Equal(t, [2]int{3, 3}, [2]int{shown, total})
	page, shown, total = toolfssearch.SampleAcrossTopLevel([]string{"a/1", "b/1", "c/1", "d/1"}, []string{"a", "b", "c", "d"}, 2)
	require.Equal(t, []string{"a/1", "b/1"}, page)
	require.Equal(t, [2]int{2, 4}, [2]int{shown, total})
}

var spillName = regexp.MustCompile(`^[0-9a-f]{32}\.txt$`)

func TestSpillFiles(t *testing.T) {
	e := newEnv(t, cfgWith(func(c *toolfssearch.Config) {
		c.GlobMaxResults, c.GrepMaxMatches, c.SampleOverCapGlobResults = 2, 2, false
	}), nil)
	e.write(t, "a.txt", "one\ntwo\n", 3)
	e.write(t, "b.txt", "three\n", 2)
	e.write(t, "c.txt", strings.Repeat("x", 30)+"e\n", 1)
	r := e.call("glob", map[string]any{"pattern": "*.txt"})
	path := spillPathOf(t, r.Text(), "a.txt\nb.txt\n\n(Showing 2 of 3 paths. ")
	require.Equal(t, "a.txt\nb.txt\nc.txt", readFile(t, path))
	dir := filepath.Dir(path)
	require.Regexp(t, `^`+regexp.QuoteMeta(filepath.Join(e.state, "cordon", "spill"))+`/p-[0-9a-f]{16}$`, dir, "a directory of the process's own")
	require.Regexp(t, spillName, filepath.Base(path))
	requireMode(t, dir, 0o700)
	requireMode(t, path, 0o600)

	r = e.call("grep", map[string]any{"pattern": "e"})
	path = spillPathOf(t, r.Text(), foundOf(2, 3)+"\n\na.txt\nLine 1: one\n\nb.txt\nLine 1: three\n\n(")
	require.Equal(t, spillHeader(found(3))+"\n\na.txt\nLine 1: one\n\nb.txt\nLine 1: three\n\nc.txt\nLine 1: "+strings.Repeat("x", 30)+"e", readFile(t, path))

	// Lines in the spill are cut as inline.
	e = newEnv(t, cfgWith(func(c *toolfssearch.Config) { c.GrepMaxMatches, c.GrepMaxLineBytes = 1, 4 }), nil)
	e.write(t, "a.txt", "hello hello\nhello\n\xffhello\n", 0)
	r = e.call("grep", map[string]any{"pattern": "hello"})
	path = spillPathOf(t, r.Text(), foundOf(1, 3)+"\n\na.txt\nLine 1: hell"+golden("grep.line.truncated")+"\n\n(")
	require.Equal(t, spillHeader(found(3))+"\n\na.txt\nLine 1: hell"+golden("grep.line.truncated")+"\nLine 2: hell"+golden("grep.line.truncated")+"\nLine 3: "+golden("grep.line.invalid_utf8"), readFile(t, path))
	ents, err := os.ReadDir(filepath.Dir(path))
	require.NoError(t, err)
	require.Len(t, ents, 1, "no temporary file is left")
}

func TestSpillFailureIsNotAnError(t *testing.T) {
	e := newEnv(t, cfgWith(func(c *toolfssearch.Config) { c.GrepMaxMatches, c.GlobMaxResults = 1, 1 }), nil)
	require.NoError(t, os.MkdirAll(filepath.Join(e.state, "cordon"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(e.state, "cordon", "spill"), nil, 0o644)) // a file where the directory goes
	e.write(t, "a.txt", "x\nx\n", 0)
	requireText(t, e.call("grep", map[string]any{"pattern": "x"}), foundOf(1, 2)+"\n\na.txt\nLine 1: x\n\n("+golden("grep.spill.unsaved")+")")
	e.write(t, "b.txt", "", 1)
	requireText(t, e.call("glob", map[string]any{"pattern": "*"}), "b.txt\n\n"+golden("glob.showing", "shown", "1", "total", "2", "recovery", golden("glob.spill.unsaved")))
	require.NotEmpty(t, e.logs.FilterMessageSnippet("could not save").All())
}

func TestOldSpillFilesAreSweptAtStart(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, "state", "cordon", "spill")
	require.NoError(t, os.MkdirAll(dir, 0o700))
	old, fresh := filepath.Join(dir, "old.txt"), filepath.Join(dir, "fresh.txt")
	require.NoError(t, os.WriteFile(old, nil, 0o600))
	require.NoError(t, os.WriteFile(fresh, nil, 0o600))
	past := time.Now().Add(-spill.MaxAge - time.Minute)
	require.NoError(t, os.Chtimes(old, past, past))
	require.NoError(t, spill.New(dir, spill.Limits{MaxFileBytes: 1 << 20, QuotaBytes: 1 << 20}).Sweep(time.Now()))
	require.NoFileExists(t, old)
	require.FileExists(t, fresh)
}

func TestGrepOutput(t *testing.T) {
	e := newEnv(t, cfgWith(func(c *toolfssearch.Config) { c.GrepMaxLineBytes = 7 }), nil)
	e.write(t, "a.go", "package a\nconst x = 1\n\nconst y = 2\n", 2)
	e.write(t, "b.go", "const z = 3\r\n", 1)
	e.write(t, "u.txt", "aéaéaéaé\n\xffconst\n", 0)
	e.write(t, "bin.dat", "const\x00\n", 3)
	requireText(t, e.call("grep", map[string]any{"pattern": "const [xyz]", "include": "*.go"}), found(3)+"\n\na.go\nLine 2: const x"+golden("grep.line.truncated")+"\nLine 4: const y"+golden("grep.line.truncated")+"\n\nb.go\nLine 1: const z"+golden("grep.line.truncated"))
	requireText(t, e.call("grep", map[string]any{"pattern": "a(é|b)a"}), found(1)+"\n\nu.txt\nLine 1: aéaéa"+golden("grep.line.truncated"))
	requireText(t, e.call("grep", map[string]any{"pattern": "^.const$"}), found(1)+"\n\nu.txt\nLine 2: "+golden("grep.line.invalid_utf8"))
	requireText(t, e.call("grep", map[string]any{"pattern": "nothing here"}), golden("grep.none"))
	requireText(t, e.call("grep", map[string]any{"pattern": "(?i)PACKAGE"}), found(1)+"\n\na.go\nLine 1: package"+golden("grep.line.truncated"))
}

func TestVisitLimitFooter(t *testing.T) {
	e := newEnv(t, cfgWith(func(c *toolfssearch.Config) { c.MaxFilesVisited = 2 }), nil)
	e.write(t, "a.txt", "hit\n", 3)
	e.write(t, "b.txt", "hit\n", 2)
	e.write(t, "c.txt", "hit\n", 1)
	requireText(t, e.call("glob", map[string]any{"pattern": "*"}), "a.txt\nb.txt\n\n"+golden("search.stopped", "n", "2"))
	requireText(t, e.call("grep", map[string]any{"pattern": "hit"}), found(2)+"\n\na.txt\nLine 1: hit\n\nb.txt\nLine 1: hit\n\n"+golden("search.stopped", "n", "2"))
	requireText(t, e.call("glob", map[string]any{"pattern": "*.none"}), golden("glob.none")+"\n\n"+golden("search.stopped", "n", "2"))
}

// spillHeader is header as a grep spill file starts: written before the count is known, in a
// room padded with spaces.
func spillHeader(header string) string {
	return header + strings.Repeat(" ", len(found(math.MaxInt))-len(header))
}

func spillPathOf(t *testing.T, text, prefix string) string {
	t.Helper()
	require.True(t, strings.HasPrefix(text, prefix), text)
	m := regexp.MustCompile(`Full result stored at: (/[^ ]+\.txt)\. Use read with offset and limit on that path to see the rest\.\)$`).FindStringSubmatch(text)
	require.NotNil(t, m, text)
	return m[1]
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	return string(b)
}

func requireMode(t *testing.T, p string, mode os.FileMode) {
	t.Helper()
	st, err := os.Stat(p)
	require.NoError(t, err)
	require.Equal(t, mode, st.Mode().Perm())
}

// TestSkippedNote: entries a search could not read are counted in one line before the visit-limit
// footer; a file of /proc (never read) is one of them.
func TestSkippedNote(t *testing.T) {
	e := newEnv(t, nil, nil)
	status := "/proc/" + strconv.Itoa(os.Getpid()) + "/status"
	requireText(t, e.call("grep", map[string]any{"pattern": "Name:", "path": status}), golden("grep.none")+"\n\n("+golden("search.skipped.one")+")")
	require.Equal(t, "a.go\n\n("+golden("search.skipped.many", "n", "2")+")\n\n("+golden("search.partial.many", "n", "2")+")\n\n"+golden("search.stopped", "n", "9"),
		toolfssearch.RenderGlob(toolfssearch.GlobValue{Paths: []string{"a.go"}, Total: 1, Skipped: 2, PartialIgnore: 2, StoppedAfter: 9}))
	require.Equal(t, golden("glob.none")+"\n\n("+golden("search.partial.one")+")",
		toolfssearch.RenderGlob(toolfssearch.GlobValue{PartialIgnore: 1}))
	require.Equal(t, foundOf(1, 2)+"\n\na.go\nLine 1: x\n\n("+golden("grep.spill.unsaved")+")\n\n("+golden("search.skipped.one")+")",
		toolfssearch.RenderGrep(toolfssearch.GrepValue{Matches: []toolfssearch.GrepMatch{{Path: "a.go", Line: 1, Text: "x", ValidUTF8: true}}, Total: 2, Skipped: 1}))
}
