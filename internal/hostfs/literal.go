package hostfs

import (
	"github.com/cordon-dev/cordon/internal/hostfs/textedit"
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

// applyLiteral runs the literal edit on doc and maps a refusal to its seam
// error. body is the new file text after the BOM.
func applyLiteral(doc textedit.Doc, req fs.EditRequest, display string) (body string, err error) {
	body, n, f := doc.Apply(req.OldString, req.NewString, req.ReplaceAll)
	switch f {
	case textedit.EmptyOld:
		return "", fs.OldStringEmpty()
	case textedit.NotFound:
		return "", fs.OldStringNotFound(display)
	case textedit.Ambiguous:
		return "", fs.AmbiguousEdit(n, display)
	}
	return body, nil
}
