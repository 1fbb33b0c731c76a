// Command batchrss measures the peak memory (VmHWM) of `harness serve` answering one JSON-RPC batch
// of reads on stdio, or the same reads as separate lines:
//
//	go build -o /tmp/harness ./cmd/harness
//	go run ./scripts/batchrss -harness /tmp/harness -n 16000 [-lines]
//
// It writes a 2,000-line file (about 100 KB, so each read answers about 110 KB) in a temporary
// directory, initializes at 2025-03-26 (the last version with batches), sends the calls, reads every
// answer, then prints the server's VmHWM from /proc/<pid>/status (Linux).
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

func main() {
	harness := flag.String("harness", "harness", "the harness binary")
	n := flag.Int("n", 16000, "reads")
	lines := flag.Bool("lines", false, "send the reads as separate lines instead of one batch")
	flag.Parse()
	if err := run(*harness, *n, *lines); err != nil {
		fmt.Fprintln(os.Stderr, "batchrss:", err)
		os.Exit(1)
	}
}

func run(harness string, n int, lines bool) error {
	dir, err := os.MkdirTemp("", "batchrss-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	var body strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&body, "line %04d %s\n", i, strings.Repeat("x", 40))
	}
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte(body.String()), 0o644); err != nil {
		return err
	}
	cmd := exec.Command(harness, "serve", "--cwd", dir, "--log-level", "error")
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	out := bufio.NewReaderSize(outPipe, 1<<20)
	send := func(s string) error { _, err := io.WriteString(in, s+"\n"); return err }
	if err := send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"batchrss","version":"0"}}}`); err != nil {
		return err
	}
	if _, err := out.ReadBytes('\n'); err != nil {
		return err
	}
	if err := send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`); err != nil {
		return err
	}
	call := func(i int) string {
		return `{"jsonrpc":"2.0","id":` + strconv.Itoa(i) + `,"method":"tools/call","params":{"name":"read","arguments":{"file_path":"f.txt"}}}`
	}
	answered, errs, bytes := 0, 0, 0
	count := func(line []byte) error {
		bytes += len(line)
		var msgs []map[string]json.RawMessage
		if line[0] != '[' {
			var m map[string]json.RawMessage
			if err := json.Unmarshal(line, &m); err != nil {
				return err
			}
			msgs = append(msgs, m)
		} else if err := json.Unmarshal(line, &msgs); err != nil {
			return err
		}
		for _, m := range msgs {
			answered++
			if _, ok := m["error"]; ok {
				errs++
			}
		}
		return nil
	}
	if lines {
		go func() {
			for i := 1; i <= n; i++ {
				_ = send(call(i))
			}
		}()
		for answered < n {
			line, err := out.ReadBytes('\n')
			if err != nil {
				return err
			}
			if err := count(line); err != nil {
				return err
			}
		}
	} else {
		var b strings.Builder
		b.WriteByte('[')
		for i := 1; i <= n; i++ {
			if i > 1 {
				b.WriteByte(',')
			}
			b.WriteString(call(i))
		}
		b.WriteByte(']')
		fmt.Printf("batch line: %d bytes\n", b.Len())
		go func() { _ = send(b.String()) }()
		line, err := out.ReadBytes('\n')
		if err != nil {
			return err
		}
		if err := count(line); err != nil {
			return err
		}
	}
	status, err := os.ReadFile("/proc/" + strconv.Itoa(cmd.Process.Pid) + "/status")
	if err != nil {
		return err
	}
	for _, l := range strings.Split(string(status), "\n") {
		if strings.HasPrefix(l, "VmHWM:") {
			fmt.Printf("answers: %d (%d errors), %d bytes; %s\n", answered, errs, bytes, strings.Join(strings.Fields(l), " "))
		}
	}
	_ = in.Close()
	return cmd.Wait()
}
