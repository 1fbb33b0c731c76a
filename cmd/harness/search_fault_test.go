package main_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// faultBin is the harness built with the cordon_faultinject tag: CORDON_SEARCH_FAULT makes the
// search's reads of one file name fail with EAGAIN or hang (internal/search/faultinject.go).
var (
	faultBinOnce sync.Once
	faultBin     string
	faultBinErr  error
)

func faultHarness(t *testing.T) string {
	t.Helper()
	faultBinOnce.Do(func() {
		faultBin = filepath.Join(filepath.Dir(harnessBin), "harness-faultinject")
		out, err := exec.Command("go", "build", "-tags", "cordon_faultinject", "-o", faultBin, ".").CombinedOutput()
		if err != nil {
			faultBinErr = fmt.Errorf("build: %v\n%s", err, out)
		}
	})
	require.NoError(t, faultBinErr)
	return faultBin
}

// faultProc is a harness process with a search fault, driven over its pipes.
type faultProc struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	lines  chan string
	stderr *lockedBuffer
	done   chan error
}

func startFault(t *testing.T, fault string, args ...string) *faultProc {
	t.Helper()
	p := &faultProc{cmd: exec.Command(faultHarness(t), args...), lines: make(chan string, 16), stderr: &lockedBuffer{}, done: make(chan error, 1)}
	p.cmd.Env = append(os.Environ(), "CORDON_SEARCH_FAULT="+fault)
	p.cmd.Stderr = p.stderr
	var err error
	p.in, err = p.cmd.StdinPipe()
	require.NoError(t, err)
	out, err := p.cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, p.cmd.Start())
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
		p.done <- p.cmd.Wait()
	}()
	t.Cleanup(func() {
		_ = p.cmd.Process.Kill()
		_ = p.in.Close()
	})
	return p
}

func (p *faultProc) send(t *testing.T, line string) {
	t.Helper()
	_, err := io.WriteString(p.in, line+"\n")
	require.NoError(t, err)
}

// recv returns the next output line; a process that does not answer within a minute fails the
// test (it is spinning or stuck).
func (p *faultProc) recv(t *testing.T) string {
	t.Helper()
	select {
	case l, ok := <-p.lines:
		require.True(t, ok, "the process closed its output; stderr:\n%s", p.stderr.String())
		return l
	case <-time.After(time.Minute):
		t.Fatalf("no answer within a minute; stderr:\n%s", p.stderr.String())
		return ""
	}
}

// waitExit waits for the process to exit after a signal; one still running after 30 s (the drain
// bound is 10 s) fails the test.
func (p *faultProc) waitExit(t *testing.T) {
	t.Helper()
	select {
	case err := <-p.done:
		require.NoError(t, err, p.stderr.String())
	case <-time.After(30 * time.Second):
		t.Fatalf("still running 30 s after SIGTERM; stderr:\n%s", p.stderr.String())
	}
}

func faultTree(t *testing.T, names ...string) string {
	dir := realTemp(t)
	writeFile(t, filepath.Join(dir, "a.txt"), "hit\n")
	for _, n := range names {
		writeFile(t, filepath.Join(dir, n), "hit\n")
	}
	return dir
}

func runText(t *testing.T, line string) (text, code string) {
	t.Helper()
	var r struct {
		Text string  `json:"text"`
		Code *string `json:"code"`
	}
	require.NoError(t, json.Unmarshal([]byte(line), &r), line)
	if r.Code != nil {
		code = *r.Code
	}
	return r.Text, code
}

// A grep that meets a file whose read returns EAGAIN (as /proc/kmsg and trace_pipe do) answers at
// once, the file skipped and counted, instead of spinning on it forever.
func TestRunGrepSkipsAFileThatWouldBlock(t *testing.T) {
	dir := faultTree(t, "stream.txt")
	p := startFault(t, "eagain:stream.txt", "run", "--cwd", dir)
	p.send(t, `{"id":1,"tool":"grep","args":{"pattern":"hit"}}`)
	text, _ := runText(t, p.recv(t))
	require.Equal(t, "Found 1 match\n\na.txt\nLine 1: hit\n\n(Skipped 1 entry that could not be read.)", text)
}

// A grep whose read hangs in the kernel still ends at timeoutMs, SEARCH_ABORTED.
func TestRunGrepTimeoutBeatsAHungRead(t *testing.T) {
	dir := faultTree(t, "hang.txt")
	cfg := filepath.Join(realTemp(t), "cfg.yaml")
	writeFile(t, cfg, fmt.Sprintf("plugins:\n  - name: fs-local\n    config: { cwd: %q }\n  - name: tools\n  - name: tool-fs\n  - name: tool-fs-search\n    config: { timeoutMs: 300 }\n", dir))
	p := startFault(t, "hang:hang.txt", "run", "--config", cfg)
	p.send(t, `{"id":1,"tool":"grep","args":{"pattern":"hit"}}`)
	text, code := runText(t, p.recv(t))
	require.Equal(t, "SEARCH_ABORTED", code, text)
	// The process still serves.
	p.send(t, `{"id":2,"tool":"glob","args":{"pattern":"a.*"}}`)
	text, _ = runText(t, p.recv(t))
	require.Equal(t, "a.txt", text)
}

// SIGTERM ends serve and run within their drain bound while a grep's read hangs.
func TestSIGTERMEndsAHungGrep(t *testing.T) {
	for _, cmdName := range []string{"serve", "run"} {
		t.Run(cmdName, func(t *testing.T) {
			dir := faultTree(t, "hang.txt")
			p := startFault(t, "hang:hang.txt", cmdName, "--cwd", dir)
			if cmdName == "serve" {
				p.send(t, `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
				require.Contains(t, p.recv(t), `"id":"init"`)
				p.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
				p.send(t, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"grep","arguments":{"pattern":"hit"}}}`)
			} else {
				p.send(t, `{"id":1,"tool":"grep","args":{"pattern":"hit"}}`)
			}
			require.Eventually(t, func() bool { return strings.Contains(p.stderr.String(), "search fault: read hangs") }, time.Minute, 5*time.Millisecond)
			require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
			p.waitExit(t)
		})
	}
}

// A grep under a .gitignore of nearly 8 MiB answers well inside timeoutMs (it took minutes when
// every entry was matched rule by rule), says that the file was applied only in part, and applies
// the rules before the cap.
func TestRunGrepUnderAHugeGitignore(t *testing.T) {
	dir := realTemp(t)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, ".git"), 0o755))
	var ig strings.Builder
	ig.WriteString("ignored.txt\n")
	for i := 0; ig.Len() < 8<<20-64; i++ {
		fmt.Fprintf(&ig, "generated_%d.txt\nbuild%d/\n*.ext%d\ntmp%d*\nsrc/gen%d/**/*.pb.go\n", i, i, i, i, i)
	}
	writeFile(t, filepath.Join(dir, ".gitignore"), ig.String())
	writeFile(t, filepath.Join(dir, "ignored.txt"), "needle\n")
	for d := range 12 {
		sub := filepath.Join(dir, fmt.Sprintf("d%d", d))
		require.NoError(t, os.MkdirAll(sub, 0o755))
		for f := range 100 {
			writeFile(t, filepath.Join(sub, fmt.Sprintf("f%d.go", f)), "package x\nvar needle = 1\n")
		}
	}
	cfg := filepath.Join(realTemp(t), "cfg.yaml")
	writeFile(t, cfg, fmt.Sprintf("plugins:\n  - name: fs-local\n    config: { cwd: %q }\n  - name: tools\n  - name: tool-fs\n  - name: tool-fs-search\n    config: { grepMaxMatches: 2000, resultBudget: 1000000 }\n", dir))
	p := startFault(t, "", "run", "--config", cfg)
	p.send(t, `{"id":1,"tool":"grep","args":{"pattern":"needle"}}`)
	text, code := runText(t, p.recv(t))
	require.Empty(t, code, text)
	require.True(t, strings.HasPrefix(text, "Found 1200 matches\n\n"), text[:min(len(text), 200)])
	require.True(t, strings.HasSuffix(text, "\n\n(1 ignore file was applied only in part: its rules past the first 1 MiB, or past 32 KiB of wildcard patterns, were left out.)"), text[max(0, len(text)-300):])
}
