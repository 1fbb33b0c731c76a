package main_test

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
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

	wrote, answered := make(chan error, 1), make(chan struct{})
	release := sync.OnceFunc(func() { close(answered) })
	defer release()
	go func() {
		w := bufio.NewWriterSize(in, 1<<20)
		fmt.Fprintln(w, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"flood","version":"0"}}}`)
		fmt.Fprintln(w, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		for i := range n {
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"read","arguments":{"file_path":"a.txt"}}}`+"\n", i+1)
		}
		wrote <- w.Flush()
		<-answered // stdin stays open so the server is still there to be measured
		_ = in.Close()
	}()
	time.Sleep(time.Second) // the client does not read at first: the server must not buffer the flood
	r := bufio.NewReader(out)
	for range n + 1 { // every call answered, and initialize
		_, err := r.ReadSlice('\n')
		require.NoError(t, err, stderr.String())
	}
	require.NoError(t, <-wrote)
	// The server's own high-water mark: the rusage of a child spawned by this (much larger, racing)
	// test process would report the parent's peak, as Linux carries it over the exec.
	peak := peakRSS(t, cmd.Process.Pid)
	release()
	_, err = r.ReadSlice('\n')
	assert.ErrorIs(t, err, io.EOF, "nothing after the last answer")
	require.NoError(t, cmd.Wait(), stderr.String())
	t.Logf("%d queued reads: peak RSS %.1f MiB", n, float64(peak)/(1<<20))
	assert.Less(t, peak, int64(200<<20), "peak RSS under 200 MiB")
}
