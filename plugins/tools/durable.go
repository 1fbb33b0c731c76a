package tools

// SetDurableOwner names the owner the session's observations are kept under across restarts (an
// authenticated principal; docs/history.md "Observations across restarts"). A host sets it once,
// before the session's first call; "" (the default) keeps them per session.
func (s *Session) SetDurableOwner(name string) {
	s.mu.Lock()
	s.durable = name
	s.mu.Unlock()
}

// DurableOwner returns what SetDurableOwner set.
func (s *Session) DurableOwner() string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.durable
}

// DurableOwner returns the durable owner of the call's session ("" without one); it makes an Exec
// an fs.DurableOwner actor.
func (e *Exec) DurableOwner() string {
	if e == nil || e.Session == nil {
		return ""
	}
	return e.Session.DurableOwner()
}
