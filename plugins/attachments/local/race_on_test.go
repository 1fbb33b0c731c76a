//go:build race

package local

// raceEnabled: the race detector multiplies the time and memory of the
// heavy pixel tests, which skip under it.
const raceEnabled = true
