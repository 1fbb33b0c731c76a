//go:build !race

package attachmentlocal

const raceEnabled = false
