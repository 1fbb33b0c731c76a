//go:build !linux

package mcpstdio

import "io"

// pollable returns in: reading it blocks a thread, as any read of a file does off Linux.
func pollable(in io.Reader) (io.Reader, func()) { return in, func() {} }
