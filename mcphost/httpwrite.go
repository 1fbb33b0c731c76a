package mcphost

import (
	"net/http"
	"time"
)

// writeChunk is the most a response write hands the connection under one deadline.
const writeChunk = 64 << 10

// pacedWriter gives the client --write-timeout to take each write (at most writeChunk bytes) and
// each flush of a response, not the whole response: a stream waiting for its next event (a GET
// stream, a long call) is never cut, a client that stops reading is.
type pacedWriter struct {
	http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
}

func newPacedWriter(w http.ResponseWriter, timeout time.Duration) *pacedWriter {
	return &pacedWriter{ResponseWriter: w, rc: http.NewResponseController(w), timeout: timeout}
}

// extend moves the connection's write deadline to timeout from now.
func (w *pacedWriter) extend() { _ = w.rc.SetWriteDeadline(time.Now().Add(w.timeout)) }

func (w *pacedWriter) Write(p []byte) (int, error) {
	n := 0
	for len(p) > 0 {
		c := min(len(p), writeChunk)
		w.extend()
		m, err := w.ResponseWriter.Write(p[:c])
		n += m
		if err != nil {
			return n, err
		}
		p = p[c:]
	}
	return n, nil
}

func (w *pacedWriter) Flush() {
	w.extend()
	_ = w.rc.Flush()
}

func (w *pacedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
