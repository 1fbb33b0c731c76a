package tools

import (
	"context"
	"sync"

	"github.com/cordon-dev/cordon/kernel"
)

// SessionOverrides holds one value per agent session for a policy plugin (a session's sandbox
// mode, its approval policy): the last Set wins, and Bind drops a session's value when the session
// ends and every value when the plugin is disposed. A nil session has no value. The zero value is
// ready to use and safe for concurrent use.
//
//	var modes tools.SessionOverrides[sandbox.Mode]
//	if err := modes.Bind(kc); err != nil {
//		return err
//	}
//	modes.Set(session, sandbox.WorkspaceWrite)
type SessionOverrides[V any] struct {
	mu sync.Mutex
	m  map[*Session]V
}

// Get returns the session's value, if one was set.
func (o *SessionOverrides[V]) Get(s *Session) (V, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	v, ok := o.m[s]
	return v, ok
}

// Set records v as the session's value.
func (o *SessionOverrides[V]) Set(s *Session, v V) {
	o.Update(s, func(V, bool) (V, bool) { return v, true })
}

// Update calls fn with the session's value (ok false when none) under the lock, and records the
// value fn returns when fn's second result is true: a read and a write no other call interleaves.
func (o *SessionOverrides[V]) Update(s *Session, fn func(v V, ok bool) (V, bool)) {
	o.mu.Lock()
	defer o.mu.Unlock()
	cur, ok := o.m[s]
	if v, store := fn(cur, ok); store {
		if o.m == nil {
			o.m = make(map[*Session]V)
		}
		o.m[s] = v
	}
}

// End drops the session's value.
func (o *SessionOverrides[V]) End(s *Session) {
	o.mu.Lock()
	delete(o.m, s)
	o.mu.Unlock()
}

// Clear drops every value.
func (o *SessionOverrides[V]) Clear() {
	o.mu.Lock()
	clear(o.m)
	o.mu.Unlock()
}

// Bind ties the values to kc's plugin: SessionEnded drops the ended session's value, and disposing
// kc drops them all.
func (o *SessionOverrides[V]) Bind(kc *kernel.Context) error {
	if _, err := SessionEnded.On(kc, func(_ context.Context, s *Session) error {
		o.End(s)
		return nil
	}); err != nil {
		return err
	}
	return kc.OnDispose(func(context.Context) error { o.Clear(); return nil })
}
