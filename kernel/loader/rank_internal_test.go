package loader

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPlaceRanks(t *testing.T) {
	r := func(n int) *int { return &n }
	const g = rankGap
	tests := []struct {
		name      string
		old       []*int
		wantRanks []int
		wantKept  []bool
	}{
		{"first load spaces ranks", []*int{nil, nil, nil}, []int{g, 2 * g, 3 * g}, []bool{false, false, false}},
		{"unchanged keeps all", []*int{r(g), r(2 * g)}, []int{g, 2 * g}, []bool{true, true}},
		{"insert at front splits the gap above the root", []*int{nil, r(g)}, []int{(g - 1) / 2, g}, []bool{false, true}},
		{"no room at the front: the anchor moves", []*int{nil, nil, r(1)}, []int{g, 2 * g, 3 * g}, []bool{false, false, false}},
		{"exact room at the front", []*int{nil, nil, r(2)}, []int{0, 1, 2}, []bool{false, false, true}},
		{"insert between splits the gap", []*int{r(g), nil, r(2 * g)}, []int{g, g + g/2, 2 * g}, []bool{true, false, true}},
		{"append after last", []*int{r(g), nil, nil}, []int{g, 2 * g, 3 * g}, []bool{true, false, false}},
		{"no room: the later neighbour moves", []*int{r(10), nil, r(11)}, []int{10, 10 + g, 10 + 2*g}, []bool{true, false, false}},
		{"swap keeps one, moves the other", []*int{r(2 * g), r(g)}, []int{2 * g, 3 * g}, []bool{true, false}},
		{"longest chain wins", []*int{r(5 * g), r(g), r(2 * g), r(3 * g)}, []int{(g - 1) / 2, g, 2 * g, 3 * g}, []bool{false, true, true, true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ranks, kept := placeRanks(tt.old)
			require.Equal(t, tt.wantRanks, ranks)
			require.Equal(t, tt.wantKept, kept)
			for i := 1; i < len(ranks); i++ {
				require.Less(t, ranks[i-1], ranks[i], "ranks strictly increase")
			}
			for _, rk := range ranks {
				require.GreaterOrEqual(t, rk, 0, "ranks stay behind the root's -1")
			}
		})
	}
}
