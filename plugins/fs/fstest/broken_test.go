package fstest_test

import (
	"bytes"
	"context"
	"errors"
	"iter"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// The providers below are fs-local with one deliberate bug each, the kind a new provider might
// ship. Each embeds the fs.FileSystem interface, so it hides fs-local's optional interfaces
// (fs.TextByteStreamer, fs.Searcher): the kit skips what a provider does not implement.

// passThrough is fs-local with no bug: what every broken provider is measured against.
type passThrough struct{ fs.FileSystem }

// sizeVersion derives its versions from the file size alone, so a rewrite of the same size keeps
// its version and a guard taken before it still passes.
type sizeVersion struct{ fs.FileSystem }

func (s sizeVersion) Stat(ctx context.Context, t fs.Target) (*fs.Info, error) {
	info, err := s.FileSystem.Stat(ctx, t)
	if info == nil {
		return nil, err
	}
	cp := *info
	cp.Version = fs.Version("size:" + strconv.FormatInt(info.Size, 10))
	return &cp, err
}

// real maps a size version to fs-local's current version when it still matches.
func (s sizeVersion) real(ctx context.Context, t fs.Target, v fs.Version) fs.Version {
	if mine, _ := s.Stat(ctx, t); mine != nil && mine.Version == v {
		inner, _ := s.FileSystem.Stat(ctx, t)
		return inner.Version
	}
	return "stale"
}

func (s sizeVersion) after(ctx context.Context, t fs.Target) fs.Version {
	if info, _ := s.Stat(ctx, t); info != nil {
		return info.Version
	}
	return ""
}

func (s sizeVersion) WriteText(ctx context.Context, t fs.Target, content string, i *fs.WriteIntent) (fs.WriteOutcome, error) {
	if i != nil && i.Kind == fs.IntentReplaceIfVersion {
		i = fs.ReplaceIfVersion(s.real(ctx, t, i.Version))
	}
	out, err := s.FileSystem.WriteText(ctx, t, content, i)
	if err == nil {
		out.Version = s.after(ctx, t)
	}
	return out, err
}

func (s sizeVersion) EditText(ctx context.Context, t fs.Target, e fs.EditRequest, g *fs.EditGuard) (fs.EditOutcome, error) {
	if g != nil {
		g = &fs.EditGuard{Version: s.real(ctx, t, g.Version)}
	}
	out, err := s.FileSystem.EditText(ctx, t, e, g)
	if err == nil {
		out.Version = s.after(ctx, t)
	}
	return out, err
}

// dropsBOM loses a file's leading BOM whenever it writes or edits it (a data loss).
type dropsBOM struct{ fs.FileSystem }

func (d dropsBOM) strip(t fs.Target) {
	p := d.ProcessPath(t)
	if b, err := os.ReadFile(p); err == nil && bytes.HasPrefix(b, []byte("\uFEFF")) {
		_ = os.WriteFile(p, b[3:], 0o644)
	}
}

func (d dropsBOM) WriteText(ctx context.Context, t fs.Target, content string, i *fs.WriteIntent) (fs.WriteOutcome, error) {
	out, err := d.FileSystem.WriteText(ctx, t, content, i)
	if err == nil {
		d.strip(t)
	}
	return out, err
}

func (d dropsBOM) EditText(ctx context.Context, t fs.Target, e fs.EditRequest, g *fs.EditGuard) (fs.EditOutcome, error) {
	out, err := d.FileSystem.EditText(ctx, t, e, g)
	if err == nil {
		d.strip(t)
	}
	return out, err
}

// ignoresIntent writes unconditionally whatever the intent.
type ignoresIntent struct{ fs.FileSystem }

func (n ignoresIntent) WriteText(ctx context.Context, t fs.Target, content string, _ *fs.WriteIntent) (fs.WriteOutcome, error) {
	return n.FileSystem.WriteText(ctx, t, content, nil)
}

// plainErrors keeps every message but loses the code: its errors are not *fs.Error.
type plainErrors struct{ fs.FileSystem }

func plain(err error) error {
	if err == nil {
		return nil
	}
	return errors.New(err.Error())
}

func (e plainErrors) Resolve(ctx context.Context, path string, o fs.ResolveOptions) (fs.Target, error) {
	t, err := e.FileSystem.Resolve(ctx, path, o)
	return t, plain(err)
}

func (e plainErrors) ReadText(ctx context.Context, t fs.Target) (fs.ReadOutcome, error) {
	s, err := e.FileSystem.ReadText(ctx, t)
	return s, plain(err)
}

func (e plainErrors) WriteText(ctx context.Context, t fs.Target, content string, i *fs.WriteIntent) (fs.WriteOutcome, error) {
	out, err := e.FileSystem.WriteText(ctx, t, content, i)
	return out, plain(err)
}

func (e plainErrors) EditText(ctx context.Context, t fs.Target, r fs.EditRequest, g *fs.EditGuard) (fs.EditOutcome, error) {
	out, err := e.FileSystem.EditText(ctx, t, r, g)
	return out, plain(err)
}

// ignoresContext never looks at the caller's context.
type ignoresContext struct{ fs.FileSystem }

var bg = context.Background()

func (n ignoresContext) Resolve(_ context.Context, path string, o fs.ResolveOptions) (fs.Target, error) {
	return n.FileSystem.Resolve(bg, path, o)
}
func (n ignoresContext) Stat(_ context.Context, t fs.Target) (*fs.Info, error) {
	return n.FileSystem.Stat(bg, t)
}
func (n ignoresContext) Lstat(_ context.Context, path string, o fs.LstatOptions) (*fs.PathInfo, error) {
	return n.FileSystem.Lstat(bg, path, o)
}
func (n ignoresContext) ReadText(_ context.Context, t fs.Target) (fs.ReadOutcome, error) {
	return n.FileSystem.ReadText(bg, t)
}
func (n ignoresContext) StreamText(_ context.Context, t fs.Target) (iter.Seq2[string, error], error) {
	return n.FileSystem.StreamText(bg, t)
}
func (n ignoresContext) ReadBytes(_ context.Context, t fs.Target, max int64) ([]byte, error) {
	return n.FileSystem.ReadBytes(bg, t, max)
}
func (n ignoresContext) ListDir(_ context.Context, t fs.Target) ([]fs.DirEntry, error) {
	return n.FileSystem.ListDir(bg, t)
}
func (n ignoresContext) WriteText(_ context.Context, t fs.Target, content string, i *fs.WriteIntent) (fs.WriteOutcome, error) {
	return n.FileSystem.WriteText(bg, t, content, i)
}
func (n ignoresContext) EditText(_ context.Context, t fs.Target, e fs.EditRequest, g *fs.EditGuard) (fs.EditOutcome, error) {
	return n.FileSystem.EditText(bg, t, e, g)
}

// namesUTF8 names "utf-8" as the charset of every text it reads, where the contract wants "".
type namesUTF8 struct{ fs.FileSystem }

func (n namesUTF8) ReadText(ctx context.Context, t fs.Target) (fs.ReadOutcome, error) {
	read, err := n.FileSystem.ReadText(ctx, t)
	read.Charset = "utf-8"
	return read, err
}

// naiveEdit edits as a first attempt would: read the text, replace the first occurrence (every
// one with ReplaceAll), write it back. It ignores the guard, ambiguity, line endings and the
// edit's own error messages.
type naiveEdit struct{ fs.FileSystem }

func (n naiveEdit) EditText(ctx context.Context, t fs.Target, e fs.EditRequest, _ *fs.EditGuard) (fs.EditOutcome, error) {
	read, err := n.ReadText(ctx, t)
	if err != nil {
		return fs.EditOutcome{}, err
	}
	text := read.Text
	if !strings.Contains(text, e.OldString) {
		return fs.EditOutcome{}, fs.OldStringNotFound(t.DisplayPath)
	}
	count := 1
	if e.ReplaceAll {
		count = -1
	}
	after := strings.Replace(text, e.OldString, e.NewString, count)
	out, err := n.WriteText(ctx, t, after, nil)
	return fs.EditOutcome{Version: out.Version, Before: text, After: after}, err
}

// lexicalKeys uses the display path as the key: symbolic links are never resolved, so two
// spellings of one file have two keys and a write through a link replaces the link.
type lexicalKeys struct{ fs.FileSystem }

func (l lexicalKeys) Resolve(ctx context.Context, path string, o fs.ResolveOptions) (fs.Target, error) {
	t, err := l.FileSystem.Resolve(ctx, path, o)
	t.Key = fs.TargetKey(t.DisplayPath)
	return t, err
}

// streamNormalizes turns CRLF into LF in StreamText only, chunk by chunk.
type streamNormalizes struct{ fs.FileSystem }

func (s streamNormalizes) StreamText(ctx context.Context, t fs.Target) (iter.Seq2[string, error], error) {
	seq, err := s.FileSystem.StreamText(ctx, t)
	if err != nil {
		return nil, err
	}
	return func(yield func(string, error) bool) {
		for chunk, err := range seq {
			if !yield(strings.ReplaceAll(chunk, "\r\n", "\n"), err) {
				return
			}
		}
	}, nil
}

// panicsListing panics in ListDir.
type panicsListing struct{ fs.FileSystem }

func (panicsListing) ListDir(context.Context, fs.Target) ([]fs.DirEntry, error) {
	panic("fstest: a provider bug")
}

// openRead reads with os.ReadFile: a FIFO blocks it until a writer comes, and nothing it returns
// is an *fs.Error.
type openRead struct{ fs.FileSystem }

func (o openRead) ReadText(_ context.Context, t fs.Target) (fs.ReadOutcome, error) {
	b, err := os.ReadFile(o.ProcessPath(t))
	return fs.ReadOutcome{Text: string(b)}, err
}

// sloppy has three small bugs: Contains compares key prefixes (so "a" contains "ab"), FileURL
// does not escape the path, and ListDir returns the names in reverse order.
type sloppy struct{ fs.FileSystem }

func (sloppy) Contains(parent, child fs.Target) bool {
	return strings.HasPrefix(string(child.Key), string(parent.Key))
}

func (s sloppy) FileURL(t fs.Target) string { return "file://" + s.ProcessPath(t) }

func (s sloppy) ListDir(ctx context.Context, t fs.Target) ([]fs.DirEntry, error) {
	entries, err := s.FileSystem.ListDir(ctx, t)
	slices.Reverse(entries)
	return entries, err
}

// statTextAtBound implements fs.StatReader over fs-local's Stat and ReadText, with the bound off
// by one: a file of exactly `below` bytes is read whole.
type statTextAtBound struct{ fs.FileSystem }

func (s statTextAtBound) StatText(ctx context.Context, t fs.Target, below int64) (*fs.Info, *fs.ReadOutcome, error) {
	info, err := s.Stat(ctx, t)
	if err != nil || info == nil || info.Type != fs.TypeFile || info.Size > below {
		return info, nil, err
	}
	read, err := s.ReadText(ctx, t)
	if err != nil {
		return info, nil, err
	}
	return info, &read, nil
}
