package kernel

import (
	"sync"
	"sync/atomic"
)

// lifecycleLock serialises structural changes (load, unload, update, provide, withdraw). One change
// runs at a time; a *hold stands for it. While the change runs plugin code on behalf of a context
// (its Apply, its disposers, its listeners in a dispatch the change started), that context carries
// the hold, and a request presenting it joins the change instead of waiting for it. Reentrancy is
// thus carried by the context, never by goroutine identity.
//
// Kernel code of the change runs under mu, which is released around every call into plugin code, so
// the requests that plugin code makes (and those of any goroutine it handed its context to) run
// kernel code one at a time. The change ends, and drains pending activations, when the last request
// that joined it leaves.
type lifecycleLock struct {
	turn sync.Mutex           // held for the whole change
	mu   sync.Mutex           // held while kernel code of the change runs
	cur  atomic.Pointer[hold] // the change in progress, nil between changes
	k    *Kernel
}

// hold is one structural change; depth counts the requests inside it and is guarded by mu.
type hold struct{ depth int }

// carrier is what a request presents: a context, or an instance (which carries a change when its
// own context or the context of any instance it belongs to does).
type carrier interface{ carries(*hold) bool }

// lock enters the change in progress when c carries its hold, and otherwise waits for the change
// to end and starts a new one; c may be nil. Every lock is paired with an unlock.
func (l *lifecycleLock) lock(c carrier) {
	if h := l.cur.Load(); h != nil && c != nil && c.carries(h) {
		l.mu.Lock()
		if l.cur.Load() == h { // the change cannot end while mu is held
			h.depth++
			return
		}
		l.mu.Unlock()
	}
	l.turn.Lock()
	l.mu.Lock()
	l.cur.Store(&hold{depth: 1})
}

func (kc *Context) carries(h *hold) bool { return kc.hold.Load() == h }

func (f *Fiber) carries(h *hold) bool {
	if kc := f.ctx.Load(); kc != nil && kc.carries(h) {
		return true
	}
	for kc := f.parent; kc != nil; kc = kc.f.parent {
		if kc.carries(h) {
			return true
		}
	}
	return false
}

// unlock leaves the change; the last request out drains pending activations and ends it.
func (l *lifecycleLock) unlock() {
	h := l.cur.Load()
	if h.depth == 1 && l.k != nil {
		l.k.drain()
	}
	h.depth--
	if h.depth > 0 {
		l.mu.Unlock()
		return
	}
	l.cur.Store(nil)
	l.mu.Unlock()
	l.turn.Unlock()
}

// callout runs plugin code of kc inside the change: kc carries the hold and mu is free for the
// requests fn makes. The caller holds mu.
func (l *lifecycleLock) callout(kc *Context, fn func()) {
	kc.enter(l.cur.Load())
	l.mu.Unlock()
	defer func() {
		l.mu.Lock()
		kc.leave()
	}()
	fn()
}

// enter marks kc as running plugin code inside the change h; leave undoes one enter. Calls nest
// and may come from several goroutines (parallel listeners), hence the count.
func (kc *Context) enter(h *hold) {
	kc.holdMu.Lock()
	kc.holds++
	kc.hold.Store(h)
	kc.holdMu.Unlock()
}

func (kc *Context) leave() {
	kc.holdMu.Lock()
	if kc.holds--; kc.holds == 0 {
		kc.hold.Store(nil)
	}
	kc.holdMu.Unlock()
}

// enterAll marks the contexts of a dispatch's listeners for the dispatch, when it runs inside the
// change h: a listener that a change runs is part of it, in every mode. leaveAll undoes it.
func enterAll[F any](h *hold, ls []*listener[F]) {
	for _, l := range ls {
		l.kc.enter(h)
	}
}

func leaveAll[F any](ls []*listener[F]) {
	for _, l := range ls {
		l.kc.leave()
	}
}
