package mcphost

import "github.com/cordon-dev/cordon/plugins/tools/engine"

// keepObservations makes an authenticated principal's sessionless session keep its observations
// across restarts, under "principal:<name>" (docs/history.md "Observations across restarts"), where
// the composition has a durable observation store (fs-history).
func keepObservations(s engine.Session, principal string) {
	if d, ok := s.(engine.DurableOwner); ok {
		d.SetDurableOwner("principal:" + principal)
	}
}
