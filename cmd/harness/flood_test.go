package main_test

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// floodCalls is the number of reads TestServeFloodStaysBounded queues (CORDON_FLOOD_CALLS overrides;
// the figure is taken with 200000).
func floodCalls(t *testing.T) int {
	if s := os.Getenv("CORDON_FLOOD_CALLS"); s != "" {
		n, err := strconv.Atoi(s)
		require.NoError(t, err)
		return n
	}
	return 20000
}

// A client that writes a flood of calls at once, and pauses reading the answers for a while, holds
// the server to a bounded amount of memory: the server stops reading input while its calls in
// flight are at the limit. Every call is still answered, in full.
func TestServeFloodStaysBounded(t *testing.T) {
	dir := realTemp(t)
	writeFile(t, filepath.Join(dir, "a.txt"), "alpha\nbeta\n")
	n := floodCalls(t)
	cmd := exec.Command(harnessBin, "serve", "--cwd", dir, "--log-level", "error")
	in, err := cmd.StdinPipe()
	require.NoError(t, err)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	require.NoError(t, cmd.Start())

	wrote := make(chan error, 1)
	go func() {
		w := bufio.NewWriterSize(in, 1<<20)
		fmt.Fprintln(w, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"flood","version":"0"}}}`)
		fmt.Fprintln(w, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		for i := range n {
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"read","arguments":{"file_path":"a.txt"}}}`+"\n", i+1)
		}
		err := w.Flush()
		wrote <- err
		_ = in.Close()
	}()
	time.Sleep(time.Second) // the client does not read at first: the server must not buffer the flood
	r := bufio.NewReader(out)
	answers := 0
	for {
		line, err := r.ReadSlice('\n')
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		if len(line) > 0 {
			answers++
		}
	}
	require.NoError(t, <-wrote)
	require.NoError(t, cmd.Wait(), stderr.String())
	assert.Equal(t, n+1, answers, "every call answered (and initialize)")
	peak := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss // KiB on Linux
	t.Logf("%d queued reads: peak RSS %.1f MiB", n, float64(peak)/1024)
	assert.Less(t, peak, int64(200<<10), "peak RSS under 200 MiB")
}
