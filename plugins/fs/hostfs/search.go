package hostfs

import (
	"context"
	"errors"
	"path/filepath"

	"github.com/cordon-dev/cordon/internal/search"
	"github.com/cordon-dev/cordon/plugins/fs"
)

// Glob implements fs.Searcher with the search engine over the physical path of root.
func (p *Provider) Glob(ctx context.Context, root fs.Target, q fs.GlobQuery) (fs.GlobResult, error) {
	g, err := search.CompileGlob(q.Pattern)
	if err != nil {
		return fs.GlobResult{}, &fs.PatternError{Err: err}
	}
	if err := checkAbort(ctx, fs.VerbSearch); err != nil {
		return fs.GlobResult{}, err
	}
	found, err := search.Files(ctx, string(root.Key), g, limits(ctx, q.SearchLimits))
	if err != nil {
		return fs.GlobResult{}, searchError(ctx, err)
	}
	out := fs.GlobResult{Files: make([]fs.FoundFile, len(found.Files)), Stopped: found.Stopped, Skipped: found.Skipped, PartialIgnore: found.PartialIgnore}
	for i, f := range found.Files {
		out.Files[i] = fs.FoundFile{Path: joinDisplay(root.DisplayPath, f.Rel), Rel: f.Rel}
	}
	return out, nil
}

// Grep implements fs.Searcher: root may be a directory or a regular file.
func (p *Provider) Grep(ctx context.Context, root fs.Target, q fs.GrepQuery, emit func(fs.LineMatch) error) (fs.GrepResult, error) {
	m, err := search.CompileMatcher(q.Pattern)
	if err != nil {
		return fs.GrepResult{}, &fs.PatternError{Err: err}
	}
	var include *search.Glob
	if q.Include != "" {
		if include, err = search.CompileGlob(q.Include); err != nil {
			return fs.GrepResult{}, &fs.PatternError{Include: true, Err: err}
		}
	}
	if err := checkAbort(ctx, fs.VerbSearch); err != nil {
		return fs.GrepResult{}, err
	}
	info, ok, err := probe(string(root.Key))
	if err != nil {
		return fs.GrepResult{}, fs.FromOS(fs.VerbSearch, root.DisplayPath, err)
	}
	if !ok {
		return fs.GrepResult{}, fs.ListNotFound(root.DisplayPath, nil)
	}
	sq := search.GrepQuery{
		Root: string(root.Key), File: info.Type == fs.TypeFile, Matcher: m, Include: include,
		MaxLineBytes: q.MaxLineBytes, Options: limits(ctx, q.SearchLimits), Decode: p.grepDecoder(ctx),
	}
	if info.Type == fs.TypeOther {
		return fs.GrepResult{}, nil
	}
	// One display string per file, not per line.
	var lastRel, lastPath string
	stats, err := search.Grep(ctx, sq, func(lm search.LineMatch) error {
		if lm.Rel != lastRel || lastPath == "" {
			lastRel, lastPath = lm.Rel, joinDisplay(root.DisplayPath, lm.Rel)
		}
		return emit(fs.LineMatch{Path: lastPath, Rel: lm.Rel, Line: lm.Line, Text: lm.Text, Truncated: lm.Truncated, ValidUTF8: lm.Valid})
	})
	res := fs.GrepResult{Stopped: stats.Stopped, Skipped: stats.Skipped, PartialIgnore: stats.PartialIgnore}
	if err != nil {
		return res, searchError(ctx, err)
	}
	return res, nil
}

// limits are the search options of l; a search under a read confinement (WithReadBeneath) opens
// every directory and file beneath its root.
func limits(ctx context.Context, l fs.SearchLimits) search.Options {
	return search.Options{IncludeIgnored: l.IncludeIgnored, MaxVisited: l.MaxVisited, Beneath: readRoot(ctx)}
}

// searchError maps the context's end to FS_ABORTED; other errors pass through.
func searchError(ctx context.Context, err error) error {
	if ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
		return fs.Aborted(fs.VerbSearch, context.Cause(ctx))
	}
	return err
}

func joinDisplay(root, rel string) string {
	if rel == "" {
		return root
	}
	return filepath.Join(root, filepath.FromSlash(rel))
}

var _ fs.Searcher = (*Provider)(nil)
