package kerneltest

import (
	"fmt"
	"sync"
)

// Journal records what test modules do (applies, disposals, events), safely from any goroutine, so
// a test can assert the order of what happened:
//
//	var j kerneltest.Journal
//	j.Add("apply %s", id)
//	require.Equal(t, []string{"apply a"}, j.Take())
type Journal struct {
	mu    sync.Mutex
	lines []string
}

// Add appends a formatted line.
func (j *Journal) Add(format string, args ...any) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.lines = append(j.lines, fmt.Sprintf(format, args...))
}

// Take returns the lines recorded since the last Take and forgets them.
func (j *Journal) Take() []string {
	j.mu.Lock()
	defer j.mu.Unlock()
	out := j.lines
	j.lines = nil
	return out
}
