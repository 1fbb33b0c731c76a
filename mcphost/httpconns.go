package mcphost

import (
	"net"
	"net/http"
	"sync"
	"syscall"
	"time"
)

// fdReserve is how many descriptors --max-conns leaves to everything else (the files tools open,
// the log, the listener).
const fdReserve = 64

// connCap is --max-conns n, lowered below the process's descriptor limit less fdReserve when that is
// smaller, so that the connection limit is reached before descriptors run out.
func connCap(n int) int {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err == nil && lim.Cur < uint64(n)+fdReserve {
		return max(1, int(lim.Cur)-fdReserve)
	}
	return n
}

// connLimit is a listener that holds at most cap(slots) connections open, so that no client can
// take every descriptor of the process. At the limit a new connection takes the place of one that is
// not serving a request (first one that never sent a request: a client that connects and stays
// silent; then the one idle longest); when every connection is serving a request it waits (new
// clients then wait in the kernel's backlog).
type connLimit struct {
	net.Listener
	slots  chan struct{}
	done   chan struct{}
	closed sync.Once
	full   func() // called when a connection has to wait for a place

	mu    sync.Mutex
	conns map[*limitedConn]struct{}
}

// limitConns bounds ln to n connections open at once; full is called each time the limit is reached.
func limitConns(ln net.Listener, n int, full func()) *connLimit {
	return &connLimit{Listener: ln, slots: make(chan struct{}, n), done: make(chan struct{}), full: full,
		conns: map[*limitedConn]struct{}{}}
}

// Accept waits for a connection, then for a place for it.
func (l *connLimit) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	if !l.place() {
		_ = c.Close()
		return nil, net.ErrClosed
	}
	lc := &limitedConn{Conn: c, l: l, since: time.Now()}
	lc.release = sync.OnceFunc(func() {
		l.mu.Lock()
		delete(l.conns, lc)
		l.mu.Unlock()
		<-l.slots
	})
	l.mu.Lock()
	l.conns[lc] = struct{}{}
	l.mu.Unlock()
	return lc, nil
}

// evictEvery is how often a connection waiting for a place looks again for one to take.
const evictEvery = 50 * time.Millisecond

// place takes a place for a new connection, evicting one not serving a request if it must; false
// when the listener closed first.
func (l *connLimit) place() bool {
	select {
	case l.slots <- struct{}{}:
		return true
	default:
	}
	l.full()
	for {
		l.evict()
		select {
		case l.slots <- struct{}{}:
			return true
		case <-l.done:
			return false
		case <-time.After(evictEvery):
		}
	}
}

// evict closes the connection that is not serving a request and has waited longest, preferring one
// that never sent a request; none when every connection is serving one.
func (l *connLimit) evict() {
	l.mu.Lock()
	var victim *limitedConn
	for c := range l.conns {
		if c.busy {
			continue
		}
		if victim == nil || !c.served && victim.served || c.served == victim.served && c.since.Before(victim.since) {
			victim = c
		}
	}
	l.mu.Unlock()
	if victim != nil {
		_ = victim.Close()
	}
}

// serving marks c as serving a request, until idle.
func (l *connLimit) serving(c *limitedConn) {
	l.mu.Lock()
	c.busy, c.served = true, true
	l.mu.Unlock()
}

// idle marks c as waiting for its next request (its last response is written whole).
func (l *connLimit) idle(c *limitedConn) {
	l.mu.Lock()
	c.busy, c.since = false, time.Now()
	l.mu.Unlock()
}

// connState is the http.Server.ConnState hook that tells the limit when a connection is idle.
func connState(c net.Conn, st http.ConnState) {
	if lc, ok := c.(*limitedConn); ok && st == http.StateIdle {
		lc.l.idle(lc)
	}
}

// Close closes the listener and ends an Accept waiting for a place.
func (l *connLimit) Close() error {
	l.closed.Do(func() { close(l.done) })
	return l.Listener.Close()
}

// open is the number of connections holding a place.
func (l *connLimit) open() int { return len(l.slots) }

// limitedConn gives its place back when it closes, once.
type limitedConn struct {
	net.Conn
	l       *connLimit
	release func()
	// under l.mu:
	busy   bool      // serving a request: from its handler's start to the connection's next idle state
	served bool      // it has served a request
	since  time.Time // accepted, or its last request answered
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.release()
	return err
}

// CloseWrite half-closes a TCP connection, so that net/http can let a response that closes the
// connection reach a client still sending (without it the close may reset the connection first).
func (c *limitedConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}
