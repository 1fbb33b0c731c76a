package hostfs

import (
	"github.com/cordon-dev/cordon/internal/textedit"
	"github.com/cordon-dev/cordon/plugins/fs"
)

// decodeForEdit applies the edit text rules to the whole file (NUL anywhere
// => FS_NOT_TEXT binary file, invalid UTF-8 => FS_NOT_TEXT invalid UTF-8 text;
// a leading BOM is set aside; the text is kept raw and CRLF-normalized).
func decodeForEdit(raw []byte, display string) (textedit.Doc, error) {
	doc, f := textedit.Decode(raw)
	switch f {
	case textedit.Binary:
		return textedit.Doc{}, fs.EditBinary(display)
	case textedit.InvalidUTF8:
		return textedit.Doc{}, fs.EditInvalidUTF8(display)
	}
	return doc, nil
}

// planLiteral matches the literal edit on doc and maps a refusal to its seam
// error. The edit's Body is the new file text after the BOM.
func planLiteral(doc textedit.Doc, req fs.EditRequest, display string) (textedit.Edit, error) {
	e, f := doc.Plan(req.OldString, req.NewString, req.ReplaceAll)
	switch f {
	case textedit.EmptyOld:
		return e, fs.OldStringEmpty()
	case textedit.NotFound:
		return e, fs.OldStringNotFound(display)
	case textedit.Ambiguous:
		return e, fs.AmbiguousEdit(e.Count(), display)
	}
	return e, nil
}

// bomBytes is the length of the BOM a publication writes before its text.
func bomBytes(bom bool) int64 {
	if bom {
		return int64(len(textedit.BOM))
	}
	return 0
}
