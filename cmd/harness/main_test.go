package main_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// harnessBin is the binary built once for the subprocess tests.
var harnessBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "harness-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	harnessBin = filepath.Join(dir, "harness")
	// The default composition's attachment store lives under the user's state directory: keep the
	// tests' images in the temporary directory (the subprocesses inherit the environment).
	if err := os.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// -buildvcs=auto: stamp the checkout's version (serverInfo.version) whatever GOFLAGS says.
	build := exec.Command("go", "build", "-buildvcs=auto", "-o", harnessBin, ".")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build harness:", err)
		os.Exit(1)
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// realTemp returns t.TempDir() with symlinks resolved, so displayPaths compare equal.
func realTemp(t testing.TB) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// runHarness runs the binary to completion and returns stdout, stderr and the exit code.
func runHarness(t testing.TB, stdin string, args ...string) (string, string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, harnessBin, args...)
	cmd.Stdin = bytes.NewBufferString(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run harness %v: %v", args, err)
	}
	return out.String(), errb.String(), code
}

// bareConfig writes a composition without fs-observation-policy.
func bareConfig(t testing.TB, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "bare.yaml")
	writeFile(t, p, fmt.Sprintf("plugins:\n  - name: fs-local\n    config: { cwd: %q }\n  - name: tools\n  - name: tool-fs\n", dir))
	return p
}

func mkdir(p string) error { return os.Mkdir(p, 0o755) }
