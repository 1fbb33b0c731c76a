package fstest

import (
	"context"
	"fmt"
	"iter"
	"strings"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// Every primitive called with a cancelled context fails FS_ABORTED "<verb> aborted"; a cancelled
// mutation changes nothing and leaves no residue, and the target can be written right after (no
// lock is left held).
func checkCancel(c *checker) {
	c.put("f.txt", "data")
	c.mkdir("d")
	f, d, fresh := c.resolve("f.txt"), c.resolve("d"), c.resolve("new.txt")
	v := c.version("f.txt", f)
	ctx, cancel := context.WithCancel(c.ctx)
	cancel()
	aborted := func(op, verb string, err error) {
		c.wantErr(op+" with a cancelled context", err, fs.Aborted(verb, nil))
	}

	_, err := c.fsys.Resolve(ctx, "f.txt", fs.ResolveOptions{Cwd: c.dir})
	aborted("Resolve", fs.VerbResolve, err)
	_, err = c.fsys.Stat(ctx, f)
	aborted("Stat", fs.VerbStat, err)
	_, err = c.fsys.Lstat(ctx, c.path("f.txt"), fs.LstatOptions{})
	aborted("Lstat", fs.VerbLstat, err)
	_, err = c.fsys.ReadText(ctx, f)
	aborted("ReadText", fs.VerbRead, err)
	_, err = collectText(c, "StreamText", func() (iter.Seq2[string, error], error) { return c.fsys.StreamText(ctx, f) })
	aborted("StreamText", fs.VerbRead, err)
	if bs, ok := c.fsys.(fs.TextByteStreamer); ok {
		_, err = collectText(c, "StreamTextBytes", func() (iter.Seq2[[]byte, error], error) { return bs.StreamTextBytes(ctx, f) })
		aborted("StreamTextBytes", fs.VerbRead, err)
	}
	_, err = c.fsys.ReadBytes(ctx, f, 100)
	aborted("ReadBytes", fs.VerbRead, err)
	_, err = c.fsys.ListDir(ctx, d)
	aborted("ListDir", fs.VerbList, err)
	if s, ok := c.fsys.(fs.Searcher); ok {
		_, err = s.Glob(ctx, d, fs.GlobQuery{Pattern: "*"})
		aborted("Glob", fs.VerbSearch, err)
		_, err = s.Grep(ctx, d, fs.GrepQuery{Pattern: "x"}, func(fs.LineMatch) error { return nil })
		aborted("Grep", fs.VerbSearch, err)
	}

	for _, intent := range []*fs.WriteIntent{nil, fs.CreateIfAbsent()} {
		_, err = c.fsys.WriteText(ctx, fresh, "x", intent)
		aborted("WriteText(new.txt, "+intentName(intent)+")", fs.VerbWrite, err)
	}
	if _, ok := c.disk("new.txt"); ok {
		c.errorf("a cancelled WriteText created new.txt")
	}
	for _, intent := range []*fs.WriteIntent{nil, fs.ReplaceIfVersion(v)} {
		op := "WriteText(f.txt, " + intentName(intent) + ") with a cancelled context"
		_, err = c.fsys.WriteText(ctx, f, "x", intent)
		if c.wantCode(op, err, fs.CodeAborted) {
			if m := err.Error(); m != fs.Aborted(fs.VerbWrite, nil).Message && m != fs.Aborted(fs.VerbRead, nil).Message {
				c.errorf("%s: message %q; want %q or %q", op, m, "write aborted", "read aborted")
			}
		}
		c.unchanged(op, "f.txt", f, "data", v)
	}
	for _, g := range []*fs.EditGuard{nil, {Version: v}} {
		op := fmt.Sprintf("EditText(f.txt, guard %v)", g != nil)
		_, err = c.fsys.EditText(ctx, f, req("data", "x"), g)
		aborted(op, fs.VerbEdit, err)
		c.unchanged(op+" with a cancelled context", "f.txt", f, "data", v)
	}
	wantNames(c, "cancelled writes and edits", ".", "d", "f.txt")

	out, err := c.fsys.WriteText(c.ctx, f, "after", fs.ReplaceIfVersion(v))
	if c.noErr("WriteText(f.txt) after the cancelled ones", err) {
		_, err = c.fsys.EditText(c.ctx, f, req("after", "edited"), &fs.EditGuard{Version: out.Version})
		c.noErr("EditText(f.txt) after the cancelled ones", err)
	}
}

// A stream whose context is cancelled after its first chunk stops at the next one with FS_ABORTED
// "read aborted": it neither goes on nor ends as if the text were complete.
func checkCancelMidStream(c *checker) {
	text := strings.Repeat("0123456789abcdef", 1<<18) // 4 MiB
	c.put("big.txt", text)
	t := c.resolve("big.txt")
	streams := map[string]func(ctx context.Context) (iter.Seq2[string, error], error){
		"StreamText": func(ctx context.Context) (iter.Seq2[string, error], error) { return c.fsys.StreamText(ctx, t) },
	}
	if bs, ok := c.fsys.(fs.TextByteStreamer); ok {
		streams["StreamTextBytes"] = func(ctx context.Context) (iter.Seq2[string, error], error) {
			seq, err := bs.StreamTextBytes(ctx, t)
			if err != nil || seq == nil {
				return nil, err
			}
			return func(yield func(string, error) bool) {
				for b, err := range seq {
					if !yield(string(b), err) {
						return
					}
				}
			}, nil
		}
	}
	for name, open := range sorted(streams) {
		ctx, cancel := context.WithCancel(c.ctx)
		seq, err := open(ctx)
		if !c.noErr(name+"(big.txt)", err) || seq == nil {
			cancel()
			continue
		}
		got, after, first := 0, 0, true
		var last error
		for chunk, err := range seq {
			if err != nil {
				last = err
				break
			}
			if !first {
				after++
			}
			first = false
			got += len(chunk)
			cancel()
		}
		cancel()
		switch {
		case last != nil:
			c.wantErr(name+"(big.txt) cancelled after its first chunk", last, fs.Aborted(fs.VerbRead, nil))
		case got == len(text) && after == 0:
			// The whole text came in one chunk: nothing was left to stop.
		default:
			c.errorf("%s(big.txt) cancelled after its first chunk yielded %d more chunk(s) and ended without error (%d of %d bytes); want FS_ABORTED %q",
				name, after, got, len(text), "read aborted")
		}
	}
}
