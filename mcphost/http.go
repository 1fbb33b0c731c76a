package mcphost

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"
)

// drainTimeout is how long a stopping server lets the calls in flight finish.
const drainTimeout = 10 * time.Second

// httpServer is `serve --http`: the MCP Streamable HTTP handler at /mcp (sessions for the protocol
// versions that have them, sessionless requests for 2026-07-28) behind authentication, Host and
// Origin checks and the request limits, and GET /healthz.
type httpServer struct {
	mh        *Host
	log       *zap.Logger
	tokens    *Tokens // nil: no authentication (loopback only)
	origins   map[string]bool
	maxSess   int
	bounds    HTTPOptions
	body      *bodyBudget
	loopback  bool
	stateful  *mcp.StreamableHTTPHandler
	stateless *mcp.StreamableHTTPHandler
	ids       *httpIDs

	opening  atomic.Int64 // sessions being opened (initialize requests in progress)
	draining atomic.Bool  // stopping: only answers to the server's requests are taken
	posts    atomic.Int64 // POST requests being served

	fullWarned atomic.Int64 // unix nanoseconds of the last "connection limit reached" warning
}

func newHTTPServer(mh *Host, o HTTPOptions, log *zap.Logger) *httpServer {
	mh.watchHTTP.Do(func() { mh.server.AddReceivingMiddleware(mh.watchConnections) })
	host, _, _ := net.SplitHostPort(o.Addr)
	s := &httpServer{mh: mh, log: log, tokens: o.Tokens, origins: map[string]bool{},
		maxSess: o.MaxSessions, bounds: o, body: newBodyBudget(o), loopback: IsLoopbackHost(host), ids: newHTTPIDs()}
	for _, o := range o.AllowOrigins {
		s.origins[strings.TrimSuffix(o, "/")] = true
	}
	get := func(*http.Request) *mcp.Server { return mh.server }
	// Host and Origin are checked here, for both handlers alike; the body is bounded here too.
	s.stateful = mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{
		SessionTimeout: o.SessionIdle, DisableLocalhostProtection: true, MaxRequestBodyBytes: -1})
	s.stateless = mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{
		Stateless: true, DisableLocalhostProtection: true, MaxRequestBodyBytes: -1, PropagateRequestCancellation: true})
	return s
}

// handler is the whole HTTP surface.
func (s *httpServer) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = io.WriteString(w, "ok\n")
	})
	mux.Handle("/mcp", s.guard(http.HandlerFunc(s.serveMCP)))
	return s.bounded(s.accessLog(mux))
}

// bounded paces every response's writes (--write-timeout), gives a request's body --read-timeout
// (which reading it extends: bodyBudget), marks the connection as serving a request (connLimit), and
// closes the connection after answering a request without a valid token, whatever the answer (401,
// 403, 404, /healthz), reading nothing more from it: a client that has not authenticated keeps no
// connection open.
func (s *httpServer) bounded(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		unauthenticated := s.tokens != nil && s.tokens.name(r) == ""
		if unauthenticated {
			w.Header().Set("Connection", "close")
		}
		if r.ContentLength != 0 {
			// A body nobody reads whole (a refused request's) is still read by net/http once the handler
			// returns, up to 256 KiB: within this deadline. A request without a body gets none: its
			// connection is read in the background while it runs (a GET stream, for hours).
			_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(s.bounds.ReadTimeout))
		}
		if c, ok := r.Context().Value(connKey{}).(*limitedConn); ok {
			c.l.serving(c)
		}
		pw := newPacedWriter(w, s.bounds.WriteTimeout)
		next.ServeHTTP(pw, r)
		pw.extend() // for what net/http writes once the handler returns
		if unauthenticated {
			// Nothing more is read from it: net/http drops its unread body at once, not within --read-timeout.
			_ = http.NewResponseController(w).SetReadDeadline(time.Now())
		}
	})
}

// connKey is the request context key of the request's connection.
type connKey struct{}

// serveMCP routes a request: the sessionless protocol to the stateless handler, the rest to the
// sessions; a request that would open a session past the limit is refused (503).
func (s *httpServer) serveMCP(w http.ResponseWriter, r *http.Request) {
	if s.draining.Load() && !answersOnly(r) {
		w.Header().Set("Retry-After", "5")
		http.Error(w, "Service Unavailable: the server is shutting down", http.StatusServiceUnavailable)
		return
	}
	if r.Method == http.MethodPost { // its handler returns once its answers are written
		s.posts.Add(1)
		defer s.posts.Add(-1)
	}
	if s.sessionless(r) {
		s.withIDs(w, r, idScope{}, s.stateless)
		return
	}
	sid := r.Header.Get("Mcp-Session-Id")
	if r.Method == http.MethodPost && sid == "" {
		n := s.opening.Add(1)
		defer s.opening.Add(-1)
		if s.mh.liveCount()+int(n) > s.maxSess {
			w.Header().Set("Retry-After", "5")
			http.Error(w, fmt.Sprintf("Service Unavailable: %d sessions are open, the limit (--max-sessions)", s.maxSess),
				http.StatusServiceUnavailable)
			return
		}
	}
	scope := idScope{session: sid}
	if sid != "" {
		if ti := auth.TokenInfoFromContext(r.Context()); ti != nil {
			scope.principal = ti.UserID
		}
	}
	s.withIDs(w, r, scope, s.stateful)
}

// withIDs serves a request with the ids of its body given surrogates the SDK round-trips, and its
// response rewritten back (httpIDs).
func (s *httpServer) withIDs(w http.ResponseWriter, r *http.Request, scope idScope, h http.Handler) {
	if r.Method != http.MethodPost {
		h.ServeHTTP(w, r)
		return
	}
	p, ok := s.ids.begin(w, r, scope)
	if !ok {
		return
	}
	if p == nil {
		h.ServeHTTP(w, r)
		return
	}
	defer p.end()
	iw := &idWriter{ResponseWriter: w, post: p}
	h.ServeHTTP(iw, r)
	iw.finish()
}

// sessionless reports whether a request speaks the 2026-07-28 protocol (its version header, or the
// per-request protocol version of its body).
func (s *httpServer) sessionless(r *http.Request) bool {
	if v := r.Header.Get("Mcp-Protocol-Version"); v != "" {
		return v >= multiRoundTrip
	}
	if r.Method != http.MethodPost {
		return false
	}
	body, _ := r.Body.(*bodyBuffer)
	if body == nil {
		return false
	}
	var msg struct {
		Params struct {
			Meta map[string]json.RawMessage `json:"_meta"`
		} `json:"params"`
	}
	if json.Unmarshal(body.data, &msg) != nil {
		return false
	}
	var v string
	_ = json.Unmarshal(msg.Params.Meta[mcp.MetaKeyProtocolVersion], &v)
	return v >= multiRoundTrip
}

// answersOnly reports whether a request only carries responses and notifications (a client's answer
// to an elicitation, a cancellation): what a stopping server still takes, so calls in flight finish.
func answersOnly(r *http.Request) bool {
	body, _ := r.Body.(*bodyBuffer)
	if r.Method != http.MethodPost || body == nil {
		return false
	}
	var msgs []map[string]json.RawMessage
	if err := json.Unmarshal(body.data, &msgs); err != nil {
		var one map[string]json.RawMessage
		if json.Unmarshal(body.data, &one) != nil {
			return false
		}
		msgs = append(msgs, one)
	}
	for _, m := range msgs {
		_, isRequest := m["method"]
		_, hasID := m["id"]
		if isRequest && hasID {
			return false
		}
	}
	return len(msgs) > 0
}

// bodyBuffer is a request body read whole (within the limit) by guard. Once read to its end (by
// the MCP handler, which keeps its own copy) it lets go of its bytes.
type bodyBuffer struct {
	*bytes.Reader
	data []byte
}

func (b *bodyBuffer) Read(p []byte) (int, error) {
	n, err := b.Reader.Read(p)
	if err == io.EOF {
		b.data = nil
		b.Reader.Reset(nil)
	}
	return n, err
}

func (*bodyBuffer) Close() error { return nil }

// guard applies, in order: Host (on a loopback bind: DNS rebinding), Origin (browsers), bearer
// authentication, and the body bounds (413, 408, 503: bodyBudget). A refused Host or Origin closes
// the connection.
func (s *httpServer) guard(next http.Handler) http.Handler {
	checked := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil && r.Body != http.NoBody {
			data, release, rf := s.body.read(w, r)
			if rf != nil {
				rf.write(w)
				return
			}
			defer release()
			r.Body = &bodyBuffer{bytes.NewReader(data), data}
		}
		next.ServeHTTP(w, r)
	})
	var authed http.Handler = checked
	if s.tokens != nil {
		authed = auth.RequireBearerToken(s.tokens.verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(checked)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.loopback && !IsLoopbackHost(hostOnly(r.Host)) {
			w.Header().Set("Connection", "close")
			http.Error(w, fmt.Sprintf("Forbidden: Host %q is not this loopback server", r.Host), http.StatusForbidden)
			return
		}
		if o := r.Header.Get("Origin"); o != "" && !s.originAllowed(o, r) {
			w.Header().Set("Connection", "close")
			http.Error(w, fmt.Sprintf("Forbidden: Origin %q is not allowed (--allow-origin)", o), http.StatusForbidden)
			return
		}
		authed.ServeHTTP(&challenge{ResponseWriter: w}, r)
	})
}

// originAllowed reports whether a browser's Origin is the server's own or an allowed one.
func (s *httpServer) originAllowed(origin string, r *http.Request) bool {
	origin = strings.TrimSuffix(origin, "/")
	if s.origins[origin] {
		return true
	}
	return strings.EqualFold(origin, "http://"+r.Host) || strings.EqualFold(origin, "https://"+r.Host)
}

// hostOnly is the host of a Host header, without its port.
func hostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return strings.Trim(hostport, "[]")
}

// challenge adds `WWW-Authenticate: Bearer` to a 401.
type challenge struct{ http.ResponseWriter }

func (c *challenge) WriteHeader(code int) {
	if code == http.StatusUnauthorized && c.Header().Get("WWW-Authenticate") == "" {
		c.Header().Set("WWW-Authenticate", `Bearer realm="cordon"`)
	}
	c.ResponseWriter.WriteHeader(code)
}

func (c *challenge) Flush() {
	if f, ok := c.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (c *challenge) Unwrap() http.ResponseWriter { return c.ResponseWriter }

// accessLog logs every request at debug level: method, path, status, duration and principal (never
// the Authorization header).
func (s *httpServer) accessLog(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.log.Core().Enabled(zap.DebugLevel) {
			next.ServeHTTP(w, r)
			return
		}
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		start := time.Now()
		next.ServeHTTP(rec, r)
		s.log.Debug("http", zap.String("method", r.Method), zap.String("path", r.URL.Path),
			zap.Int("status", rec.status), zap.Duration("took", time.Since(start)),
			zap.String("session", r.Header.Get("Mcp-Session-Id")), zap.String("principal", s.tokens.name(r)))
	})
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// connsFull logs, at most once a minute, that the connection limit is reached (--max-conns).
func (s *httpServer) connsFull() {
	now := time.Now().UnixNano()
	if last := s.fullWarned.Load(); last != 0 && now-last < int64(time.Minute) || !s.fullWarned.CompareAndSwap(last, now) {
		return
	}
	s.log.Warn("connection limit reached: a new connection takes the place of one not serving a request, or waits",
		zap.Int("max-conns", s.bounds.MaxConns))
}

// serve serves on ln until ctx ends, then stops: new requests are refused (503) but answers to the
// server's requests are taken, the calls in flight get up to the drain bound to finish (those still
// running are then cancelled, and answered), every session is ended, and the listener and its
// connections are closed.
func (s *httpServer) serve(ctx context.Context, ln net.Listener) error {
	// WriteTimeout resets each request's write deadline; pacedWriter then extends it write by write.
	srv := &http.Server{Handler: s.handler(), ReadHeaderTimeout: s.bounds.ReadTimeout,
		WriteTimeout: s.bounds.WriteTimeout, IdleTimeout: s.bounds.IdleTimeout,
		BaseContext: func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
		ConnContext: func(ctx context.Context, c net.Conn) context.Context { return context.WithValue(ctx, connKey{}, c) },
		ConnState:   connState}
	if n := connCap(s.bounds.MaxConns); n < s.bounds.MaxConns {
		s.log.Warn("--max-conns lowered below the limit on open files", zap.Int("max-conns", n))
		s.bounds.MaxConns = n
	}
	ln = limitConns(ln, s.bounds.MaxConns, s.connsFull)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	s.draining.Store(true)
	deadline := time.Now().Add(s.mh.drainBound())
	for s.mh.callsInFlight() > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	// The calls still running are cancelled and their answers written before the sessions close:
	// closing first would drop them, leaving each client waiting for an answer that never comes.
	conns := s.mh.connections()
	for _, ss := range conns {
		s.mh.cancelCalls(ss)
	}
	for end := time.Now().Add(time.Second); s.posts.Load() > 0 && time.Now().Before(end); {
		time.Sleep(10 * time.Millisecond)
	}
	// Close waits for a session's calls: one deaf to its cancellation gets a second, then is left.
	var wg sync.WaitGroup
	for _, ss := range conns {
		wg.Go(func() { _ = ss.Close() })
	}
	closed := make(chan struct{})
	go func() { wg.Wait(); close(closed) }()
	t := time.NewTimer(time.Second)
	select {
	case <-closed:
	case <-t.C:
	}
	t.Stop()
	s.mh.waitConnections(time.Until(deadline) + time.Second)
	shutdown, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		_ = srv.Close()
	}
	return nil
}
