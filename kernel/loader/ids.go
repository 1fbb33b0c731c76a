package loader

import (
	"fmt"
)

// ResolveIDs returns a copy of entries in which every entry has an id. An entry without one gets
// its name, or name#n for the n-th id-less entry of that name; a candidate already taken by an
// explicit id is skipped (fs-local#2, fs-local#3, ...). Generated ids are stable as long as the
// id-less entries of that name keep their relative order. Two entries with the same explicit id
// are an ErrDuplicateID *EntryError naming both.
func ResolveIDs(entries []Entry) ([]Entry, error) {
	out := make([]Entry, len(entries))
	copy(out, entries)
	taken := map[string]int{}
	for i, e := range out {
		if e.ID == "" {
			continue
		}
		if j, dup := taken[e.ID]; dup {
			return nil, &EntryError{Index: i, ID: e.ID, Name: e.Name,
				Err: fmt.Errorf("%w (also the id of entry #%d (%s))", ErrDuplicateID, j+1, out[j].Name)}
		}
		taken[e.ID] = i
	}
	count := map[string]int{}
	for i, e := range out {
		if e.ID != "" {
			continue
		}
		if e.Name == "" {
			return nil, &EntryError{Index: i, Err: ErrNoName}
		}
		for {
			count[e.Name]++
			id := e.Name
			if n := count[e.Name]; n > 1 {
				id = fmt.Sprintf("%s#%d", e.Name, n)
			}
			if _, dup := taken[id]; !dup {
				out[i].ID = id
				taken[id] = i
				break
			}
		}
	}
	return out, nil
}
