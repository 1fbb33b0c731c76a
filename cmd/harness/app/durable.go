package app

// keepObservations makes an authenticated principal's sessionless session keep its observations
// across restarts, under "principal:<name>" (docs/history.md "Observations across restarts"), where
// the composition has a durable observation store (fs-history).
func keepObservations(s session, principal string) {
	if ts, ok := s.(*toolsSession); ok {
		ts.s.SetDurableOwner("principal:" + principal)
	}
}
