package hostfs

import (
	"context"
	"errors"

	"github.com/cordon-dev/cordon/internal/hostfs/textedit"
	"github.com/cordon-dev/cordon/internal/seen"
	"github.com/cordon-dev/cordon/plugins/fs"
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

// recheckWrite asks an intent's Recheck, under the target's lock, whether a replacement may land
// though the version moved, over the file's text decoded in its charset (docs/encodings.md), as
// recheckEdit's is. A file that is not text cannot match what was seen, and one at or over the
// diff-basis bound is not read for it: both are stale.
func (p *Provider) recheckWrite(ctx context.Context, t fs.Target, existing probeInfo, r fs.Recheck) error {
	if existing.Size >= p.diffBasisMaxBytes {
		return fs.WriteChanged(t.DisplayPath)
	}
	raw, err := readForEdit(ctx, t, p.diffBasisMaxBytes)
	if err != nil {
		switch fs.CodeOf(err) {
		case fs.CodeTooLarge: // grew past the bound since the probe
			return fs.WriteChanged(t.DisplayPath)
		case fs.CodeStaleVersion:
			return fs.WriteNoLongerExists(t.DisplayPath)
		case fs.CodeAborted:
			return fs.Aborted(fs.VerbWrite, err)
		}
		return err
	}
	// The text in the file's charset, as read decoded it and an edit's recheck sees it: what was
	// seen of a file in another charset is its decoded text, never its bytes.
	_, doc, err := p.docForEdit(string(t.Key), raw, t.DisplayPath)
	if err != nil {
		return fs.WriteChanged(t.DisplayPath)
	}
	return r.Write(existing.Version, doc.Raw)
}

// restale gives a stale refusal of a Recheck the first line of base, keeping its guidance.
func restale(err error, base *fs.Error) error {
	var e *fs.Error
	if errors.As(err, &e) && e.Kind == fs.CodeStaleVersion {
		return fs.NewError(e.Kind, base.Message, e.Cause)
	}
	return err
}
