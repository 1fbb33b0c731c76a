package toolfs

import (
	"strconv"
	"testing"
)

func TestCounterSpellsEveryNumber(t *testing.T) {
	var c counter
	check := func(n int) {
		t.Helper()
		b := []byte("x")
		if got := string(c.append(b, n)); got != "x"+strconv.Itoa(n)+": " {
			t.Fatalf("append(%d) = %q", n, got)
		}
	}
	for _, n := range []int{1, 2, 9, 10, 11, 99, 100, 101, 5, 6, 999, 1000, 0, 1, -3, -2, -1, 0, 999998,
		999999, 1000000, 1000001, 1 << 53, 1<<53 + 1} {
		check(n)
	}
	for n := 1; n <= 1234567; n++ {
		check(n)
	}
}
