package hostfs

import (
	"context"
	"errors"

	"github.com/cordon-dev/cordon/internal/textedit"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/seen"
)

// recheckEdit asks a guard's Recheck, under the target's lock, whether an edit of doc may land
// though the version moved: it passes the decoded text and the lines old_string's matches span (nil
// when it does not match, or matches more often than a single edit may).
func recheckEdit(r fs.Recheck, v fs.Version, doc textedit.Doc, req fs.EditRequest) ([]fs.LineRange, error) {
	touched := seen.Touched(doc.Content, textedit.NormalizeLF(req.OldString))
	if len(touched) > 1 && !req.ReplaceAll {
		touched = nil
	}
	return r.Edit(v, doc.Raw, touched)
}

// rechecked is the file a recheck read under its target's lock: the size of its stored bytes, its
// charset and its decoded text. The write that follows takes its prior text from it (priorText)
// instead of reading the file again.
type rechecked struct {
	size int64
	ft   fileText
	doc  textedit.Doc
}

// recheckWrite asks an intent's Recheck, under the target's lock, whether a replacement may land
// though the version moved, over the file's text decoded in its charset (docs/encodings.md), as
// recheckEdit's is, and returns what it read. A file that is not text cannot match what was seen,
// and one at or over the diff-basis bound is not read for it: both are stale.
func (p *Provider) recheckWrite(ctx context.Context, t fs.Target, existing probeInfo, r fs.Recheck) (*rechecked, error) {
	if existing.Size >= p.diffBasisMaxBytes {
		return nil, fs.WriteChanged(t.DisplayPath)
	}
	raw, err := readForEdit(ctx, t, p.diffBasisMaxBytes)
	if err != nil {
		switch fs.CodeOf(err) {
		case fs.CodeTooLarge: // grew past the bound since the probe
			return nil, fs.WriteChanged(t.DisplayPath)
		case fs.CodeStaleVersion:
			return nil, fs.WriteNoLongerExists(t.DisplayPath)
		case fs.CodeAborted:
			return nil, fs.Aborted(fs.VerbWrite, err)
		}
		return nil, err
	}
	// The text in the file's charset, as read decoded it and an edit's recheck sees it: what was
	// seen of a file in another charset is its decoded text, never its bytes.
	ft, doc, err := p.docForEdit(ctx, string(t.Key), raw, t.DisplayPath)
	if err != nil {
		return nil, fs.WriteChanged(t.DisplayPath)
	}
	if err := r.Write(existing.Version, doc.Raw); err != nil {
		return nil, err
	}
	return &rechecked{size: int64(len(raw)), ft: ft, doc: doc}, nil
}

// restale gives a stale refusal of a Recheck the first line of base, keeping its guidance.
func restale(err error, base *fs.Error) error {
	var e *fs.Error
	if errors.As(err, &e) && e.Kind == fs.CodeStaleVersion {
		return fs.NewError(e.Kind, base.Message, e.Cause)
	}
	return err
}
