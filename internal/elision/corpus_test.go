package elision_test

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/cordon-dev/cordon/internal/elision"
)

// TestCorpusOfRealRewrites runs the placeholder rule (a placeholder line the old file did not
// have, with more than half of the old file's non-blank lines dropped) over every pair of
// consecutive versions of every file changed in the git history of $ELISION_CORPUS (a git
// directory or work tree; skipped when unset): each pair is a real whole-file rewrite, and the rule
// must refuse none of them. Set ELISION_CORPUS_MAX to bound the commits walked.
func TestCorpusOfRealRewrites(t *testing.T) {
	dir := os.Getenv("ELISION_CORPUS")
	if dir == "" {
		t.Skip("ELISION_CORPUS names no git repository")
	}
	max := os.Getenv("ELISION_CORPUS_MAX")
	if max == "" {
		max = "2000"
	}
	git := func(args ...string) []byte {
		out, err := exec.Command("git", append([]string{"--git-dir", dir}, args...)...).Output()
		if err != nil {
			t.Fatalf("git %v: %v", args, err)
		}
		return out
	}
	pairs, candidates, placeholders, refused := 0, 0, 0, 0
	for _, c := range strings.Fields(string(git("rev-list", "--no-merges", "--min-parents=1", "--max-count="+max, "HEAD"))) {
		for _, line := range strings.Split(strings.TrimSpace(string(git("diff-tree", "-r", "--no-renames", "--diff-filter=M", c+"^", c))), "\n") {
			f := strings.Fields(line)
			if len(f) < 6 {
				continue
			}
			name := f[5]
			old, cur := git("cat-file", "blob", f[2]), git("cat-file", "blob", f[3])
			if bytes.IndexByte(old, 0) >= 0 || bytes.IndexByte(cur, 0) >= 0 {
				continue
			}
			pairs++
			if !elision.Candidate(string(cur)) {
				continue
			}
			candidates++
			if l, _, ok := elision.Placeholder(name, string(cur), string(old)); ok {
				placeholders++
				t.Logf("%s %s: a placeholder-like line, not refused unless most of the file goes: %q", c[:10], name, l)
			}
			if l, n, ok := elision.Refuses(name, string(old), string(cur)); ok {
				refused++
				t.Errorf("%s %s: refused at line %d %q", c[:10], name, n, l)
			}
		}
	}
	t.Logf("%d rewrites (consecutive versions of a file), %d with a candidate word, %d with a placeholder-like line, %d refused", pairs, candidates, placeholders, refused)
}
