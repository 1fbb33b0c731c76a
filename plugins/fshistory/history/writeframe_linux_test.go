package history

import (
	"bytes"
	"testing"
)

// TestRestResumesAShortWriteAtAnyByte: what writeFrame writes after a short pwritev.
func TestRestResumesAShortWriteAtAnyByte(t *testing.T) {
	parts := [][]byte{[]byte("ab"), nil, []byte("cde"), []byte("f")}
	for skip := range 7 {
		if got := string(bytes.Join(rest(parts, int64(skip)), nil)); got != "abcdef"[skip:] {
			t.Errorf("rest(%d) = %q, want %q", skip, got, "abcdef"[skip:])
		}
	}
}
