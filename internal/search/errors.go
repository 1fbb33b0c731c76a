package search

// PatternError is the failure to compile a glob or a regular expression. Its message is the
// parser's.
type PatternError struct {
	Pattern string
	Err     error
}

func (e *PatternError) Error() string { return e.Err.Error() }

// Unwrap returns the parser's error.
func (e *PatternError) Unwrap() error { return e.Err }
