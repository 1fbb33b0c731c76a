package toolfs

import (
	"context"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/cordon-dev/cordon/internal/notebook"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/seen"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/tools/filetool"
)

func (s *suite) readDefinition() tools.Definition {
	return tools.Tool[readArgs, ReadValue]{
		Name:        "read",
		Description: readDescription,
		Parameters:  readParameters(s.caps.limit),
		Execute:     filetool.BudgetErrors(s.caps.budget, s.read),
		Render: func(a readArgs, v ReadValue) []tools.Content {
			limit := s.caps.limit
			if in, err := parseReadArgs(a, s.caps.limit); err == nil {
				limit = in.limit
			}
			if v.Notebook != nil {
				return s.renderNotebookContent(v)
			}
			return []tools.Content{tools.TextContent(RenderRead(v, limit))}
		},
		PresentationMeta: func(_ readArgs, v ReadValue) any { return readMetaOf(v) },
		// Observation races fail closed: guarded mutations re-check the version under their lock.
		ConcurrencySafe: func(readArgs) bool { return true },
		Guidance:        readGuidance(),
		Annotations:     tools.Annotations{ReadOnly: true, Idempotent: true},
	}.Definition()
}

// read is the body of the read tool: resolve, one look at the file (fs.StatText: a provider's
// StatText, or a Stat and then a ReadText of a small file), then the whole text (with the charset it was
// decoded from) or a stream into the window, then the present observation at the look's version
// with the lines the window showed (docs/tool-fs.md "read",
// "What it does"; docs/fs.md "Staleness").
func (s *suite) read(ctx context.Context, args readArgs, exec *tools.Exec) (ReadValue, error) {
	in, err := parseReadArgs(args, s.caps.limit)
	if err != nil {
		return ReadValue{}, err
	}
	ctx = s.ft.ReadContext(ctx, exec) // the session's roots, as a mutation's (docs/sandbox.md "Roots")
	h := exec.Header()
	target, err := s.fs.Resolve(ctx, in.filePath, fs.ResolveOptions{Cwd: filetool.SessionCwd(h.Cwd, in.filePath)})
	if err != nil {
		return ReadValue{}, err
	}
	// One look at the file, which reads it too when it is small: a notebook up to its own cap, any
	// other file below the size that streams.
	below, isNotebook := s.caps.streamMinSize, notebook.IsPath(target.DisplayPath)
	if isNotebook {
		below = notebook.MaxBytes + 1
	}
	info, pre, rerr := fs.StatText(ctx, s.fs, target, below)
	if info == nil {
		if rerr != nil {
			return ReadValue{}, rerr
		}
		if err := s.ft.Observe(ctx, target, fs.Absent(), exec); err != nil {
			return ReadValue{}, err
		}
		return ReadValue{}, withNext(fs.ReadNotFound(target.DisplayPath, nil), s.missingNext(ctx, target, filetool.SessionCwd(h.Cwd, in.filePath)))
	}
	if info.Type == fs.TypeDirectory {
		return ReadValue{}, withNext(fs.ReadNotRegular(target.DisplayPath), dirNext(target.DisplayPath))
	}
	if info.Type != fs.TypeFile {
		return ReadValue{}, fs.ReadNotRegular(target.DisplayPath)
	}

	// A notebook reads as cells (docs/notebooks.md); one that is not reads as text with a note.
	var note string
	if isNotebook {
		var v ReadValue
		v, note, pre, err = s.readNotebook(ctx, in, target, info, pre, rerr, exec)
		if err != nil || note == "" {
			return v, err
		}
	}

	req := WindowRequest{Offset: in.offset, Limit: in.limit, MaxLineLength: s.caps.maxLineLength,
		MaxBytes: s.caps.maxBytes, SizeHint: sizeHint(info), Budget: s.caps.budget.For(h.Client)}
	var res WindowResult
	var cs string           // the charset the text was decoded from, "" for UTF-8
	var saw func() *fs.Seen // what the window showed, as fs/observed records it
	var rendered string     // the read's text, when the window rendered it (ContentOnly)
	if pre == nil && rerr == nil && (!info.HasSize || info.Size >= s.caps.streamMinSize) {
		// A stream's window needs the envelope's length before the first chunk.
		cs = textCharset(ctx, s.fs, target)
		req.PathBytes = len(target.DisplayPath) + charsetLineLen(cs) + len(noteLine(note))
		w := NewWindow(req)
		// A window selects at most one line per byte of its cap (each costs its newline at least).
		rec := seen.NewRecorder(in.offset, min(in.limit, s.caps.maxBytes+1))
		if err := s.streamInto(ctx, target, w, rec); err != nil {
			return ReadValue{}, s.notTextNext(ctx, target, info, err)
		}
		res, err = w.Finish(target.DisplayPath)
		saw = func() *fs.Seen { return rec.Seen(len(res.Lines), res.TotalLines) }
	} else {
		read, rerr := s.readText(ctx, target, pre, rerr)
		if rerr != nil {
			return ReadValue{}, s.notTextNext(ctx, target, info, rerr)
		}
		text := read.Text
		cs = read.Charset
		req.PathBytes = len(target.DisplayPath) + charsetLineLen(cs) + len(noteLine(note))
		var span string
		shown := 0
		if exec.ContentOnly() {
			// Only the text is used: the window renders it as it goes, no []Line is built.
			r := newReadRenderer(target.DisplayPath, cs, note, min(len(text), req.MaxBytes), req.Budget)
			if res, shown, span, err = windowInto(text, req, target.DisplayPath, r); err == nil {
				rendered = r.finish(in.offset, shown, res.TotalLines, in.limit)
			}
		} else {
			res, span, err = windowString(text, req, target.DisplayPath)
			shown = len(res.Lines)
		}
		saw = func() *fs.Seen {
			if len(span) < len(text)/2 && len(span) <= seen.TextCap {
				span = strings.Clone(span) // a record kept of a small window does not hold the whole file
			}
			return seen.OfWindow(span, in.offset, shown, res.TotalLines)
		}
	}
	if err != nil {
		var oe *OffsetOutOfRangeError
		if errors.As(err, &oe) {
			// The offset as requested, also past 2^53 where the window's offset saturates
			// (as a JavaScript number prints: `offset 1e+21 is out of range ...`).
			return ReadValue{}, fs.NewError(fs.CodeNotFound, "offset "+in.offsetText+" is out of range for \""+
				oe.DisplayPath+"\" ("+strconv.Itoa(oe.TotalLines)+" lines)", nil)
		}
		return ReadValue{}, err
	}
	if err := s.ft.Observe(ctx, target, fs.PresentSeen(info.Version, saw()), exec); err != nil {
		return ReadValue{}, err
	}
	return ReadValue{Path: target.DisplayPath, Offset: in.offset, Lines: res.Lines, TotalLines: res.TotalLines, Charset: cs, Note: note, text: rendered}, nil
}

// readText is the text fs.StatText read (pre), or its failure (rerr), or else ReadText's.
func (s *suite) readText(ctx context.Context, target fs.Target, pre *fs.ReadOutcome, rerr error) (fs.ReadOutcome, error) {
	switch {
	case rerr != nil:
		return fs.ReadOutcome{}, rerr
	case pre != nil:
		return *pre, nil
	}
	return s.fs.ReadText(ctx, target)
}

// TextByteStreamer is fs.TextByteStreamer, kept as an alias for callers of this package.
type TextByteStreamer = fs.TextByteStreamer

// streamInto feeds the provider's text stream into w and rec.
func (s *suite) streamInto(ctx context.Context, target fs.Target, w *Window, rec *seen.Recorder) error {
	return s.streamTo(ctx, target, windowFeed{w, rec})
}

// windowFeed writes a text stream to a read window and its seen-text recorder.
type windowFeed struct {
	w   *Window
	rec *seen.Recorder
}

func (f windowFeed) Write(b []byte) (int, error) {
	_, _ = f.w.Write(b)
	f.rec.WriteCounted(b, f.w.linesDone())
	return len(b), nil
}

func (f windowFeed) WriteString(s string) (int, error) {
	_, _ = f.w.WriteString(s)
	_, _ = f.rec.WriteString(s)
	return len(s), nil
}

// streamTo writes the provider's text stream of target to w, through lent byte chunks when the
// provider offers them (w must not keep a chunk), and returns the stream's error.
func (s *suite) streamTo(ctx context.Context, target fs.Target, w interface {
	io.Writer
	io.StringWriter
}) error {
	if bs, ok := s.fs.(TextByteStreamer); ok {
		seq, err := bs.StreamTextBytes(ctx, target)
		if err != nil {
			return err
		}
		for chunk, err := range seq {
			if err != nil {
				return err
			}
			_, _ = w.Write(chunk)
		}
		return nil
	}
	seq, err := s.fs.StreamText(ctx, target)
	if err != nil {
		return err
	}
	for chunk, err := range seq {
		if err != nil {
			return err
		}
		_, _ = w.WriteString(chunk)
	}
	return nil
}

// sizeHint is the file size a read window may expect, or 0 when the provider did not say.
func sizeHint(info *fs.Info) int64 {
	if !info.HasSize {
		return 0
	}
	return info.Size
}
