package hostfs

import (
	"context"

	"github.com/cordon-dev/cordon/internal/charset"
	"github.com/cordon-dev/cordon/plugins/fs"
)

// storeUpdate is the stored form of an update's new text (docs/encodings.md), and whether a
// UTF-8 mark goes first: in the source's charset after its own mark (bom: its UTF-8 one), as an
// edit stores it. A moved file is stored in the charset its new path is read in: the one the
// encodings rules or .editorconfig declare there, else the charset of its own byte order mark,
// else UTF-8; when that is another charset than the source's, as WriteText stores a new file
// there. Text the charset cannot encode is edit's FS_NOT_TEXT (write's, for the destination's).
//
// The whole text is encoded: every charset accepted is stateless and the source round-tripped,
// so the characters outside the replaced lines encode back to their own bytes.
func (p *Provider) storeUpdate(ctx context.Context, c *planned, ft fileText, bom bool, text string) (string, bool, error) {
	if c.dst.Key != c.src.Key {
		d := p.charsets.DeclaredBeneath(readRoot(ctx), string(c.dst.Key))
		if (d.Declared() || ft.decl.Source != charset.SourceBOM) && d.Charset.Name() != ft.decl.Charset.Name() {
			stored, err := fileText{decl: d}.storeWrite(text, c.dst.DisplayPath)
			return stored, d.BOM && !hasBOM(text), err
		}
	}
	if !ft.other() {
		return text, bom, nil
	}
	stored, err := ft.encode(text, true, fs.VerbEdit, c.src.DisplayPath)
	return stored, false, err
}
