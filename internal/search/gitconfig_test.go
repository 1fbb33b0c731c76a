package search_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestGlobalExcludesFileReadAsGitReadsConfig: core.excludesFile is found in ~/.gitconfig where git
// finds it, including the corners a line-by-line reading gets wrong (a continuation line, a
// continuation that swallows a "[core]" header, a byte order mark, white space inside the value).
// Each excludes file hides one name; with git installed, each case is also held to
// `git ls-files --others --exclude-standard`.
func TestGlobalExcludesFileReadAsGitReadsConfig(t *testing.T) {
	home := isolate(t)
	excludes := map[string]string{
		"ex-a":               "a.txt\n",
		"ex-b":               "b.txt\n",
		"ex d":               "d.txt\n",
		".config/git/ignore": "c.txt\n",
		"ex\\":               "e.txt\n",
	}
	for p, c := range excludes {
		mustNoErr(t, os.MkdirAll(filepath.Dir(filepath.Join(home, p)), 0o755))
		mustNoErr(t, os.WriteFile(filepath.Join(home, p), []byte(c), 0o644))
	}
	all := []string{"a.txt", "b.txt", "c.txt", "d.txt", "e.txt"}
	git, gitErr := exec.LookPath("git")
	for _, tc := range []struct{ config, hidden string }{
		{"[core]\n\texcludesFile = ~/ex-a\n", "a.txt"},
		{"[core]\n\texcludesFile = ~/ex-a\n[user]\n\tname = x\n[Core]\n\tExcludesFile = ~/ex-b\n", "b.txt"},
		{"[core] # comment\n\texcludesFile = \"~/ex-b\" ; comment\n", "b.txt"},
		{"[core \"x\"]\n\texcludesFile = ~/ex-a\n", "c.txt"},
		{"[core]\n\texcludesFile = ~/ex\\\n-b\n", "b.txt"},
		{"[alias]\n\tx = y \\\n[core]\n\texcludesFile = ~/ex-a\n", "c.txt"},
		{"\xef\xbb\xbf[core]\n\texcludesFile = ~/ex-b\n", "b.txt"},
		{"[core]\n\texcludesFile = ~/ex\td\n", "d.txt"},
	} {
		mustNoErr(t, os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(tc.config), 0o644))
		files := map[string]string{".git/": ""}
		for _, f := range all {
			files[f] = "x"
		}
		root := tree(t, files)
		var want []string
		for _, f := range all {
			if f != tc.hidden {
				want = append(want, f)
			}
		}
		if got := files2(t, root); !slices.Equal(got, want) {
			t.Errorf("%q: got %q, want %q", tc.config, got, want)
		}
		if gitErr != nil {
			continue
		}
		cmd := exec.Command(git, "init", "-q")
		cmd.Dir = root
		mustNoErr(t, cmd.Run())
		cmd = exec.Command(git, "ls-files", "--others", "--exclude-standard", "-z")
		cmd.Dir = root
		out, err := cmd.Output()
		mustNoErr(t, err)
		if byGit := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00"); !slices.Equal(byGit, want) {
			t.Errorf("%q: git lists %q, want %q", tc.config, byGit, want)
		}
	}
}
