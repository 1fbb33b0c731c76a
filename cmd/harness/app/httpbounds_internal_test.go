package app

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// At its limit connLimit accepts nothing more until a connection closes; a connection closed twice
// gives its place back once; Close ends an Accept that waits.
func TestConnLimit(t *testing.T) {
	noLeaks(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	var fulls atomic.Int32
	full := make(chan struct{}, 8)
	cl := limitConns(ln, 2, func() { fulls.Add(1); full <- struct{}{} })
	accepted := make(chan net.Conn, 8)
	go func() {
		for {
			c, err := cl.Accept()
			if err != nil {
				close(accepted)
				return
			}
			accepted <- c
		}
	}()
	dial := func() net.Conn {
		c, err := net.Dial("tcp", ln.Addr().String())
		require.NoError(t, err)
		t.Cleanup(func() { _ = c.Close() })
		return c
	}
	dial()
	dial()
	a, b := <-accepted, <-accepted
	<-full // the third Accept waits for a place
	assert.Equal(t, 2, cl.open())
	dial()
	require.NoError(t, a.Close())
	_ = a.Close()
	c := <-accepted // the freed place takes the waiting connection
	<-full
	assert.Equal(t, 2, cl.open(), "a connection closed twice frees one place")
	require.NoError(t, b.Close())
	require.NoError(t, c.Close())
	// The Accept that waited now holds a place while it waits for a connection.
	require.Eventually(t, func() bool { return cl.open() == 1 }, 5*time.Second, time.Millisecond)
	dial()
	d := <-accepted
	require.NoError(t, d.Close())
	require.NoError(t, cl.Close())
	_, open := <-accepted
	assert.False(t, open, "Accept returns once the listener is closed")
	assert.GreaterOrEqual(t, fulls.Load(), int32(2))
}

// pacedWriter's deadline is per write, not per response: a stream that writes an event, waits past
// --write-timeout and writes again reaches its client whole; a response whose client stops reading
// fails its write once the client has taken nothing for --write-timeout.
func TestPacedWriter(t *testing.T) {
	noLeaks(t)
	const timeout = 200 * time.Millisecond
	stalled := make(chan error, 1)
	srv := &http.Server{WriteTimeout: timeout, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		pw := newPacedWriter(w, timeout)
		defer pw.extend()
		if r.URL.Path == "/stream" {
			for i := range 2 {
				_, _ = io.WriteString(pw, "event\n")
				pw.Flush()
				if i == 0 {
					time.Sleep(3 * timeout) // the stream waits for its next event, longer than the write timeout
				}
			}
			return
		}
		_, err := pw.Write(make([]byte, 64<<20)) // far more than the socket buffers hold
		stalled <- err
	})}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })

	res, err := http.Get("http://" + ln.Addr().String() + "/stream")
	require.NoError(t, err)
	body, err := io.ReadAll(res.Body)
	_ = res.Body.Close()
	require.NoError(t, err)
	assert.Equal(t, "event\nevent\n", string(body))

	c, err := net.Dial("tcp", ln.Addr().String())
	require.NoError(t, err)
	defer c.Close()
	_, err = io.WriteString(c, "GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
	require.NoError(t, err)
	_, err = http.ReadResponse(bufio.NewReader(c), nil) // the headers, then nothing more is read
	require.NoError(t, err)
	select {
	case err := <-stalled:
		assert.True(t, errors.Is(err, os.ErrDeadlineExceeded), "%v", err)
	case <-time.After(20 * time.Second):
		t.Fatal("the write to a client that reads nothing never failed")
	}
}

// The HTTP bounds have their defaults, --max-body-total follows a larger --max-body, and a bound
// that is not positive, or a budget below --max-body, is a usage error.
func TestHTTPBoundFlags(t *testing.T) {
	f, err := parseFlags("serve", []string{"--http", "127.0.0.1:0"}, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, httpBounds{maxConns: 256, readTimeout: 30 * time.Second, minBodyRate: 64 << 10,
		writeTimeout: 30 * time.Second, idleTimeout: time.Minute, maxBodyTotal: 128 << 20}, f.httpBounds)
	assert.Equal(t, int64(32<<20), f.maxBody)
	assert.Equal(t, 64, f.maxSessions)
	assert.Equal(t, 30*time.Minute, f.sessionIdle)

	f, err = parseFlags("serve", []string{"--http", "127.0.0.1:0", "--max-body", "1GiB"}, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, int64(1<<30), f.maxBodyTotal)

	for args, want := range map[string]string{
		"--max-body-total 1MiB":  "--max-body-total (1MiB) is below --max-body (33554432 bytes)",
		"--max-conns 0":          "--max-conns, --read-timeout, --write-timeout and --idle-timeout must be positive",
		"--idle-timeout 0s":      "--max-conns, --read-timeout, --write-timeout and --idle-timeout must be positive",
		"--min-body-rate 0":      `--min-body-rate: "0" is not a positive size (such as 32MiB)`,
		"--max-body-total lots":  `--max-body-total: "lots" is not a positive size (such as 32MiB)`,
		"--read-timeout -1s":     "--max-conns, --read-timeout, --write-timeout and --idle-timeout must be positive",
		"--write-timeout 0s":     "--max-conns, --read-timeout, --write-timeout and --idle-timeout must be positive",
		"--max-conns 8 --http -": "--http",
	} {
		argv := append([]string{"--http", "127.0.0.1:0"}, strings.Fields(args)...)
		_, err := parseFlags("serve", argv, io.Discard)
		require.ErrorIs(t, err, errUsage, args)
		assert.Contains(t, err.Error(), want, args)
	}
	_, err = parseFlags("serve", []string{"--max-conns", "8", "--read-timeout", "1s"}, io.Discard)
	require.ErrorIs(t, err, errUsage)
	assert.Contains(t, err.Error(), "--max-conns, --read-timeout only apply with --http")
}
