package mcphost

// SetFastPath turns the parts of the fast path on or off (for the benchmark).
func SetFastPath(direct, wire bool) { fast.direct, fast.wire = direct, wire }

func setFastPath(on bool) { SetFastPath(on, on) }
