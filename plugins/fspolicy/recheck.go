package fspolicy

import (
	"strconv"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/seen"
)

// recheck is the fs.Recheck of one guard: it holds the observation the guard was decided from and
// judges the file's text now by the policy's rule (docs/fs.md "Staleness").
type recheck struct {
	p      *Policy
	owner  any
	target fs.Target
	obs    fs.Observation
}

// recheckOf returns the Recheck of a guard decided from obs, or nil when the version alone decides
// (rule version, or nothing seen was recorded).
func (p *Policy) recheckOf(owner any, t fs.Target, obs fs.Observation) fs.Recheck {
	if p.rule == StalenessVersion || obs.Seen == nil {
		return nil
	}
	return &recheck{p: p, owner: owner, target: t, obs: obs}
}

// Write lands a replacement when what was seen covers the whole file and is its text now.
func (r *recheck) Write(v fs.Version, text string) error {
	d := seen.Split(text)
	s := r.obs.Seen
	if seen.Covers(s) && seen.Unchanged(s, d) {
		r.refresh(v)
		return nil
	}
	return r.stale(fs.WriteChanged(r.target.DisplayPath), v, s, d)
}

// Edit lands an edit when every window seen is unchanged (content), or, under region, when every
// touched line was seen and is unchanged.
func (r *recheck) Edit(v fs.Version, text string, touched []fs.LineRange) ([]fs.LineRange, error) {
	d := seen.Split(text)
	s := r.obs.Seen
	if seen.Unchanged(s, d) {
		r.refresh(v)
		return nil, nil
	}
	if r.p.rule == StalenessRegion && touched != nil {
		if elsewhere, ok := seen.Region(s, d, touched); ok {
			return elsewhere, nil
		}
	}
	return nil, r.stale(fs.EditChanged(r.target.DisplayPath), v, s, d)
}

// refresh moves the owner's observation to v when it is still the one the guard was decided from:
// the file at v is what was seen.
func (r *recheck) refresh(v fs.Version) {
	r.p.mu.Lock()
	defer r.p.mu.Unlock()
	m := r.p.owners[r.owner]
	if cur, ok := m[r.target.Key]; ok && cur.Kind == fs.ObservedPresent && cur.Version == r.obs.Version && cur.Seen == r.obs.Seen {
		cur.Version = v
		m[r.target.Key] = cur
	}
}

// staleHeader opens the guidance of a stale refusal.
const staleHeader = "What changed since the read (- as read, + now):"

// shownNote follows the diff of a stale refusal: what it showed counts as read.
const shownNote = "The lines shown with + count as read: an edit of them can be retried as they are now, without another read."

// stale is base (the provider's FS_STALE_VERSION error) with guidance: what changed in the lines
// that were seen, or, when none did, that only part of the file was seen. The lines the diff shows
// as they are now count as seen at v (with the windows that did not change), so a retry aimed at
// them lands without another read.
func (r *recheck) stale(base *fs.Error, v fs.Version, s *fs.Seen, d seen.Doc) error {
	text, shown := seen.ChangesShown(s, d, seen.DiffMaxBytes)
	if text == "" {
		text = "Only " + seen.ReadLines(s) + " of its " + strconv.Itoa(s.Lines) + " lines were read, and they are unchanged; the rest may have changed."
	} else {
		text = staleHeader + "\n" + text
		if len(shown) > 0 {
			text += "\n" + shownNote
			r.show(v, s, d, shown)
		}
	}
	return fs.NewError(base.Kind, base.Message, &fs.Guidance{Text: text})
}

// show records, when the owner's observation is still the one the guard was decided from, that the
// owner has seen the file at v: the windows of s that did not change, the lines of the others that
// are still what was seen at the same numbers, and the lines shown.
func (r *recheck) show(v fs.Version, s *fs.Seen, d seen.Doc, shown []fs.LineRange) {
	var ws []fs.SeenWindow
	for _, w := range s.Windows {
		switch {
		case w.Count > 0 && seen.Same(s, w, d):
			ws = append(ws, w)
		case w.Kept:
			for _, l := range seen.Kept(w, d) {
				ws = append(ws, d.Window(l.First, l.Last-l.First+1))
			}
		}
	}
	for _, l := range shown {
		ws = append(ws, d.Window(l.First, l.Last-l.First+1))
	}
	obs := fs.PresentSeen(v, &fs.Seen{Lines: d.Lines(), Windows: ws})
	r.p.mu.Lock()
	defer r.p.mu.Unlock()
	if cur, ok := r.p.owners[r.owner][r.target.Key]; ok && cur.Kind == fs.ObservedPresent && cur.Version == r.obs.Version && cur.Seen == r.obs.Seen {
		r.p.recordLocked(r.owner, r.target.Key, obs)
	}
}
