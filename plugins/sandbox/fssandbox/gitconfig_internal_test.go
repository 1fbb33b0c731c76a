package fssandbox

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
)

// gitConfigCorpus is git config syntax at its corners; every entry is also checked against git
// itself (TestParseGitConfigAgreesWithGit) and seeds FuzzParseGitConfig.
var gitConfigCorpus = []string{
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
}

// TestParseGitConfig pins the parse of a few cases by value. A file git refuses is refused, and
// its other lines are still read (what they name is protected; git runs none of it).
func TestParseGitConfig(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []configEntry
		bad  bool
	}{
		{in: "[Core]\n\tHooksPath = .husky\n", want: []configEntry{{section: "core", key: "hookspath", value: ".husky", hasValue: true}}},
		{in: "[diff \"Lock\"] textconv = \"./my conv\" --x # c\n", want: []configEntry{{section: "diff", subsection: "Lock", hasSub: true, key: "textconv", value: "./my conv --x", hasValue: true}}},
		{in: "[diff.Legacy]\nbare\n", want: []configEntry{{section: "diff", subsection: "legacy", hasSub: true, key: "bare"}}},
		{in: "[a]\nk = one \\\n  two\n", want: []configEntry{{section: "a", key: "k", value: "one   two", hasValue: true}}},
		{in: "[a]\nk = \"q\\\"\\\\\" \\t\n", want: []configEntry{{section: "a", key: "k", value: "q\"\\ \t", hasValue: true}}},
		{in: "[a]\nk = v\nl = \"open\n", want: []configEntry{{section: "a", key: "k", value: "v", hasValue: true}}, bad: true},
		{in: "[a\n[core]\nk = bad \\q escape\n\thooksPath = .husky\n", bad: true,
			want: []configEntry{{section: "core", key: "hookspath", value: ".husky", hasValue: true}}},
		{in: "k = before any section\n[a]\nl = v\n", want: []configEntry{{key: "k", value: "before any section", hasValue: true}, {section: "a", key: "l", value: "v", hasValue: true}}},
	} {
		got, err := parseGitConfig([]byte(tc.in))
		assert.Equal(t, tc.want, got, "%q", tc.in)
		if tc.bad {
			assert.ErrorIs(t, err, errConfigSyntax, "%q", tc.in)
		} else {
			assert.NoError(t, err, "%q", tc.in)
		}
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
func listEntries(entries []configEntry) string {
	var b strings.Builder
	for _, e := range entries {
		b.WriteString(settingName(e))
		if e.hasValue {
			b.WriteString("\n" + e.value)
		}
		b.WriteByte(0)
	}
	return b.String()
}

// agreesWithGit checks parseGitConfig against git on data: a file git accepts has the same
// variables, in order, and one git refuses is refused.
func agreesWithGit(t testing.TB, data []byte) {
	t.Helper()
	want, ok := gitList(t, data)
	got, err := parseGitConfig(data)
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

// TestParseGitConfigAgreesWithGit: on every corpus entry, the parser sees what git sees.
func TestParseGitConfigAgreesWithGit(t *testing.T) {
	requireGit(t)
	for _, c := range gitConfigCorpus {
		agreesWithGit(t, []byte(c))
	}
}

// FuzzParseGitConfig: any input parses without panic into well-formed names; with git installed
// the result is also what git reads (go test -fuzz FuzzParseGitConfig).
func FuzzParseGitConfig(f *testing.F) {
	for _, c := range gitConfigCorpus {
		f.Add([]byte(c))
	}
	_, err := exec.LookPath("git")
	withGit := err == nil
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, _ := parseGitConfig(data)
		for _, e := range entries {
			require.Equal(t, strings.ToLower(e.section), e.section)
			require.NotEmpty(t, e.key)
			require.True(t, isASCIIAlpha(e.key[0]), "key %q", e.key)
			require.Equal(t, strings.ToLower(e.key), e.key)
		}
		if withGit && !bytes.ContainsRune(data, 0) {
			agreesWithGit(t, data)
		}
	})
}

func TestCommandPaths(t *testing.T) {
	for in, want := range map[string][]string{
		"vim":                                 nil,
		"./bin/fmt --check":                   {"./bin/fmt"},
		`!f() { "./tools/my x.sh" "$@"; }; f`: {"./tools/my x.sh", "./tools/my"},
		"sh -c 'scripts/a.sh; echo'":          {"scripts/a.sh; echo", "scripts/a.sh"},
		"env FOO=./cfg/x run":                 {"FOO=./cfg/x", "./cfg/x"},
		"a|b/c>d/e":                           {"b/c", "d/e"},
		`x\ y/z`:                              {"x y/z", "y/z"},
	} {
		assert.Equal(t, want, commandPaths(in), "%q", in)
	}
}

func TestExpandPath(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{".husky", "/w/.husky", true},
		{"/abs/hooks", "/abs/hooks", true},
		{"~/hooks", "/h/hooks", true},
		{"~", "/h", true},
		{"$HOME/x", "/h/x", true},
		{"~other/x", "", false},
		{"", "", false},
	} {
		got, ok := expandPath(tc.in, "/w", "/h")
		assert.Equal(t, tc.ok, ok, tc.in)
		assert.Equal(t, tc.want, got, tc.in)
	}
}
