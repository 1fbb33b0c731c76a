package toolfs

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRoomDropsTheLastLineForALongFooter: a window that ends at its limit gets the "Showing lines
// ... of T" footer, longer than the capped one the lines were admitted with once T has 12 digits
// or more; over reports it, and the line before the last still fits with the capped footer.
func TestRoomDropsTheLastLineForALongFooter(t *testing.T) {
	const total = 1_000_000_000_000 // 13 digits
	r := newRoom(WindowRequest{Offset: 1, Budget: 1 << 20, PathBytes: 4})
	r.add(1, 4)
	r.add(2, 4)
	r.max = r.fixed + r.used + readFooterLen(1, 2, total, false) - 1
	require.True(t, r.over(2, 2, 2, total))
	require.False(t, r.over(2, 2, 2, 3), "a short total fits")
	require.False(t, r.over(2, 3, 2, total), "capped footer: what the lines were admitted with")
	r.used -= digits(2) + 4 + 3
	require.True(t, r.fixed+r.used+readFooterLen(1, 1, total, true) <= r.max)
}
