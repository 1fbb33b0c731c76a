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
	// MaxOwnerText bounds the seen text one owner keeps over all its files (8 MiB): beyond it new
	// observations keep only their digests (staleness still works; a stale refusal then says
	// which lines changed without showing them).
	MaxOwnerText = 8 << 20
)

// keptText is the seen text obs keeps.
func keptText(obs fs.Observation) int {
	n := 0
	if obs.Seen != nil {
		for _, w := range obs.Seen.Windows {
			n += len(w.Text)
		}
	}
	return n
}

// withoutText returns obs keeping only the digests of what was seen.
func withoutText(obs fs.Observation) fs.Observation {
	if keptText(obs) == 0 {
		return obs
	}
	ws := slices.Clone(obs.Seen.Windows)
	for i := range ws {
		ws[i].Text, ws[i].Kept = "", false
	}
	obs.Seen = &fs.Seen{Lines: obs.Seen.Lines, Windows: ws}
	return obs
}

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
