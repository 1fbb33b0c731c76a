//go:build !linux

package fslocal

import "testing"

// forceWalk is a no-op where the walk is the only resolver.
func forceWalk(*testing.T) {}
