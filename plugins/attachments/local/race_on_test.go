//go:build race

package local

// raceEnabled: the race detector multiplies the time and memory of the
// heavy pixel tests, which skip under it. They are named TestHeavy*, and
// scripts/check runs them once without -race.
const raceEnabled = true
