package keylock

// Waiters reports how many callers wait for key (tests only).
func Waiters(t *Table, key string) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	if e, ok := t.m[key]; ok {
		return len(e.waiters)
	}
	return 0
}
