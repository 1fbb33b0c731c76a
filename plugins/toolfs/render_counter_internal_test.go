package toolfs

import (
	"strconv"
	"testing"
)

func TestCounterSpellsEveryNumber(t *testing.T) {
	var c counter
	for _, n := range []int{1, 2, 9, 10, 11, 99, 100, 101, 5, 6, 999, 1000, 0, 1, -3, -2, 1 << 53, 1<<53 + 1} {
		if got := string(c.at(n)); got != strconv.Itoa(n) {
			t.Fatalf("at(%d) = %q", n, got)
		}
	}
	for n := 1; n <= 123456; n++ {
		if got := string(c.at(n)); got != strconv.Itoa(n) {
			t.Fatalf("at(%d) = %q", n, got)
		}
	}
}
