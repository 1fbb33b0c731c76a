// Package lsptest is the test kit of the LSP client's users: the fake language server
// (internal/lsp/testdata/fakels), built once per test binary.
//
//	var fakels string
//
//	func TestMain(m *testing.M) { lsptest.Main(m, &fakels) }
package lsptest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"go.uber.org/goleak"
)

// Main builds the fake language server into a temporary directory, sets *fakels to its path, runs
// the tests, and exits with a failure when they fail or leave a goroutine behind.
func Main(m *testing.M, fakels *string) {
	_, self, _, _ := runtime.Caller(0)
	src := filepath.Join(filepath.Dir(self), "..", "testdata", "fakels")
	dir, err := os.MkdirTemp("", "fakels")
	if err != nil {
		panic(err)
	}
	*fakels = filepath.Join(dir, "fakels")
	build := exec.Command("go", "build", "-o", *fakels, ".")
	build.Dir = src
	if out, err := build.CombinedOutput(); err != nil {
		panic(string(out))
	}
	code := m.Run()
	os.RemoveAll(dir)
	if code == 0 {
		if err := goleak.Find(); err != nil {
			println(err.Error())
			code = 1
		}
	}
	os.Exit(code)
}
