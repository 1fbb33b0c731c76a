package mcphost

// SetFastPath turns the parts of the fast path on or off (for the benchmark).
func SetFastPath(direct, splice, wire bool) {
	fast.direct, fast.splice, fast.wire = direct, splice, wire
}

func setFastPath(on bool) { SetFastPath(on, on, on) }
