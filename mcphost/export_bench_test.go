package mcphost

// SetSplicing turns the splicing of pre-encoded results on or off (for benchmarks) and returns the
// previous setting.
func SetSplicing(on bool) bool {
	was := spliceResults
	spliceResults = on
	return was
}
