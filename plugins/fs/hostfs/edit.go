package hostfs

import (
	"context"
	"io"

	"github.com/cordon-dev/cordon/internal/textedit"
	"github.com/cordon-dev/cordon/plugins/fs"
)

// editReadChunkBytes bounds one read of the file being edited so cancellation
// is observed between chunks.
const editReadChunkBytes = 1 << 20

// EditText implements fs.FileSystem: a literal edit in one critical section
// under t's per-target lock. Checks run in this order: missing target =>
// FS_STALE_VERSION "file changed since it was read" (guarded or not);
// non-regular => FS_NOT_REGULAR_FILE; guard version differs =>
// FS_STALE_VERSION (before any matching), unless the guard carries an
// fs.Recheck, which then decides on the decoded text (see recheckEdit); a file the process could not open
// for writing, or with no write bit at all => FS_PERMISSION_DENIED, one with
// more than one hard link => FS_IO_ERROR; a file larger than maxFileBytes =>
// FS_TOO_LARGE; then the file is read and decoded
// (FS_NOT_TEXT for a NUL anywhere or invalid UTF-8), old_string matched on its
// LF-normalized text (FS_EDIT_NOT_FOUND, FS_AMBIGUOUS_EDIT) and the
// replacement spliced into the file's own bytes: every byte outside the
// matched spans, the BOM included, is kept, and only the new text's line
// breaks follow the style of the line it lands in (textedit.Doc.Plan). A
// result larger than maxFileBytes, sized from the matches before it is built,
// is FS_TOO_LARGE. The result is published atomically with the file's metadata (as by WriteText).
// Outcome.Before/After are the LF-normalized texts of the old and new file
// without BOM; Version is valid as the guard of a follow-up edit. The sandbox
// policy is ignored.
func (p *Provider) EditText(ctx context.Context, t fs.Target, req fs.EditRequest, guard *fs.EditGuard) (fs.EditOutcome, error) {
	return p.editText(ctx, t, req, guard, nil)
}

// editText is EditText, its directory operations confined beneath b when b is
// not nil (see EditTextBeneath).
func (p *Provider) editText(ctx context.Context, t fs.Target, req fs.EditRequest, guard *fs.EditGuard, b *Beneath) (_ fs.EditOutcome, err error) {
	defer func() { err = codedMutation(fs.VerbEdit, t, err) }()
	if err := checkKey(t); err != nil {
		return fs.EditOutcome{}, err
	}
	if err := b.check(t); err != nil {
		return fs.EditOutcome{}, err
	}
	release, err := p.lockTarget(ctx, t.Key, fs.VerbEdit)
	if err != nil {
		return fs.EditOutcome{}, err
	}
	defer release()

	key := string(t.Key)
	existing, exists, err := probe(key)
	if err != nil {
		return fs.EditOutcome{}, err
	}
	switch {
	case !exists:
		return fs.EditOutcome{}, fs.EditChanged(t.DisplayPath)
	case existing.Type != fs.TypeFile:
		return fs.EditOutcome{}, fs.EditNotRegular(t.DisplayPath)
	case guard != nil && guard.Version != existing.Version && guard.Recheck == nil:
		return fs.EditOutcome{}, fs.EditChanged(t.DisplayPath)
	}
	cr := currentCreds()
	if err := checkReplaceable(cr, key, existing, t.DisplayPath, fs.VerbEdit); err != nil {
		return fs.EditOutcome{}, err
	}

	if existing.Size > p.maxFileBytes {
		return fs.EditOutcome{}, fs.EditTooLarge(t.DisplayPath, existing.Size, p.maxFileBytes)
	}
	raw, err := readForEdit(ctx, t, p.maxFileBytes)
	if err != nil {
		return fs.EditOutcome{}, err
	}
	ft, doc, err := p.docForEdit(ctx, key, raw, t.DisplayPath)
	if err != nil {
		return fs.EditOutcome{}, err
	}
	var elsewhere []fs.LineRange
	if guard != nil && guard.Version != existing.Version {
		if elsewhere, err = recheckEdit(guard.Recheck, existing.Version, doc, req); err != nil {
			return fs.EditOutcome{}, err
		}
	}
	edit, err := planLiteral(doc, req, t.DisplayPath)
	if err != nil {
		return fs.EditOutcome{}, err
	}
	if size := edit.Size() + bomBytes(doc.BOM); !ft.other() && size > p.maxFileBytes {
		return fs.EditOutcome{}, fs.EditResultTooLarge(t.DisplayPath, size, p.maxFileBytes)
	}
	body := edit.Body()
	stored, err := ft.storeEdit(edit, body, req.NewString, p.maxFileBytes, t.DisplayPath)
	if err != nil {
		return fs.EditOutcome{}, err
	}
	keep, err := metaOf(cr, key, existing)
	if err != nil {
		return fs.EditOutcome{}, err
	}
	opts := atomicOptions{keep: keep, bom: doc.BOM, display: t.DisplayPath, log: p.log, beneath: b, registry: p.registry, hooks: p.hooks}
	pub := p.beforePublish(ctx, t, fs.VerbEdit, existing, true, raw, stored, doc.BOM, false, nil)
	defer pub.finish(ctx)
	if err := writeFileAtomic(ctx, key, stored, opts); err != nil {
		return fs.EditOutcome{}, err
	}
	out := fs.EditOutcome{Version: p.versionAfter(t.Key), Before: doc.Content, After: textedit.NormalizeLF(body),
		Text: body, HasText: true, Elsewhere: elsewhere}
	pub.published(ctx, out.Version)
	return out, nil
}

// readForEdit reads the whole file, checking ctx (FS_ABORTED "edit aborted")
// before, between 1 MiB chunks and after. A file that vanished since the probe
// is FS_STALE_VERSION, one replaced by a non-regular entry FS_NOT_REGULAR_FILE;
// one over maxBytes (at the descriptor's fstat, or grown past it while read:
// at most maxBytes+1 bytes are read) FS_TOO_LARGE; other OS errors are
// returned raw.
func readForEdit(ctx context.Context, t fs.Target, maxBytes int64) ([]byte, error) {
	if err := checkAbort(ctx, fs.VerbEdit); err != nil {
		return nil, err
	}
	f, regular, err := openFile(ctx, string(t.Key))
	if err != nil {
		if isAbsentErr(err) {
			return nil, fs.NewError(fs.CodeStaleVersion, fs.EditChanged(t.DisplayPath).Message, err)
		}
		return nil, err
	}
	defer f.Close()
	if !regular {
		return nil, fs.EditNotRegular(t.DisplayPath) // replaced since the probe
	}
	size := f.st.Size
	if size > maxBytes {
		return nil, fs.EditTooLarge(t.DisplayPath, size, maxBytes)
	}
	buf := make([]byte, 0, size+1)
	for {
		if int64(len(buf)) > maxBytes {
			return nil, fs.EditContentTooLarge(t.DisplayPath, maxBytes)
		}
		if err := checkAbort(ctx, fs.VerbEdit); err != nil {
			return nil, err
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		end := min(int64(cap(buf)), int64(len(buf))+editReadChunkBytes, maxBytes+1) // never past cap: fits an int
		n, err := f.Read(buf[len(buf):int(end)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if err := checkAbort(ctx, fs.VerbEdit); err != nil {
		return nil, err
	}
	return buf, nil
}
