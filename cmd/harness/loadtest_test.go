package main_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLoad is the bounded load test of serve, run only with CORDON_LOAD=1 (its figures are measurements,
// never pass/fail): CORDON_LOAD_SESSIONS sessions (default 32) over HTTP on loopback, each making
// CORDON_LOAD_CALLS calls (default 500) in rounds of five: read its own file, a guarded edit of it, read
// the shared file, then (once every session has read it) a guarded edit of the shared file from that read,
// and a read of its own file. What must hold: no error but the FS_STALE_VERSION of the shared edits'
// losers, exactly one winner per round, no lost update (the shared file lists every round's winner, each
// own file counts every round). The same workload runs with one session over HTTP and one over stdio, and
// with the sessions as principals of the sessionless 2026-07-28 protocol. It logs throughput (calls/s,
// barrier waits included), p50 and p99 latency per call, and the server's peak RSS.
//
//	CORDON_LOAD=1 go test -run TestLoad -v -timeout 30m ./cmd/harness/
func TestLoad(t *testing.T) {
	if os.Getenv("CORDON_LOAD") != "1" {
		t.Skip("the load test runs with CORDON_LOAD=1")
	}
	sessions, calls := envInt(t, "CORDON_LOAD_SESSIONS", 32), envInt(t, "CORDON_LOAD_CALLS", 500)
	require.Zero(t, calls%5, "CORDON_LOAD_CALLS must be a multiple of 5 (one round is five calls)")
	var figures []loadFigures
	for _, c := range []struct {
		name     string
		sessions int
		version  string // "" for stdio
	}{
		{"HTTP, 2025-11-25 sessions", sessions, "2025-11-25"},
		{"HTTP, 2026-07-28 principals", sessions, "2026-07-28"},
		{"HTTP, 2025-11-25, one session", 1, "2025-11-25"},
		{"stdio, one session", 1, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			figures = append(figures, runLoad(t, c.name, c.sessions, calls/5, c.version))
		})
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-32s %8s %7s %9s %9s %9s %9s %8s\n", "", "sessions", "calls", "calls/s", "p50", "p99", "max", "peak RSS")
	for _, f := range figures {
		fmt.Fprintf(&b, "%-32s %8d %7d %9.0f %9s %9s %9s %6.1f MiB\n", f.name, f.sessions, f.calls, f.rate,
			f.p50.Round(time.Microsecond), f.p99.Round(time.Microsecond), f.max.Round(time.Microsecond), float64(f.peakRSS)/(1<<20))
	}
	t.Log(b.String())
}

type loadFigures struct {
	name                string
	sessions, calls     int
	rate                float64
	p50, p99, max       time.Duration
	peakRSS             int64 // bytes: VmHWM of the server
	staleLosses, rounds int
}

func envInt(t *testing.T, name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	require.NoError(t, err, name)
	require.Positive(t, n, name)
	return n
}

// barrier is a cyclic barrier for n goroutines.
type barrier struct {
	n, count int
	mu       sync.Mutex
	gen      chan struct{}
}

func newBarrier(n int) *barrier { return &barrier{n: n, gen: make(chan struct{})} }

func (b *barrier) wait() {
	b.mu.Lock()
	gen := b.gen
	if b.count++; b.count == b.n {
		b.count, b.gen = 0, make(chan struct{})
		close(gen)
	}
	b.mu.Unlock()
	<-gen
}

// peakRSS is a process's VmHWM in bytes.
func peakRSS(t *testing.T, pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	require.NoError(t, err)
	for line := range strings.Lines(string(data)) {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			require.NoError(t, err)
			return kb << 10
		}
	}
	t.Fatal("no VmHWM in /proc/PID/status")
	return 0
}

// loadSession is one client's part: its calls' latencies and what went wrong.
type loadSession struct {
	cs        *mcp.ClientSession
	latencies []time.Duration
	errors    []string
	won       []int // rounds whose shared edit this session won
	stale     int
}

func (s *loadSession) call(tool string, args map[string]any) (*mcp.CallToolResult, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	start := time.Now()
	res, err := s.cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	s.latencies = append(s.latencies, time.Since(start))
	if err != nil {
		s.errors = append(s.errors, fmt.Sprintf("%s: %v", tool, err))
		return nil, false
	}
	return res, true
}

func errorCodeOf(res *mcp.CallToolResult) string {
	if e, ok := res.Meta["error"].(map[string]any); ok {
		code, _ := e["code"].(string)
		return code
	}
	return ""
}

// runLoad starts a server (HTTP at version, or stdio when version is ""), runs the rounds in every
// session and checks the outcome.
func runLoad(t *testing.T, name string, sessions, rounds int, version string) loadFigures {
	ws := realTemp(t)
	shared := filepath.Join(ws, "shared.txt")
	writeFile(t, shared, "START\nEND\n")
	own := func(i int) string { return fmt.Sprintf("own-%02d.txt", i) }
	for i := range sessions {
		writeFile(t, filepath.Join(ws, own(i)), "count: 0\n")
	}

	ss := make([]*loadSession, sessions)
	var pid int
	var stop func()
	if version == "" {
		cmd := exec.Command(harnessBin, "serve", "--cwd", ws)
		stderr := &lockedBuffer{}
		cmd.Stderr = stderr
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "load", Version: "0"}, nil).
			Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, nil)
		cancel()
		require.NoError(t, err, stderr.String())
		ss[0], pid = &loadSession{cs: cs}, cmd.Process.Pid
		stop = func() { _ = cs.Close() }
	} else {
		var args []string
		tokens := make([]string, sessions)
		if version >= "2026-07-28" { // sessionless: each client is its own principal
			var lines strings.Builder
			for i := range sessions {
				tokens[i] = fmt.Sprintf("load-token-%02d-0123456789abcdef", i)
				fmt.Fprintf(&lines, "agent%02d:%s\n", i, tokens[i])
			}
			args = append(args, "--token-file", writeTokens(t, lines.String()))
		}
		srv := startHTTPServe(t, "127.0.0.1:0", append(args, "--cwd", ws, "--max-sessions", strconv.Itoa(sessions+8))...)
		pool := &http.Transport{MaxIdleConns: 4 * sessions, MaxIdleConnsPerHost: 4 * sessions, IdleConnTimeout: time.Minute}
		for i := range sessions {
			hc := &http.Client{Transport: pool}
			if tokens[i] != "" {
				hc.Transport = bearerTransport{tokens[i], pool}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "load", Version: "0"}, nil).
				Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.url, HTTPClient: hc}, &mcp.ClientSessionOptions{ProtocolVersion: version})
			cancel()
			require.NoError(t, err, srv.stderr.String())
			ss[i] = &loadSession{cs: cs}
		}
		pid = srv.cmd.Process.Pid
		stop = func() {
			for _, s := range ss {
				_ = s.cs.Close()
			}
			srv.signal(t, syscall.SIGTERM)
			assert.Equal(t, 0, srv.wait(t, 30*time.Second))
		}
	}

	read, edited := newBarrier(sessions), newBarrier(sessions)
	var wg sync.WaitGroup
	start := time.Now()
	for i, s := range ss {
		wg.Go(func() {
			for r := range rounds {
				if res, ok := s.call("read", map[string]any{"file_path": own(i)}); ok && res.IsError {
					s.errors = append(s.errors, "read own: "+text(res))
				}
				if res, ok := s.call("edit", map[string]any{"file_path": own(i),
					"old_string": fmt.Sprintf("count: %d\n", r), "new_string": fmt.Sprintf("count: %d\n", r+1)}); ok && res.IsError {
					s.errors = append(s.errors, "edit own: "+text(res))
				}
				if res, ok := s.call("read", map[string]any{"file_path": "shared.txt"}); ok && res.IsError {
					s.errors = append(s.errors, "read shared: "+text(res))
				}
				read.wait() // every session edits from the same read
				if res, ok := s.call("edit", map[string]any{"file_path": "shared.txt",
					"old_string": "END\n", "new_string": fmt.Sprintf("round %d: session %d\nEND\n", r, i)}); ok {
					switch {
					case !res.IsError:
						s.won = append(s.won, r)
					case errorCodeOf(res) == "FS_STALE_VERSION":
						s.stale++
					default:
						s.errors = append(s.errors, "edit shared: "+text(res))
					}
				}
				edited.wait() // the next round reads the winner's file
				if res, ok := s.call("read", map[string]any{"file_path": own(i), "offset": 1, "limit": 1}); ok && res.IsError {
					s.errors = append(s.errors, "re-read own: "+text(res))
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	rss := peakRSS(t, pid)
	stop()

	var all []time.Duration
	winners := make([]int, rounds)
	want := "START\n"
	stale := 0
	for i, s := range ss {
		all = append(all, s.latencies...)
		assert.Empty(t, s.errors, "session %d", i)
		stale += s.stale
		for _, r := range s.won {
			winners[r]++
		}
		assert.Equal(t, fmt.Sprintf("count: %d\n", rounds), readFile(t, filepath.Join(ws, own(i))), "session %d's own file", i)
	}
	for r := range rounds {
		assert.Equal(t, 1, winners[r], "winners of round %d", r)
		for i, s := range ss {
			if slices.Contains(s.won, r) {
				want += fmt.Sprintf("round %d: session %d\n", r, i)
			}
		}
	}
	assert.Equal(t, want+"END\n", readFile(t, shared), "the shared file lists every round's winner: no lost update")
	assert.Equal(t, rounds*(sessions-1), stale, "every loser got FS_STALE_VERSION")

	slices.Sort(all)
	f := loadFigures{name: name, sessions: sessions, calls: len(all), rate: float64(len(all)) / elapsed.Seconds(),
		p50: all[len(all)/2], p99: all[len(all)*99/100], max: all[len(all)-1], peakRSS: rss, staleLosses: stale, rounds: rounds}
	t.Logf("%s: %d calls in %v (%.0f calls/s), p50 %v, p99 %v, max %v, server peak RSS %.1f MiB, %d stale losers over %d rounds",
		name, f.calls, elapsed.Round(time.Millisecond), f.rate, f.p50, f.p99, f.max, float64(rss)/(1<<20), stale, rounds)
	return f
}
