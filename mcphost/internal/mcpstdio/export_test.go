package mcpstdio

// OnSlotWait makes f be called whenever a call of t's connection must wait for a slot: the reading
// goroutine is then parked and reads no further input until a call is answered.
func OnSlotWait(t *Transport, f func()) { t.slotWait = f }
