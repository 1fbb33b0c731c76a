package fstest_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/fstest"
	"github.com/cordon-dev/cordon/plugins/fslocal"
)

// violations runs the kit on fs-local wrapped by wrap and returns the violations by check.
func violations(t *testing.T, wrap func(fs.FileSystem) fs.FileSystem) map[string][]string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	p, err := fslocal.New(fslocal.Config{Cwd: root}, nil)
	require.NoError(t, err)
	err = fstest.CheckFileSystem(t.Context(), wrap(p), root)
	if err == nil {
		return nil
	}
	var r *fstest.Report
	require.ErrorAs(t, err, &r)
	require.NotEmpty(t, r.Violations)
	t.Log(err)
	out := map[string][]string{}
	for _, v := range r.Violations {
		require.Contains(t, fstest.Checks(), v.Check)
		out[v.Check] = append(out[v.Check], v.Message)
	}
	return out
}

func checkNames(m map[string][]string) []string {
	var names []string
	for k := range m {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

// anyContains reports whether one of msgs contains sub.
func anyContains(msgs []string, sub string) bool {
	return slices.ContainsFunc(msgs, func(m string) bool { return strings.Contains(m, sub) })
}

func TestFsLocalPasses(t *testing.T) {
	assert.Empty(t, violations(t, func(p fs.FileSystem) fs.FileSystem { return p }))
	assert.Empty(t, violations(t, func(p fs.FileSystem) fs.FileSystem { return passThrough{p} }),
		"a wrapper without a bug passes too (its optional checks skipped)")
}

// TestFileSystem runs the same checks as subtests; a provider without fs.Searcher skips those.
func TestTestFileSystem(t *testing.T) {
	fstest.TestFileSystem(t, func(t *testing.T, root string) fs.FileSystem {
		p, err := fslocal.New(fslocal.Config{Cwd: root}, nil)
		require.NoError(t, err)
		return passThrough{p}
	})
}

func TestCatchesVersionsThatDoNotChange(t *testing.T) {
	got := violations(t, func(p fs.FileSystem) fs.FileSystem { return sizeVersion{p} })
	require.Subset(t, checkNames(got), []string{"WriteText/update", "WriteText/replace-if-version"})
	assert.True(t, anyContains(got["WriteText/update"], "the version stayed"), got["WriteText/update"])
	assert.True(t, anyContains(got["WriteText/replace-if-version"], `ReplaceIfVersion(an older version)): got no error; want FS_STALE_VERSION`), got["WriteText/replace-if-version"])
	assert.NotContains(t, got, "Resolve/identity", "only version checks fail")
}

func TestCatchesADroppedBOM(t *testing.T) {
	got := violations(t, func(p fs.FileSystem) fs.FileSystem { return dropsBOM{p} })
	assert.Equal(t, []string{"EditText/bom", "WriteText/bom", "WriteText/create"}, checkNames(got))
	assert.True(t, anyContains(got["EditText/bom"], `body.txt holds "head\nBODY\n"; want "\ufeffhead\nBODY\n"`), got["EditText/bom"])
}

func TestCatchesACharsetNamedForUTF8(t *testing.T) {
	got := violations(t, func(p fs.FileSystem) fs.FileSystem { return namesUTF8{p} })
	require.Contains(t, checkNames(got), "ReadText/text")
	assert.True(t, anyContains(got["ReadText/text"], `ReadText(lf).Charset = "utf-8"; want "" (the text is UTF-8)`), got["ReadText/text"])
}

func TestCatchesIgnoredIntents(t *testing.T) {
	got := violations(t, func(p fs.FileSystem) fs.FileSystem { return ignoresIntent{p} })
	assert.Equal(t, []string{"WriteText/concurrent-guards", "WriteText/create-if-absent", "WriteText/replace-if-version"}, checkNames(got))
	assert.True(t, anyContains(got["WriteText/concurrent-guards"], "8 racers: 8 succeeded"), got["WriteText/concurrent-guards"])
	assert.True(t, anyContains(got["WriteText/create-if-absent"], "got no error; want FS_NOT_OBSERVED"), got["WriteText/create-if-absent"])
}

func TestCatchesErrorsWithoutCodes(t *testing.T) {
	got := violations(t, func(p fs.FileSystem) fs.FileSystem { return plainErrors{p} })
	require.Subset(t, checkNames(got), []string{"Resolve/blank", "ReadText/not-text", "WriteText/create-if-absent", "EditText/matching", "Cancel/every-primitive"})
	assert.True(t, anyContains(got["Resolve/blank"], `got an error that is not an *fs.Error (*errors.errorString "file_path must be a non-empty string"); want FS_NOT_FOUND`), got["Resolve/blank"])
	assert.NotContains(t, got, "Stat/kinds", "Stat keeps its codes")
}

func TestCatchesIgnoredCancellation(t *testing.T) {
	got := violations(t, func(p fs.FileSystem) fs.FileSystem { return ignoresContext{p} })
	assert.Equal(t, []string{"Cancel/every-primitive", "Cancel/mid-stream"}, checkNames(got))
	assert.True(t, anyContains(got["Cancel/every-primitive"], `WriteText(new.txt, nil) with a cancelled context: got no error; want FS_ABORTED "write aborted"`), got["Cancel/every-primitive"])
	assert.True(t, anyContains(got["Cancel/mid-stream"], "more chunk(s) and ended without error"), got["Cancel/mid-stream"])
}

func TestCatchesANaiveEdit(t *testing.T) {
	got := violations(t, func(p fs.FileSystem) fs.FileSystem { return naiveEdit{p} })
	require.Subset(t, checkNames(got), []string{"EditText/matching", "EditText/line-endings", "EditText/guards", "EditText/not-text"})
	assert.True(t, anyContains(got["EditText/matching"], `EditText(m.txt, "x" -> "y") of "x x x": got no error; want FS_AMBIGUOUS_EDIT "old_string matched 3 times in`), got["EditText/matching"])
	for name := range got {
		assert.True(t, strings.HasPrefix(name, "EditText/") || name == "Cancel/every-primitive", "%s: only edits fail", name)
	}
}

func TestCatchesKeysThatIgnoreSymlinks(t *testing.T) {
	got := violations(t, func(p fs.FileSystem) fs.FileSystem { return lexicalKeys{p} })
	require.Subset(t, checkNames(got), []string{"Resolve/identity", "Resolve/process-path-and-url", "WriteText/symlink", "EditText/symlink"})
	assert.True(t, anyContains(got["WriteText/symlink"], "link.txt is no longer a link to target.txt"), got["WriteText/symlink"])
}

func TestCatchesAStreamThatDiffersFromReadText(t *testing.T) {
	got := violations(t, func(p fs.FileSystem) fs.FileSystem { return streamNormalizes{p} })
	assert.Equal(t, []string{"ReadText/long-stream", "ReadText/text"}, checkNames(got))
	assert.True(t, anyContains(got["ReadText/text"], `StreamText(crlf) = "a\nb\n"; want "a\r\nb\r\n"`), got["ReadText/text"])
}

func TestCatchesAReadThatBlocksOnAFIFO(t *testing.T) {
	defer fstest.SetBlockLimit(200 * time.Millisecond)()
	got := violations(t, func(p fs.FileSystem) fs.FileSystem { return openRead{p} })
	assert.True(t, anyContains(got["ReadText/not-a-regular-file"], `ReadText(fifo) was still blocked after 200ms; want FS_NOT_REGULAR_FILE`), got["ReadText/not-a-regular-file"])
	assert.True(t, anyContains(got["ReadText/text"], `ReadText(bom) = "\ufefftext\n"; want "text\n"`), got["ReadText/text"])
}

func TestCatchesSloppyPathsAndOrder(t *testing.T) {
	got := violations(t, func(p fs.FileSystem) fs.FileSystem { return sloppy{p} })
	assert.Equal(t, []string{"ListDir/entries", "Resolve/contains", "Resolve/process-path-and-url"}, checkNames(got))
	assert.True(t, anyContains(got["Resolve/contains"], "Contains(a, ab) = true; want false"), got["Resolve/contains"])
	assert.True(t, anyContains(got["Resolve/process-path-and-url"], `parses to scheme "file" host "" path`), got["Resolve/process-path-and-url"])
	assert.True(t, anyContains(got["ListDir/entries"], `ListDir(list)[0].Name = "zeta.md"; want "alpha.md" (name order)`), got["ListDir/entries"])
}

// A provider that panics fails the checks that reach the panic, and the others still run.
func TestReportsAPanicAndGoesOn(t *testing.T) {
	got := violations(t, func(p fs.FileSystem) fs.FileSystem { return panicsListing{p} })
	require.Contains(t, got, "ListDir/entries")
	assert.True(t, anyContains(got["ListDir/entries"], "panicked: fstest: a provider bug"), got["ListDir/entries"])
	assert.NotContains(t, got, "WriteText/create")
}

func TestReportError(t *testing.T) {
	r := &fstest.Report{Violations: []fstest.Violation{{Check: "WriteText/bom", Message: "m1"}, {Check: "EditText/bom", Message: "m2"}}}
	assert.Equal(t, "fstest: 2 violation(s) of the fs seam's contract:\n\tWriteText/bom: m1\n\tEditText/bom: m2", r.Error())
}

func TestCatchesAStatTextThatReadsAtItsBound(t *testing.T) {
	got := violations(t, func(p fs.FileSystem) fs.FileSystem { return statTextAtBound{p} })
	assert.Equal(t, []string{"ReadText/stat-text"}, checkNames(got))
	assert.True(t, anyContains(got["ReadText/stat-text"], "StatText(crlf, below 6) read a 6-byte file; want no text at the bound"), got["ReadText/stat-text"])
}
