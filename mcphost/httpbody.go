package mcphost

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"golang.org/x/sync/semaphore"
)

// bodyBudget bounds the request bodies of serve --http: each at most max bytes, all of them held at
// once at most the budget's size (--max-body-total), each arriving within timeout plus one second per
// rate bytes received (--read-timeout, --min-body-rate). A request reserves its body's bytes before
// reading them (its Content-Length, or as a body of unknown length grows) and keeps them until it is
// answered; one that cannot reserve within wait gets 503.
type bodyBudget struct {
	held    *semaphore.Weighted
	total   int64
	max     int64
	wait    time.Duration
	timeout time.Duration
	rate    int64
}

func newBodyBudget(o HTTPOptions) *bodyBudget {
	return &bodyBudget{held: semaphore.NewWeighted(o.MaxBodyTotal), total: o.MaxBodyTotal, max: o.MaxBody,
		wait: o.ReadTimeout, timeout: o.ReadTimeout, rate: o.MinBodyRate}
}

// refusal is an HTTP error answer; close also ends the connection.
type refusal struct {
	status int
	msg    string
	close  bool
}

func (r *refusal) write(w http.ResponseWriter) {
	if r.close {
		w.Header().Set("Connection", "close")
	}
	if r.status == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", "5")
	}
	http.Error(w, r.msg, r.status)
}

// growStep is the first reservation of a body of unknown length; each next one doubles what it holds.
const growStep = 4 << 10

// read reads r's body whole within the bounds. release gives its bytes back; it is nil with a refusal.
func (b *bodyBudget) read(w http.ResponseWriter, r *http.Request) (data []byte, release func(), _ *refusal) {
	if r.ContentLength > b.max {
		return nil, nil, b.tooLarge()
	}
	rc := http.NewResponseController(w)
	src := &pacedBody{r: http.MaxBytesReader(w, r.Body, b.max), rc: rc, timeout: b.timeout, rate: b.rate}
	var reserved int64
	release = func() { b.held.Release(reserved); reserved = 0 }
	reserve := func(n int64) *refusal {
		ctx, cancel := context.WithTimeout(r.Context(), b.wait)
		defer cancel()
		if err := b.held.Acquire(ctx, n); err != nil {
			release()
			// The rest of the body is read and dropped (paced, holding nothing), so that a client still
			// sending it gets this answer rather than a reset connection.
			src.start = time.Now()
			_, _ = io.Copy(io.Discard, src)
			return &refusal{status: http.StatusServiceUnavailable, msg: fmt.Sprintf(
				"Service Unavailable: the server holds %d bytes of request bodies, its limit (--max-body-total)", b.total)}
		}
		reserved += n
		return nil
	}
	var err error
	if n := r.ContentLength; n >= 0 {
		if rf := reserve(n); rf != nil {
			return nil, nil, rf
		}
		data = make([]byte, n)
		src.start = time.Now()
		_, err = io.ReadFull(src, data)
	} else {
		src.start = time.Now()
		for err == nil {
			if len(data) == cap(data) {
				grow := min(max(int64(cap(data)), growStep), b.max+1-int64(cap(data)))
				if grow <= 0 {
					release()
					return nil, nil, b.tooLarge()
				}
				if rf := reserve(grow); rf != nil {
					return nil, nil, rf
				}
				data = append(make([]byte, 0, int64(cap(data))+grow), data...)
			}
			var n int
			n, err = src.Read(data[len(data):cap(data)])
			data = data[:len(data)+n]
		}
		if err == io.EOF {
			err = nil
		}
	}
	if err != nil { // the read deadline stays: net/http's reading of what is left ends with it
		release()
		return nil, nil, b.readFailed(err)
	}
	_ = rc.SetReadDeadline(time.Time{}) // the body is in: the rest of the request (a long call) has no read deadline
	return data, release, nil
}

func (b *bodyBudget) tooLarge() *refusal {
	return &refusal{status: http.StatusRequestEntityTooLarge,
		msg: fmt.Sprintf("Request Entity Too Large: the body is over %d bytes (--max-body)", b.max)}
}

func (b *bodyBudget) readFailed(err error) *refusal {
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		return b.tooLarge()
	case errors.Is(err, os.ErrDeadlineExceeded):
		return &refusal{status: http.StatusRequestTimeout, close: true,
			msg: "Request Timeout: the body did not arrive in time (--read-timeout, --min-body-rate)"}
	}
	return &refusal{status: http.StatusBadRequest, msg: "Bad Request: the body could not be read", close: true}
}

// pacedBody sets, before each read, the read deadline of a body begun at start: timeout, plus one
// second per rate bytes received so far. A body sent slowly is cut; a large one sent steadily is not.
type pacedBody struct {
	r       io.Reader
	rc      *http.ResponseController
	start   time.Time
	timeout time.Duration
	rate    int64
	got     int64
}

func (p *pacedBody) Read(b []byte) (int, error) {
	earned := time.Duration(float64(p.got) / float64(p.rate) * float64(time.Second))
	_ = p.rc.SetReadDeadline(p.start.Add(p.timeout + earned))
	n, err := p.r.Read(b)
	p.got += int64(n)
	return n, err
}
