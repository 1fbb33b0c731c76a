package search_test

import (
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cordon-dev/cordon/internal/search"
)

// The corpus: a fixed tree and ignore rules drawn at random from a vocabulary that exercises
// base-name and anchored rules, wildcards, "**", classes, escapes, negation and directory rules.
var corpusFiles = []string{
	"a.txt", "b.log", "keep.log", ".hidden", "#hash", "sp ace", "top.c", "x.md", "ab.md",
	"a/a.txt", "a/b.log", "a/x.md", "a/b/c.txt", "a/b/deep.log", "a/b/keep.log", "a/b/x/y.c",
	"build/out.o", "build/keep.txt", "build/sub/z.o", "sub/a.txt", "sub/top.c", "sub/deep/a.txt",
	"sub/deep/q.log", "docs/x.md", "docs/build/y.md", "foo/bar/baz.txt", "foo/baz.txt", "x/foo/bar",
	"[x]", "qa", "qb", "q1", "tmp1", "tmp2.txt", "x.tar.gz", "a/tmp3", "sub/deep/x.tar.gz",
}

var corpusRules = []string{
	"*.log", "!keep.log", "build/", "/top.c", "sub/*.c", "**/x.md", "a/**/c.txt", "[ab]*", "?.md",
	"!a.txt", "deep", "deep/", "/sub", "sub/deep/", "foo/**", "!foo/baz.txt", "\\#hash", "sp\\ ace",
	"sp ace  ", "q[!a]", "q[0-9]", "q[[:digit:]]", "*.o", "!build/keep.txt", "docs/**/*.md", "**/bar",
	"x", "x/", "/x/", "*", "!*.txt", "!/docs", "a/b", "b", "\\[x]", "# comment", "", "/*.md",
	"**/b/**", "a/*/c.txt", "!**/deep/*", "*.txt/", "foo/*", "bar/",
	"**/*.log", "*.tar.gz", "tmp*", "!tmp1*", "k*", "**/keep.log", "a/b/*.log", "sub/deep/*",
	"**/deep/", "/a/b/", "!x.tar.gz", "*.gz", "!**/tmp*", "sub/deep/*.gz", "q*", "!qa",
}

func TestIgnoreRulesAgreeWithGit(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	home := isolate(t)
	rng := rand.New(rand.NewSource(13))
	levels := []string{"", "a", "a/b", "sub", "build", "docs"}
	// Short files first, then long ones (every kind of rule, the same key several times).
	for iter := 0; iter < 230; iter++ {
		perFile := 5
		if iter >= 150 {
			perFile = 30
		}
		files := map[string]string{}
		for _, f := range corpusFiles {
			files[f] = "x\n"
		}
		for _, lv := range levels {
			if rng.Intn(3) == 0 {
				continue
			}
			var lines []string
			for n := rng.Intn(perFile) + 1; n > 0; n-- {
				lines = append(lines, corpusRules[rng.Intn(len(corpusRules))])
			}
			files[filepath.Join(lv, ".gitignore")] = strings.Join(lines, "\n") + "\n"
		}
		root := tree(t, files)
		cmd := exec.Command(git, "init", "-q")
		cmd.Dir = root
		mustNoErr(t, cmd.Run())
		if rng.Intn(4) == 0 {
			rule := corpusRules[rng.Intn(len(corpusRules))]
			mustNoErr(t, os.WriteFile(filepath.Join(root, ".git", "info", "exclude"), []byte(rule+"\n"), 0o644))
		}
		if rng.Intn(4) == 0 {
			rule := corpusRules[rng.Intn(len(corpusRules))]
			mustNoErr(t, os.MkdirAll(filepath.Join(home, ".config", "git"), 0o755))
			mustNoErr(t, os.WriteFile(filepath.Join(home, ".config", "git", "ignore"), []byte(rule+"\n"), 0o644))
		} else {
			os.Remove(filepath.Join(home, ".config", "git", "ignore"))
		}
		cmd = exec.Command(git, "ls-files", "--others", "--exclude-standard", "-z")
		cmd.Dir = root
		out, err := cmd.Output()
		mustNoErr(t, err)
		want := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
		if len(out) == 0 {
			want = nil
		}
		slices.Sort(want)
		got := files2(t, root)
		if !slices.Equal(got, want) {
			var rules []string
			for _, lv := range levels {
				if c, ok := files[filepath.Join(lv, ".gitignore")]; ok {
					rules = append(rules, lv+"/.gitignore: "+strings.ReplaceAll(c, "\n", " | "))
				}
			}
			t.Fatalf("iteration %d:\n%s\ngot  %q\nwant %q", iter, strings.Join(rules, "\n"), got, want)
		}
	}
}

func files2(t *testing.T, root string) []string {
	return files(t, root, "", search.Options{})
}
