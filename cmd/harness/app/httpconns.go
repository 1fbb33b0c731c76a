package app

import (
	"net"
	"sync"
	"syscall"
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

// connLimit is a listener that holds at most cap(slots) connections open: at the limit Accept waits
// until one of them closes (new clients wait in the kernel's backlog), so no client can take every
// descriptor of the process.
type connLimit struct {
	net.Listener
	slots  chan struct{}
	done   chan struct{}
	closed sync.Once
	full   func() // called when a connection has to wait for a place
}

// limitConns bounds ln to n connections open at once; full is called each time the limit is reached.
func limitConns(ln net.Listener, n int, full func()) *connLimit {
	return &connLimit{Listener: ln, slots: make(chan struct{}, n), done: make(chan struct{}), full: full}
}

// Accept waits for a place, then for a connection.
func (l *connLimit) Accept() (net.Conn, error) {
	select {
	case l.slots <- struct{}{}:
	default:
		l.full()
		select {
		case l.slots <- struct{}{}:
		case <-l.done:
			return nil, net.ErrClosed
		}
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	return &limitedConn{Conn: c, release: sync.OnceFunc(func() { <-l.slots })}, nil
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
	release func()
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
