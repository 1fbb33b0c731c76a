package kernel

import (
	"bytes"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
)

// lifecycleLock serialises structural changes. It is reentrant for the goroutine that holds it,
// so an Apply that loads a child, provides a service or disposes a sibling runs inline; other
// goroutines wait. The outermost release drains pending activations first.
type lifecycleLock struct {
	mu    sync.Mutex
	owner atomic.Int64
	depth int
	k     *Kernel
}

func (l *lifecycleLock) lock() (unlock func()) {
	g := goid()
	if l.owner.Load() == g {
		l.depth++
		return l.release
	}
	l.mu.Lock()
	l.owner.Store(g)
	l.depth = 1
	return l.release
}

func (l *lifecycleLock) release() {
	if l.depth == 1 && l.k != nil {
		l.k.drain()
	}
	l.depth--
	if l.depth == 0 {
		l.owner.Store(0)
		l.mu.Unlock()
	}
}

func goid() int64 {
	var buf [32]byte
	n := runtime.Stack(buf[:], false)
	b := bytes.TrimPrefix(buf[:n], []byte("goroutine "))
	if i := bytes.IndexByte(b, ' '); i > 0 {
		b = b[:i]
	}
	id, _ := strconv.ParseInt(string(b), 10, 64)
	return id
}
