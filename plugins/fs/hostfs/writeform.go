package hostfs

import (
	"context"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// writeForm is how a write (WriteText, or a change set's write) stores its content: the bytes
// after a UTF-8 mark, whether that mark goes first, and the replaced file's prior text.
type writeForm struct {
	stored string
	bom    bool
	prior  priorFile
}

// formForWrite decides how content is stored at key (docs/encodings.md): a new file in the
// charset declared for its path, with a UTF-8 mark under .editorconfig utf-8-bom; an existing
// one in its own charset with its own mark (priorText), its prior text the diff basis when
// content is below diffBasisMaxBytes. Content the charset cannot encode is FS_NOT_TEXT; stored
// bytes over maxFileBytes are FS_TOO_LARGE. read is what a recheck read of the file (nil: none).
func (p *Provider) formForWrite(ctx context.Context, key string, exists bool, content, display string, read *rechecked) (writeForm, error) {
	var w writeForm
	var err error
	ft := fileText{decl: p.charsets.DeclaredBeneath(readRoot(ctx), key)}
	if exists {
		if ft, w.prior, err = p.priorText(ctx, key, int64(len(content)) < p.diffBasisMaxBytes, display, read); err != nil {
			return writeForm{}, err
		}
		w.bom = w.prior.bom && !hasBOM(content)
	} else {
		w.bom = ft.decl.BOM && !hasBOM(content)
	}
	if w.stored, err = ft.storeWrite(content, display); err != nil {
		return writeForm{}, err
	}
	if size := int64(len(w.stored)) + bomBytes(w.bom); size > p.maxFileBytes {
		return writeForm{}, fs.WriteTooLarge(display, size, p.maxFileBytes)
	}
	return w, nil
}

// priorText is the charset of the existing file key and its prior text (the diff basis when
// wantBasis): decoded in its charset (textForWrite), or read as UTF-8 (readPrior); or, when a
// recheck already read it under the same lock (read), taken from that with the same bounds.
func (p *Provider) priorText(ctx context.Context, key string, wantBasis bool, display string, read *rechecked) (fileText, priorFile, error) {
	if read != nil {
		return p.priorOf(read, wantBasis, display)
	}
	ft, other, err := p.textForWrite(ctx, key, wantBasis, display)
	switch {
	case err != nil:
		return ft, priorFile{}, err
	case other != nil:
		return ft, *other, nil
	}
	prior, err := readPrior(ctx, key, p.diffBasisMaxBytes, wantBasis)
	return ft, prior, err
}

// priorOf is priorText from what a recheck read: readPrior's basis bound on the stored bytes for
// UTF-8, textForWrite's bounds (maxFileBytes on the stored bytes, the basis bound on the decoded
// text) for another charset.
func (p *Provider) priorOf(r *rechecked, wantBasis bool, display string) (fileText, priorFile, error) {
	n := r.size
	if r.ft.other() {
		if n > p.maxFileBytes {
			return r.ft, priorFile{}, fs.WriteTooLarge(display, n, p.maxFileBytes)
		}
		n = int64(len(r.doc.Raw))
	}
	prior := priorFile{bom: r.doc.BOM}
	if wantBasis && n < p.diffBasisMaxBytes {
		basis := r.doc.Content
		prior.basis = &basis
	}
	return r.ft, prior, nil
}
