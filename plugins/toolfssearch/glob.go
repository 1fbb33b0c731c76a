package toolfssearch

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/cordon-dev/cordon/internal/search"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/tools/filetool"
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
	ctx = filetool.ReadContext(ctx, s.kc, s.fs, exec) // the session's roots (docs/sandbox.md "Roots")
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
	budget := s.caps.budget.Of(exec)
	stop := len(notes(v.Skipped, v.PartialIgnore, v.StoppedAfter))
	if len(paths) <= s.caps.globMax && joinedLen(paths)+stop <= budget {
		return v, nil
	}
	if w := s.createSpill("glob", 0, globSpill); w != nil {
		for i, p := range paths {
			if i > 0 {
				w.WriteByte('\n')
			}
			w.WriteString(p)
			w.EndRecord()
		}
		saved := s.commitSpill("glob", w, "", globSpill, len(paths))
		v.SpillPath, v.SpillKept, v.SpillLimit = saved.path, saved.kept, saved.limit
	}
	var keys []string
	if s.caps.sample {
		keys = make([]string, len(res.Files))
		for i, f := range res.Files {
			keys[i], _, _ = strings.Cut(f.Rel, "/")
		}
	}
	return globPage(v, keys, s.caps.globMax, budget-stop), nil
}

// joinedLen is the length of paths joined by '\n'.
func joinedLen(paths []string) int {
	n := max(len(paths)-1, 0)
	for _, p := range paths {
		n += len(p)
	}
	return n
}

// globPage picks the page of an over-cap glob whose paths are v.Paths (all of them): at most
// limit paths, and as many as fit room bytes with the footer, at least one. With keys (each
// path's top-level entry) the page is sampled across them (SampleAcrossTopLevel), else it is the
// first paths.
func globPage(v GlobValue, keys []string, limit, room int) GlobValue {
	all := v.Paths
	order, groups := pickOrder(keys, len(all), min(limit, len(all), max(room/2+1, 1)))
	sampled := keys != nil && groups < len(all) // a flat result's sample is its head
	size := make([]int, len(order)+1)           // size[n]: the first n picks, joined
	for i, idx := range order {
		size[i+1] = size[i] + len(all[idx]) + min(i, 1)
	}
	n := len(order)
	for ; n > 1; n-- {
		v.Paths = all[:n] // only the count matters to the footer
		if sampled {
			v.Sampled, v.EntriesShown, v.EntriesTotal = true, min(n, groups), groups
		}
		if size[n]+len(globFooter(v)) <= room {
			break
		}
	}
	if sampled {
		v.Sampled, v.EntriesShown, v.EntriesTotal = true, min(n, groups), groups
	}
	v.Paths = pageOf(all, keys, order[:n])
	return v
}

// SampleAcrossTopLevel picks max of paths (max < len(paths)) round-robin across the groups keys
// names (each path's top-level entry), in order of first appearance: every group gets a slot
// before any gets a second. The page keeps the groups together, each in its own order. It returns
// the page, the groups it reaches and the groups in all.
func SampleAcrossTopLevel(paths, keys []string, max int) ([]string, int, int) {
	order, groups := pickOrder(keys, len(paths), max)
	page := pageOf(paths, keys, order)
	return page, min(len(order), groups), groups
}

// pickOrder returns the indices of the first max of n paths in the order a sample takes them:
// round-robin across the groups keys names, in order of first appearance (the first paths when
// keys is nil), and the number of groups.
func pickOrder(keys []string, n, max int) ([]int, int) {
	max = min(max, n)
	order := make([]int, 0, max)
	if keys == nil {
		for i := range max {
			order = append(order, i)
		}
		return order, n
	}
	index := map[string]int{}
	var groups [][]int
	for i, k := range keys {
		g, ok := index[k]
		if !ok {
			g = len(groups)
			index[k] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], i)
	}
	for round := 0; len(order) < max; round++ {
		for _, g := range groups {
			if round < len(g) && len(order) < max {
				order = append(order, g[round])
			}
		}
	}
	return order, len(groups)
}

// pageOf is the page of the paths order picked: each group's picks together, groups in order of
// first appearance, each in its own order (the picks in order when keys is nil).
func pageOf(paths, keys []string, order []int) []string {
	picked := slices.Clone(order)
	if keys != nil {
		rank := map[string]int{}
		for _, k := range keys {
			if _, ok := rank[k]; !ok {
				rank[k] = len(rank)
			}
		}
		slices.SortFunc(picked, func(a, b int) int { return cmp.Or(cmp.Compare(rank[keys[a]], rank[keys[b]]), cmp.Compare(a, b)) })
	}
	page := make([]string, len(picked))
	for i, idx := range picked {
		page[i] = paths[idx]
	}
	return page
}
