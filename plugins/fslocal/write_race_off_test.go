//go:build !race

package fslocal_test

// raceEnabled reports a -race build (its child processes start slowly).
const raceEnabled = false
