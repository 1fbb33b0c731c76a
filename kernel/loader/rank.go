package loader

// rankGap is the distance between the ranks of neighbouring entries on a first load; inserting an
// entry later takes a rank inside the gap, so its neighbours keep theirs and need no restart.
const rankGap = 1 << 16

// placeRanks gives every position of the new composition a strictly increasing, non-negative rank
// (the kernel's root listeners have rank -1 and stay ahead of every entry). old[i] is the rank of
// the live fiber that position i would keep, or nil when the position needs a fresh load. It keeps
// as many old ranks as possible (a longest chain whose ranks leave room for the positions between
// them) and reports, per position, whether the old rank was kept; a kept position with a live
// fiber needs no reload. The others get ranks spread inside the gaps.
func placeRanks(old []*int) (ranks []int, kept []bool) {
	n := len(old)
	ranks, kept = make([]int, n), make([]bool, n)
	// Longest chain of positions a < b with old[b]-old[a] >= b-a (room for the positions between),
	// starting from a virtual anchor at position -1 with rank -1.
	best, prev := make([]int, n), make([]int, n)
	end := -1
	for b := range old {
		prev[b] = -1
		if old[b] == nil || *old[b] < b {
			continue
		}
		best[b] = 1
		for a := 0; a < b; a++ {
			if best[a] > 0 && *old[b]-*old[a] >= b-a && best[a]+1 > best[b] {
				best[b], prev[b] = best[a]+1, a
			}
		}
		if end < 0 || best[b] > best[end] {
			end = b
		}
	}
	for i := end; i >= 0; i = prev[i] {
		kept[i] = true
		ranks[i] = *old[i]
	}
	// Fill the positions between anchors.
	last, lastRank := -1, -1 // the previous anchor (virtual at first)
	for i := 0; i <= n; i++ {
		if i < n && !kept[i] {
			continue
		}
		gapLen := i - last - 1
		for j := 1; j <= gapLen; j++ {
			p := last + j
			if i == n { // after the last anchor, or no anchor at all
				ranks[p] = max(lastRank, 0) + j*rankGap
				continue
			}
			ranks[p] = lastRank + j*(ranks[i]-lastRank)/(gapLen+1)
		}
		if i < n {
			last, lastRank = i, ranks[i]
		}
	}
	return ranks, kept
}
