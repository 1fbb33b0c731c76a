package gitconfig_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/gitconfig"
)

// corpus is git config syntax at its corners; every entry is also checked against git
// itself (TestParseAgreesWithGit) and seeds FuzzParse.
var corpus = []string{
	"[core]\n\thooksPath = .husky\n",
	"[Core]\n\tHooksPath=.husky\n",
	"[core] hooksPath = x\n",
	"[core]\n\tbare\n\tsshCommand = ssh -i \"/w s/key\" -F /dev/null\n",
	"[diff \"Lock\"]\n\ttextconv = ./bin/conv\n[diff.Legacy]\n\tcommand = x\n",
	"[includeIf \"gitdir:~/work/\"]\n\tpath = ../shared.gitconfig\n",
	"[a \"sub \\\"q\\\" \\\\ \\x\"]\n\tk = v\n",
	"[a]\n\tk = \"  spaced  \"  trailing   \n",
	"[a]\n\tk = one \\\n  two\n",
	"[a]\n\tk = x ; comment\n\tl = \"y # not a comment\" # comment\n",
	"[a]\n\tk = tab\\there\\nnewline\\bback\n",
	"[a]\r\n\tk = crlf\r\n",
	"\xef\xbb\xbf[a]\n\tk = bom\n",
	"# only a comment\n; and another\n",
	"[a]\n\tk = \"unterminated\n",
	"[a]\n\tk = bad \\q escape\n",
	"[a\n",
	"[]\n",
	"[a]\n\t9key = v\n",
	"[a]\n\tk-1 = v\n\tk_2 = v\n",
	"[a]\n\tk\n\tl =\n\tm = \n",
	"[a.b.C]\n\tk = v\n",
	"[a.b \"C\"]\n\tk = v\n",
	"[a \"x\"] k = v\n",
	"[a]\n\tk = v\\",
	"[a]\n\tk = multiple   inner   spaces\n",
	"[a]\n\tk = a\"b\"c\n",
	"[a]k=v\n[b]l=w",
	"[a \"\"]\n\tk = empty sub\n",
	"[a]\n\tk = \"x\"\"y\"\n",
	"[a]\n\tk = \\\"\n",
	"[a] ; comment\n\tk = v\n",
	"[a]\n\tk = v\r\n",
	"[a]\n\tk = x\ry\n",
	"[a]\n\tk\t=\tv\n",
	"[a]\n\tk #c\n",
	"[.]\nk=v\n",
	"[.a]\nk=v\n",
	"[a.]\nk=v\n",
	"[. \"x\"]\nk=v\n",
	"[ \"x\"]\nk=v\n",
	"[a]\n\tk = tab\tinside\n",
	"[a]\n\tk = x \\\n[core]\n\tl = y\n",
}

// TestParse pins the parse of a few cases by value. A file git refuses is refused, and
// its other lines are still read.
func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []gitconfig.Entry
		bad  bool
	}{
		{in: "[Core]\n\tHooksPath = .husky\n", want: []gitconfig.Entry{{Section: "core", Key: "hookspath", Value: ".husky", HasValue: true}}},
		{in: "[diff \"Lock\"] textconv = \"./my conv\" --x # c\n", want: []gitconfig.Entry{{Section: "diff", Subsection: "Lock", HasSub: true, Key: "textconv", Value: "./my conv --x", HasValue: true}}},
		{in: "[diff.Legacy]\nbare\n", want: []gitconfig.Entry{{Section: "diff", Subsection: "legacy", HasSub: true, Key: "bare"}}},
		{in: "[a]\nk = one \\\n  two\n", want: []gitconfig.Entry{{Section: "a", Key: "k", Value: "one   two", HasValue: true}}},
		{in: "[a]\nk = \"q\\\"\\\\\" \\t\n", want: []gitconfig.Entry{{Section: "a", Key: "k", Value: "q\"\\ \t", HasValue: true}}},
		{in: "[a]\nk = v\nl = \"open\n", want: []gitconfig.Entry{{Section: "a", Key: "k", Value: "v", HasValue: true}}, bad: true},
		{in: "[a\n[core]\nk = bad \\q escape\n\thooksPath = .husky\n", bad: true,
			want: []gitconfig.Entry{{Section: "core", Key: "hookspath", Value: ".husky", HasValue: true}}},
		{in: "k = before any section\n[a]\nl = v\n", want: []gitconfig.Entry{{Key: "k", Value: "before any section", HasValue: true}, {Section: "a", Key: "l", Value: "v", HasValue: true}}},
	} {
		got, err := gitconfig.Parse([]byte(tc.in))
		assert.Equal(t, tc.want, got, "%q", tc.in)
		if tc.bad {
			assert.ErrorIs(t, err, gitconfig.ErrSyntax, "%q", tc.in)
		} else {
			assert.NoError(t, err, "%q", tc.in)
		}
	}
}

func TestEntryName(t *testing.T) {
	for want, e := range map[string]gitconfig.Entry{
		"core.hookspath":     {Section: "core", Key: "hookspath"},
		"diff.Lock.textconv": {Section: "diff", Subsection: "Lock", HasSub: true, Key: "textconv"},
		"a..k":               {Section: "a", HasSub: true, Key: "k"},
		"k":                  {Key: "k"},
		".x.k":               {Subsection: "x", HasSub: true, Key: "k"},
	} {
		assert.Equal(t, want, e.Name())
	}
}

// gitList returns what `git config --file f --list -z` prints for data, in the shape of
// listEntries, and whether git accepted the file.
func gitList(t testing.TB, data []byte) (string, bool) {
	t.Helper()
	f := filepath.Join(t.TempDir(), "config")
	require.NoError(t, os.WriteFile(f, data, 0o600))
	cmd := exec.Command("git", "config", "--no-includes", "--file", f, "--list", "-z")
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	var out bytes.Buffer
	cmd.Stdout = &out
	err := cmd.Run()
	if err != nil {
		var ee *exec.ExitError
		require.True(t, errors.As(err, &ee), "git config: %v", err)
		return "", false
	}
	return out.String(), true
}

// listEntries prints entries as `git config --list -z` does.
func listEntries(entries []gitconfig.Entry) string {
	var b strings.Builder
	for _, e := range entries {
		b.WriteString(e.Name())
		if e.HasValue {
			b.WriteString("\n" + e.Value)
		}
		b.WriteByte(0)
	}
	return b.String()
}

// agreesWithGit checks Parse against git on data: a file git accepts has the same
// variables, in order, and one git refuses is refused.
func agreesWithGit(t testing.TB, data []byte) {
	t.Helper()
	want, ok := gitList(t, data)
	got, err := gitconfig.Parse(data)
	if !ok {
		assert.Error(t, err, "git refuses %q", data)
		return
	}
	assert.NoError(t, err, "git accepts %q", data)
	assert.Equal(t, want, listEntries(got), "%q", data)
}

func requireGit(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
}

// TestParseAgreesWithGit: on every corpus entry, the parser sees what git sees.
func TestParseAgreesWithGit(t *testing.T) {
	requireGit(t)
	for _, c := range corpus {
		agreesWithGit(t, []byte(c))
	}
}

// FuzzParse: any input parses without panic into well-formed names; with git installed
// the result is also what git reads (go test -fuzz FuzzParse ./internal/gitconfig).
func FuzzParse(f *testing.F) {
	for _, c := range corpus {
		f.Add([]byte(c))
	}
	_, err := exec.LookPath("git")
	withGit := err == nil
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, _ := gitconfig.Parse(data)
		for _, e := range entries {
			require.Equal(t, strings.ToLower(e.Section), e.Section)
			require.NotEmpty(t, e.Key)
			require.True(t, e.Key[0] >= 'a' && e.Key[0] <= 'z', "key %q", e.Key)
			require.Equal(t, strings.ToLower(e.Key), e.Key)
		}
		if withGit && !bytes.ContainsRune(data, 0) {
			agreesWithGit(t, data)
		}
	})
}
