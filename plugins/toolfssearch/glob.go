package toolfssearch

import (
	"context"
	"strings"

	"github.com/cordon-dev/cordon/internal/search"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// glob is the body of the glob tool.
func (s *suite) glob(ctx context.Context, args globArgs, exec *tools.Exec) (GlobValue, error) {
	in, err := parseGlobArgs(args)
	if err != nil {
		return GlobValue{}, err
	}
	if _, err := search.CompileGlob(in.pattern); err != nil {
		return GlobValue{}, invalidPattern("glob", err)
	}
	ctx, cancel := s.withTimeout(ctx)
	defer cancel()
	root, cwd, err := s.root(ctx, "glob", in.path, exec, true)
	if err != nil {
		return GlobValue{}, err
	}
	res, err := s.searcher.Glob(ctx, root, fs.GlobQuery{Pattern: in.pattern, SearchLimits: s.limits()})
	if err != nil {
		return GlobValue{}, searchFailure(ctx, "glob", err)
	}
	if ctx.Err() != nil {
		return GlobValue{}, aborted("glob", context.Cause(ctx))
	}
	paths := make([]string, len(res.Files))
	for i, f := range res.Files {
		paths[i] = displayPath(cwd, f.Path)
	}
	v := GlobValue{Paths: paths, Total: len(paths), StoppedAfter: s.stoppedAfter(res.Stopped), Skipped: res.Skipped, PartialIgnore: res.PartialIgnore}
	if len(paths) <= s.caps.globMax {
		return v, nil
	}
	if s.caps.sample {
		keys := make([]string, len(res.Files))
		for i, f := range res.Files {
			keys[i], _, _ = strings.Cut(f.Rel, "/")
		}
		sample, shown, total := SampleAcrossTopLevel(paths, keys, s.caps.globMax)
		v.Paths = sample
		// A flat result's sample is its head: the plain footer says so.
		if total < len(paths) {
			v.Sampled, v.EntriesShown, v.EntriesTotal = true, shown, total
		}
	} else {
		v.Paths = paths[:s.caps.globMax]
	}
	if w := s.createSpill("glob"); w != nil {
		for i, p := range paths {
			if i > 0 {
				w.WriteByte('\n')
			}
			w.WriteString(p)
		}
		v.SpillPath = s.commitSpill("glob", w, "")
	}
	return v, nil
}

// SampleAcrossTopLevel picks max of paths (max < len(paths)) round-robin across the groups keys
// names (each path's top-level entry), in order of first appearance: every group gets a slot
// before any gets a second. The page keeps the groups together, each in its own order. It returns
// the page, the groups it reaches and the groups in all.
func SampleAcrossTopLevel(paths, keys []string, max int) ([]string, int, int) {
	type group struct{ idx []int }
	index := map[string]int{}
	var groups []*group
	for i, k := range keys {
		g, ok := index[k]
		if !ok {
			g = len(groups)
			index[k] = g
			groups = append(groups, &group{})
		}
		groups[g].idx = append(groups[g].idx, i)
	}
	take := make([]int, len(groups))
	count := 0
	active := make([]int, len(groups))
	for i := range active {
		active[i] = i
	}
	for count < max && len(active) > 0 {
		next := active[:0]
		for _, g := range active {
			if count >= max {
				break
			}
			take[g]++
			count++
			if take[g] < len(groups[g].idx) {
				next = append(next, g)
			}
		}
		active = next
	}
	page := make([]string, 0, count)
	shown := 0
	for g, n := range take {
		if n > 0 {
			shown++
		}
		for _, i := range groups[g].idx[:n] {
			page = append(page, paths[i])
		}
	}
	return page, shown, len(groups)
}
