package toolfssearch

import (
	"context"

	"github.com/cordon-dev/cordon/internal/search"
	"github.com/cordon-dev/cordon/internal/spill"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// grep is the body of the grep tool.
func (s *suite) grep(ctx context.Context, args grepArgs, exec *tools.Exec) (GrepValue, error) {
	in, err := parseGrepArgs(args)
	if err != nil {
		return GrepValue{}, err
	}
	if _, err := search.CompileMatcher(in.pattern); err != nil {
		return GrepValue{}, invalidPattern("grep", err)
	}
	if in.include != "" {
		if _, err := search.CompileGlob(in.include); err != nil {
			return GrepValue{}, invalidPattern("grep", err)
		}
	}
	ctx, cancel := s.withTimeout(ctx)
	defer cancel()
	root, cwd, err := s.root(ctx, "grep", in.path, exec, false)
	if err != nil {
		return GrepValue{}, err
	}
	sink := &grepSink{s: s, cwd: cwd, shown: []GrepMatch{}}
	res, err := s.searcher.Grep(ctx, root, fs.GrepQuery{
		Pattern: in.pattern, Include: in.include, MaxLineBytes: s.caps.lineBytes, SearchLimits: s.limits(),
	}, sink.add)
	if err == nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	if err != nil {
		sink.abort()
		return GrepValue{}, searchFailure(ctx, "grep", err)
	}
	return GrepValue{
		Matches: sink.shown, Total: sink.total, SpillPath: sink.commit(), StoppedAfter: s.stoppedAfter(res.Stopped),
		Skipped: res.Skipped, PartialIgnore: res.PartialIgnore,
	}, nil
}

// grepSink keeps the first grepMaxMatches lines and, past them, writes every line to a spill file.
type grepSink struct {
	s     *suite
	cwd   string
	shown []GrepMatch
	total int
	w     *spill.Writer // open once the cap is passed, while spilling works
	out   matchWriter   // the spill's text, writing to w
	dead  bool          // spilling is off or failed
	// the display path of the current file
	rawPath, path string
}

func (k *grepSink) add(m fs.LineMatch) error {
	k.total++
	if m.Path != k.rawPath {
		k.rawPath, k.path = m.Path, displayPath(k.cwd, m.Path)
	}
	if k.total <= k.s.caps.grepMax {
		k.shown = append(k.shown, GrepMatch{Path: k.path, Line: m.Line, Text: string(m.Text), Truncated: m.Truncated, ValidUTF8: m.ValidUTF8})
		return nil
	}
	if k.dead {
		return nil
	}
	if k.w == nil {
		if k.w = k.s.createSpill("grep"); k.w == nil {
			k.dead = true
			return nil
		}
		k.out = matchWriter{w: k.w}
		for _, sm := range k.shown {
			writeMatch(&k.out, sm.Path, sm.Line, sm.Text, sm.Truncated, sm.ValidUTF8)
		}
	}
	writeMatch(&k.out, k.path, m.Line, m.Text, m.Truncated, m.ValidUTF8)
	return nil
}

func (k *grepSink) abort() {
	if k.w != nil {
		k.w.Abort()
		k.w = nil
	}
}

// commit publishes the spill with its header; "" when there is none.
func (k *grepSink) commit() string {
	if k.w == nil {
		return ""
	}
	w := k.w
	k.w = nil
	return k.s.commitSpill("grep", w, foundHeader(k.total))
}
