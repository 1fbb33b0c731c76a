package diagnostics_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/cordon-dev/cordon/plugins/diagnostics"
)

// realServers puts where the project's install step puts the servers (scripts/install-language-servers:
// the Go bin directory, scripts/lsp/node_modules/.bin) before PATH, and skips the test when
// program is missing, unless CI is set: there the servers are installed and the test must run.
func realServers(t testing.TB, program string) {
	t.Helper()
	gobin, _ := exec.Command("go", "env", "GOPATH").Output()
	abs, _ := filepath.Abs("../../scripts/lsp/node_modules/.bin")
	t.Setenv("PATH", strings.Join([]string{filepath.Join(strings.TrimSpace(string(gobin)), "bin"), abs, os.Getenv("PATH")}, string(os.PathListSeparator)))
	if _, err := exec.LookPath(program); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is not installed (scripts/install-language-servers installs it)", program)
		}
		t.Skipf("%s is not installed (scripts/install-language-servers installs it)", program)
	}
}

// realEnv is a workspace with the given files and lsp-diagnostics with the built-in servers,
// waiting long enough for a cold server on a loaded machine (the timing is a benchmark's).
func realEnv(t testing.TB, files map[string]string) *env {
	cfg := diagnostics.DefaultConfig()
	cfg.Wait = dur("3m")
	cfg.CheckTimeout = dur("4m")
	e := newEnv(t, &cfg)
	for name, text := range files {
		e.put(t, name, text)
	}
	return e
}

type language struct {
	program string
	files   map[string]string // the workspace: a.* has an old problem, b.* (its sibling) another
	file    string            // the file the edits change
	// break_ introduces a type error on line line; the want line is that error
	breakOld, breakNew string
	want               string
	newFile, newText   string // a new file whose text has one error
	newWant            string
}

func languages() map[string]language {
	return map[string]language{
		"go": {
			program: "gopls",
			files: map[string]string{
				"go.mod": "module example.com/p\n\ngo 1.22\n",
				"a.go":   "package p\n\nfunc F(x int) int { return x }\n\nvar Old int = \"old\"\n",
				"b.go":   "package p\n\nvar Sibling string = 1\n",
			},
			file:     "a.go",
			breakOld: "func F", breakNew: "var New string = F(1)\n\nfunc F",
			want:    "a.go:3:18: cannot use F(1) (value of type int) as string value in variable declaration (compiler)",
			newFile: "c.go", newText: "package p\n\nvar C bool = 2\n",
			newWant: "c.go:3:14: cannot use 2 (untyped int constant) as bool value in variable declaration (compiler)",
		},
		"python": {
			program: "pyright-langserver",
			files: map[string]string{
				"pyproject.toml": "[project]\nname = \"p\"\n",
				"a.py":           "def f(x: int) -> int:\n    return x\n\nold: str = 1\n",
				"b.py":           "sibling: int = \"s\"\n",
			},
			file:     "a.py",
			breakOld: "    return x\n", breakNew: "    return x\n\nnew: str = f(1)\n",
			want:    `a.py:4:12: Type "int" is not assignable to declared type "str" "int" is not assignable to "str" (Pyright)`,
			newFile: "c.py", newText: "c: bytes = 2\n",
			newWant: `c.py:1:12: Type "Literal[2]" is not assignable to declared type "bytes" "Literal[2]" is not assignable to "bytes" (Pyright)`,
		},
		"typescript": {
			program: "typescript-language-server",
			files: map[string]string{
				"tsconfig.json": "{\"compilerOptions\": {\"strict\": true}}\n",
				"a.ts":          "export function f(x: number): number { return x }\n\nexport const old: string = 1\n",
				"b.ts":          "export const sibling: number = \"s\"\n",
			},
			file:     "a.ts",
			breakOld: "export function f", breakNew: "export const fresh: string = f(1)\n\nexport function f",
			want:    "a.ts:1:14: Type 'number' is not assignable to type 'string'. (typescript)",
			newFile: "c.ts", newText: "export const c: boolean = 2\n",
			newWant: "c.ts:1:14: Type 'number' is not assignable to type 'boolean'. (typescript)",
		},
	}
}

// For each language, with the project's own server: an edit that introduces a type error gets
// exactly that error at its line; the problems already there (in the file, in its sibling) are
// not repeated; the edit that fixes it reports the fix; a new file with an error is reported.
func TestRealServers(t *testing.T) {
	for name, l := range languages() {
		t.Run(name, func(t *testing.T) {
			realServers(t, l.program)
			e := realEnv(t, l.files)
			p := e.path(l.file)
			e.ok(t, "read", args{"file_path": p})
			r := e.ok(t, "edit", args{"file_path": p, "old_string": l.breakOld, "new_string": l.breakNew})
			head := func(path, server, rest string) string {
				return "Diagnostics (" + server + ") of " + path + ": " + rest
			}
			assert.Equal(t, lines(head(p, l.program, "1 new problem from this change (1 error, 0 warnings):"), e.dir+"/"+l.want), diagnosticsOf(t, r))

			r = e.ok(t, "edit", args{"file_path": p, "old_string": l.breakNew, "new_string": l.breakOld})
			assert.Equal(t, lines(head(p, l.program, "no new problems from this change."), "Fixed by this change: 1 problem."), diagnosticsOf(t, r))

			np := e.path(l.newFile)
			r = e.ok(t, "write", args{"file_path": np, "content": l.newText})
			assert.Equal(t, lines(head(np, l.program, "1 new problem from this change (1 error, 0 warnings):"), e.dir+"/"+l.newWant), diagnosticsOf(t, r))
		})
	}
}

// A change that breaks another file the server reports on (gopls: the package's files) names the
// new problem there too, when Cordon has checked that file before.
func TestRealDependentFile(t *testing.T) {
	realServers(t, "gopls")
	e := realEnv(t, map[string]string{
		"go.mod": "module example.com/p\n\ngo 1.22\n",
		"a.go":   "package p\n\nfunc F(x int) int { return x }\n",
		"b.go":   "package p\n\nvar Old int = \"old\"\n\nvar G = F(1)\n",
	})
	e.ok(t, "read", args{"file_path": e.path("b.go")})
	e.ok(t, "edit", args{"file_path": e.path("b.go"), "old_string": "var G", "new_string": "var H"})
	e.ok(t, "read", args{"file_path": e.path("a.go")})
	r := e.ok(t, "edit", args{"file_path": e.path("a.go"), "old_string": "F(x int)", "new_string": "F(x, y int)"})
	assert.Equal(t, lines(
		"Diagnostics (gopls) of "+e.path("a.go")+": 1 new problem from this change (1 error, 0 warnings):",
		e.path("b.go")+":5:12: not enough arguments in call to F have (number) want (int, int) (compiler)",
	), diagnosticsOf(t, r))
}
