package mcphost

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

// At its limit connLimit makes room by closing a connection not serving a request: first one that
// never served one, then the one idle longest; while every connection serves one, the new one waits
// until one is idle. A connection closed twice gives its place back once; Close ends an Accept that
// waits.
func TestConnLimit(t *testing.T) {
	noLeaks(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	var fulls atomic.Int32
	cl := limitConns(ln, 2, func() { fulls.Add(1) })
	accepted := make(chan *limitedConn, 8)
	go func() {
		defer close(accepted)
		for {
			c, err := cl.Accept()
			if err != nil {
				return
			}
			accepted <- c.(*limitedConn)
		}
	}()
	dial := func() (client net.Conn, server *limitedConn) {
		c, err := net.Dial("tcp", ln.Addr().String())
		require.NoError(t, err)
		t.Cleanup(func() { _ = c.Close() })
		require.NoError(t, c.SetDeadline(time.Now().Add(20*time.Second)))
		return c, <-accepted
	}
	closed := func(c net.Conn) bool {
		_, err := c.Read(make([]byte, 1))
		return errors.Is(err, io.EOF) || err != nil && strings.Contains(err.Error(), "reset")
	}

	silent, _ := dial()
	_, a := dial()
	cl.serving(a)
	cl.idle(a) // a served a request and is idle
	_, b := dial()
	assert.True(t, closed(silent), "the connection that never sent a request makes room first")
	assert.Equal(t, int32(1), fulls.Load())

	cl.serving(a)
	cl.serving(b) // every connection serves a request: a new one waits
	waiting := make(chan struct{})
	go func() { // dial's checks belong to the test's goroutine: this one only connects and waits
		defer close(waiting)
		if c, err := net.Dial("tcp", ln.Addr().String()); err == nil {
			t.Cleanup(func() { _ = c.Close() })
			<-accepted
		}
	}()
	require.Eventually(t, func() bool { return fulls.Load() == 2 }, 5*time.Second, time.Millisecond)
	cl.idle(b) // until one is idle, which makes room
	<-waiting
	assert.Equal(t, 2, cl.open())

	require.NoError(t, a.Close())
	_ = a.Close()
	assert.Equal(t, 1, cl.open(), "a connection closed twice frees one place")
	require.NoError(t, cl.Close())
	_, open := <-accepted
	assert.False(t, open, "Accept returns once the listener is closed")
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

// A body of unknown length (chunked) reserves as it arrives: within --max-body it is served, past
// it it is refused (413) once the limit is crossed, and a reservation the budget cannot grant
// within --read-timeout is refused (503), the budget then whole again.
func TestHTTPChunkedBodies(t *testing.T) {
	fx := startHTTP(t, "", func(f *httpFlags) {
		f.MaxBody = 64 << 10
		f.MaxBodyTotal = 96 << 10
		f.ReadTimeout = 500 * time.Millisecond
		f.MinBodyRate = 1 << 10 // the held body's 40 KiB earn it 40 s
	})
	post := func(body io.Reader) (int, string) {
		req, err := http.NewRequest(http.MethodPost, fx.url+"/mcp", body)
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.ContentLength = -1 // chunked
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	chunked := func(s string) io.Reader { return io.MultiReader(strings.NewReader(s)) }

	status, _ := post(chunked(initializeBody))
	assert.Equal(t, http.StatusOK, status)
	status, body := post(chunked(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"` + strings.Repeat("x", 70<<10) + `"}}`))
	assert.Equal(t, http.StatusRequestEntityTooLarge, status)
	assert.Equal(t, "Request Entity Too Large: the body is over 65536 bytes (--max-body)\n", body)

	// A body that holds 64 KiB (40 KiB received) and waits: another of 40 KiB cannot have as much.
	pad := strings.Repeat(" ", 40<<10)
	pr, pw := io.Pipe()
	held := make(chan int, 1)
	go func() {
		status, _ := post(pr)
		held <- status
	}()
	_, err := pw.Write([]byte(pad))
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		status, body = post(chunked(pad + initializeBody))
		return status == http.StatusServiceUnavailable
	}, 10*time.Second, time.Millisecond)
	assert.Equal(t, "Service Unavailable: the server holds 98304 bytes of request bodies, its limit (--max-body-total)\n", body)
	_, err = pw.Write([]byte(initializeBody))
	require.NoError(t, err)
	require.NoError(t, pw.Close())
	assert.Equal(t, http.StatusOK, <-held)
	status, _ = post(chunked(pad + initializeBody))
	assert.Equal(t, http.StatusOK, status, "the budget is whole again")
}
