package fspolicy

import (
	"slices"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// Bounds of what one observation keeps of what was seen.
const (
	// maxWindows is the number of windows kept; the oldest go first.
	maxWindows = 16
	// maxKeptText bounds the seen text kept over all windows; the oldest windows keep only
	// their digests beyond it.
	maxKeptText = 256 << 10
)

// merge returns the observation to store when next follows prev: what was seen accumulates while
// the version and the file's line count stay (a later read of the same window replaces it);
// anything else replaces prev.
func merge(prev, next fs.Observation) fs.Observation {
	if next.Seen == nil || prev.Kind != fs.ObservedPresent || prev.Seen == nil ||
		prev.Version != next.Version || prev.Seen.Lines != next.Seen.Lines {
		return next
	}
	ws := slices.DeleteFunc(slices.Clone(prev.Seen.Windows), func(w fs.SeenWindow) bool {
		return slices.ContainsFunc(next.Seen.Windows, func(n fs.SeenWindow) bool { return n.First == w.First && n.Count == w.Count })
	})
	ws = append(ws, next.Seen.Windows...)
	ws = ws[max(0, len(ws)-maxWindows):]
	kept := 0
	for i := len(ws) - 1; i >= 0; i-- {
		if !ws[i].Kept {
			continue
		}
		if kept += len(ws[i].Text); kept > maxKeptText {
			ws[i].Text, ws[i].Kept = "", false
		}
	}
	next.Seen = &fs.Seen{Lines: next.Seen.Lines, Windows: ws}
	return next
}
