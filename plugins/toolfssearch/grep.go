package toolfssearch

import (
	"context"
	"math"

	"github.com/cordon-dev/cordon/internal/search"
	"github.com/cordon-dev/cordon/internal/spill"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/tools/filetool"
)

// grep is the body of the grep tool.
func (s *suite) grep(ctx context.Context, args grepArgs, exec *tools.Exec) (GrepValue, error) {
	in, err := parseGrepArgs(args)
	if err != nil {
		return GrepValue{}, err
	}
	if _, err := search.CompileMatcher(in.pattern); err != nil {
		return GrepValue{}, withHint(invalidPattern("grep", err), re2Hint(in.pattern))
	}
	if in.include != "" {
		if _, err := search.CompileGlob(in.include); err != nil {
			return GrepValue{}, invalidPattern("grep", err)
		}
	}
	ctx, cancel := s.withTimeout(ctx)
	defer cancel()
	ctx = filetool.ReadContext(ctx, s.kc, s.fs, exec) // the session's roots (docs/sandbox.md "Roots")
	root, cwd, err := s.root(ctx, "grep", in.path, exec, false)
	if err != nil {
		return GrepValue{}, err
	}
	sink := s.newGrepSink(cwd, exec)
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
	saved := sink.commit()
	return GrepValue{
		Matches: sink.shown, Total: sink.total, SpillPath: saved.path, SpillKept: saved.kept, SpillLimit: saved.limit,
		StoppedAfter: s.stoppedAfter(res.Stopped), Skipped: res.Skipped, PartialIgnore: res.PartialIgnore,
	}, nil
}

// grepSink keeps the first matches inline while they are at most grepMaxMatches and their text
// fits the call's budget (docs/search.md "The result budget"), and, past them, writes every match
// to a spill file.
type grepSink struct {
	s      *suite
	cwd    string
	room   int // bytes the inline matches may take: the budget less the longest header and footer
	shown  []GrepMatch
	inline matchWriter // counts the inline text, writing to size
	size   counter
	full   bool // the inline page is closed
	total  int
	w      *spill.Writer // open once the page is closed, while spilling works
	out    matchWriter   // the spill's text, writing to w
	dead   bool          // spilling is off or failed
	// the display path of the current file
	rawPath, path string
}

// spillHeaderRoom is the room of a grep spill's header: "Found <T> matches" for any T.
var spillHeaderRoom = len(foundHeader(math.MaxInt))

func (s *suite) newGrepSink(cwd string, exec *tools.Exec) *grepSink {
	k := &grepSink{s: s, cwd: cwd, shown: []GrepMatch{}}
	longest := len(foundCapped.RenderInts(math.MaxInt, math.MaxInt)) + len("\n\n()") +
		grepSpill.longestRecovery(s.spillPathLen(), s.caps.spillLimits.MaxFileBytes) + longestNotes(s.caps.maxVisited)
	k.room = s.caps.budget.Of(exec) - longest
	k.inline = matchWriter{w: &k.size}
	return k
}

func (k *grepSink) add(m fs.LineMatch) error {
	k.total++
	if m.Path != k.rawPath {
		k.rawPath, k.path = m.Path, displayPath(k.cwd, m.Path)
	}
	if !k.full && k.total <= k.s.caps.grepMax {
		probe, before := k.inline, k.size.n
		writeMatch(&probe, k.path, m.Line, m.Text, m.Truncated, m.ValidUTF8)
		if k.size.n <= k.room || len(k.shown) == 0 { // the first match is always shown
			k.inline = probe
			k.shown = append(k.shown, GrepMatch{Path: k.path, Line: m.Line, Text: string(m.Text), Truncated: m.Truncated, ValidUTF8: m.ValidUTF8})
			return nil
		}
		k.size.n = before
	}
	k.full = true
	if k.dead {
		return nil
	}
	if k.w == nil {
		if k.w = k.s.createSpill("grep", spillHeaderRoom, grepSpill); k.w == nil {
			k.dead = true
			return nil
		}
		k.out = matchWriter{w: k.w}
		for _, sm := range k.shown {
			writeMatch(&k.out, sm.Path, sm.Line, sm.Text, sm.Truncated, sm.ValidUTF8)
			k.w.EndRecord()
		}
	}
	if !k.w.Cut() {
		writeMatch(&k.out, k.path, m.Line, m.Text, m.Truncated, m.ValidUTF8)
		k.w.EndRecord()
	}
	return nil
}

func (k *grepSink) abort() {
	if k.w != nil {
		k.w.Abort()
		k.w = nil
	}
}

// commit publishes the spill with its header; the zero savedAs when there is none.
func (k *grepSink) commit() savedAs {
	if k.w == nil {
		return savedAs{}
	}
	w := k.w
	k.w = nil
	return k.s.commitSpill("grep", w, foundHeader(k.total), grepSpill, k.total)
}
