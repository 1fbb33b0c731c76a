package mcpstdio

// OnSlotWait makes f be called whenever a call of t's connection must wait for a slot: the reading
// goroutine is then parked and reads no further input until a call is answered.
func OnSlotWait(t *Transport, f func()) { t.slotWait = f }

// OnHandover makes f be called whenever a new goroutine takes over the reading of t's connection
// from a direct call still running after the inline time.
func OnHandover(t *Transport, f func()) { t.handover = f }
