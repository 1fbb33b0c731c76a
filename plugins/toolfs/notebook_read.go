package toolfs

import (
	"context"
	"encoding/base64"
	"strconv"
	"strings"

	"github.com/cordon-dev/cordon/internal/notebook"
	"github.com/cordon-dev/cordon/plugins/attachments"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/tools/filetool"
)

// NotebookPage is the notebook part of a read's value (docs/notebooks.md "Value"): the format,
// the cells of the page and how many the notebook has.
type NotebookPage struct {
	Format     string         `json:"nbformat"`
	Language   string         `json:"language,omitempty"`
	Cells      []NotebookCell `json:"cells"`
	TotalCells int            `json:"totalCells"`
}

// NotebookCell is one cell of a notebook page: its 1-based number, the id notebook_edit names
// it by, its type, its view as the text shows it, and the images of its outputs that the
// result carries (in order; the view's markers number them across the page).
type NotebookCell struct {
	Number int                    `json:"number"`
	ID     string                 `json:"id"`
	Type   string                 `json:"type"`
	Text   string                 `json:"text"`
	Images []attachments.ImageRef `json:"images,omitempty"`
}

// The read envelope of a notebook (docs/notebooks.md "The text the model sees"; read.notebook.* of
// texts.json).
var (
	notebookEnvelope  = fsText.Template("read.notebook.envelope", "path", "format", "body")
	notebookFooterWin = fsText.Template("read.notebook.footer.window", "first", "last", "total", "next")
	notebookFooterEnd = fsText.Template("read.notebook.footer.end", "total")
)

// noteLine is the line a .ipynb read as text gets, saying why ("" for no note).
func noteLine(why string) string {
	if why == "" {
		return ""
	}
	return fsText.MustRender("read.notebook.as_text", "why", why) + "\n"
}

// notebookHeader is the envelope's notebook line: the format and the language clause.
func notebookHeader(p *NotebookPage) string {
	if p.Language != "" {
		return fsText.MustRender("read.notebook.format.language", "format", p.Format, "language", p.Language)
	}
	return fsText.MustRender("read.notebook.format", "format", p.Format)
}

// notebookFooter is the footer of a page of cells first..last (1-based) of total.
func notebookFooter(first, last, total int) string {
	if last < total {
		return notebookFooterWin.RenderInts(first, last, total, last+1)
	}
	return notebookFooterEnd.RenderInts(total)
}

// RenderNotebookRead renders the text block of a notebook read.
func RenderNotebookRead(v ReadValue) string {
	p := v.Notebook
	var b strings.Builder
	for _, c := range p.Cells {
		b.WriteString(c.Text)
	}
	last := v.Offset - 1
	if n := len(p.Cells); n > 0 {
		last = p.Cells[n-1].Number
		b.WriteByte('\n')
	}
	b.WriteString(notebookFooter(v.Offset, last, p.TotalCells))
	return notebookEnvelope.Render(v.Path, notebookHeader(p), b.String())
}

// renderNotebookContent is the content of a notebook read: the text, then each image the page
// carries.
func (s *suite) renderNotebookContent(v ReadValue) []tools.Content {
	out := []tools.Content{tools.TextContent(RenderNotebookRead(v))}
	k := 0
	for _, c := range v.Notebook.Cells {
		for _, ref := range c.Images {
			var data []byte
			if k < len(v.images) {
				data = v.images[k]
			} else {
				data = s.imageBytes(ReadImageValue{Image: ref})
			}
			k++
			out = append(out, tools.ImageContent(string(ref.MediaType), base64.StdEncoding.EncodeToString(data)))
		}
	}
	return out
}

// readNotebook is read of a .ipynb file (docs/notebooks.md "read"): the whole text, parsed; a
// page of cells from the offset, within the limit (in cells), the result budget and the image
// limits; then the present observation at the look's version. A text that is not an nbformat-4
// notebook returns why ("" otherwise) and the text it read, for read to show as text.
func (s *suite) readNotebook(ctx context.Context, in readInput, target fs.Target, info *fs.Info, pre *fs.ReadOutcome, rerr error, exec *tools.Exec) (ReadValue, string, *fs.ReadOutcome, error) {
	dp := target.DisplayPath
	if !info.HasSize || info.Size > notebook.MaxBytes {
		return ReadValue{}, "it is larger than " + strconv.Itoa(notebook.MaxBytes) + " bytes", nil, nil
	}
	read, err := s.readText(ctx, target, pre, rerr)
	if err != nil {
		return ReadValue{}, "", nil, filetool.WithCharsetGuidance(err)
	}
	nb, err := notebook.Parse(read.Text)
	if err != nil {
		return ReadValue{}, notebook.Reason(err), &read, nil
	}
	total := len(nb.Cells)
	if in.offset > total && (in.offset != 1 || total != 0) {
		return ReadValue{}, "", nil, fs.NewError(fs.CodeNotFound, "offset "+in.offsetText+" is out of range for \""+dp+"\" ("+strconv.Itoa(total)+" cells)", nil)
	}
	page := &NotebookPage{Format: strconv.Itoa(nb.Major) + "." + strconv.Itoa(nb.Minor), Language: nb.Language, Cells: []NotebookCell{}, TotalCells: total}
	pg := newPager(s, ctx, exec, dp, nb, page, s.caps.budget.For(exec.Header().Client))
	pg.fill(in.offset, in.limit)
	if err := s.ft.Observe(ctx, target, fs.Present(info.Version), exec); err != nil {
		return ReadValue{}, "", nil, err
	}
	return ReadValue{Path: dp, Offset: in.offset, Lines: []Line{}, Notebook: page, images: pg.data}, "", nil, nil
}

// pager fills a page of cells.
type pager struct {
	s      *suite
	ctx    context.Context
	dp     string
	nb     *notebook.Notebook
	page   *NotebookPage
	budget int
	fixed  int // the envelope's bytes
	used   int // the cells' bytes so far

	adm       filetool.ImageAdmission
	admErr    error
	data      [][]byte // the stored bytes of the page's images
	imageSize int      // their source bytes
}

func newPager(s *suite, ctx context.Context, exec *tools.Exec, dp string, nb *notebook.Notebook, page *NotebookPage, budget int) *pager {
	pg := &pager{s: s, ctx: ctx, dp: dp, nb: nb, page: page, budget: budget}
	pg.fixed = len(notebookEnvelope.Render(dp, notebookHeader(page), "")) + 1 // the envelope, rendered, and the blank line
	if hasImages(nb) {
		pg.adm, pg.admErr = s.ft.AdmitEmbeddedImages(ctx, exec, dp)
	}
	return pg
}

func hasImages(nb *notebook.Notebook) bool {
	for _, c := range nb.Cells {
		for _, o := range c.Outputs {
			if len(o.Images) > 0 {
				return true
			}
		}
	}
	return false
}

// fill adds cells from offset (1-based) while fewer than limit are on the page and the text
// fits the budget with the longest footer after it; the first cell is always shown (cut to
// its first source lines when it alone is over the budget, and then alone on its page).
func (pg *pager) fill(offset, limit int) {
	total := len(pg.nb.Cells)
	for i := offset - 1; i < total && len(pg.page.Cells) < limit; i++ {
		first := len(pg.page.Cells) == 0
		room := pg.budget - pg.fixed - pg.used - max(len(notebookFooter(offset, i+1, total)), len(notebookFooter(offset, total, total)))
		cell, data, ok := pg.cell(i, first)
		if !ok {
			return
		}
		if len(cell.Text) > room {
			if !first {
				return
			}
			// A cell cut to fit is a page of its own.
			pg.page.Cells = append(pg.page.Cells, pg.cut(i, room))
			return
		}
		pg.used += len(cell.Text)
		pg.data = append(pg.data, data...)
		pg.page.Cells = append(pg.page.Cells, cell)
	}
}

// cell renders cell i with its images saved to the store; ok is false when a cell that is not
// the page's first would take the page's images past a limit (the next page shows it).
func (pg *pager) cell(i int, first bool) (NotebookCell, [][]byte, bool) {
	var refs []attachments.ImageRef
	var data [][]byte
	count, size := len(pg.data), pg.imageSize
	refused := false
	view := notebook.RenderCell(nil, pg.nb, i, notebook.RenderOptions{
		MaxLineLength: pg.s.caps.maxLineLength,
		Image: func(k int, img notebook.Image) string {
			ref, stored, raw, why := pg.image(i, k, img, count, size)
			if why != "" {
				if !first && strings.HasPrefix(why, "this result") {
					refused = true
				}
				return "[" + img.MediaType + " image not shown: " + why + "]"
			}
			count++
			size += raw
			refs = append(refs, ref)
			data = append(data, stored)
			return "[image " + strconv.Itoa(count) + " of this result: " + string(ref.MediaType) + ", " +
				strconv.Itoa(ref.Width) + "x" + strconv.Itoa(ref.Height) + " px]"
		},
	})
	if refused {
		return NotebookCell{}, nil, false
	}
	pg.imageSize = size
	return NotebookCell{Number: i + 1, ID: pg.nb.DisplayID(i), Type: pg.nb.Cells[i].Type, Text: string(view), Images: refs}, data, true
}

// image admits, decodes and saves the k-th image of cell i, given the page's count and source
// bytes so far; why is the reason it is not shown ("" when it is).
func (pg *pager) image(i, k int, img notebook.Image, count, size int) (ref attachments.ImageRef, stored []byte, raw int, why string) {
	if pg.admErr != nil {
		return ref, nil, 0, pg.admErr.Error()
	}
	lim := pg.adm.Limits
	mt := attachments.MediaType(img.MediaType)
	if !lim.Accepts(mt) {
		return ref, nil, 0, img.MediaType + " images are not accepted by this deployment"
	}
	b, err := base64.StdEncoding.DecodeString(strings.Map(dropSpace, img.Base64))
	if err != nil {
		return ref, nil, 0, "its base64 data does not decode"
	}
	switch {
	case len(b) > lim.MaxImageBytes:
		return ref, nil, 0, strconv.Itoa(len(b)) + " bytes exceeds the " + strconv.Itoa(lim.MaxImageBytes) + "-byte limit"
	case count >= lim.MaxImagesPerMessage:
		return ref, nil, 0, "this result already carries " + strconv.Itoa(count) + " images, the most one result may"
	case size+len(b) > lim.MaxMessageImageBytes:
		return ref, nil, 0, "this result's images would exceed " + strconv.Itoa(lim.MaxMessageImageBytes) + " bytes"
	}
	name := strings.TrimSuffix(baseName(pg.dp), filetool.ExtName(pg.dp)) + "-cell" + strconv.Itoa(i+1) + "-" + strconv.Itoa(k+1)
	ref, err = pg.adm.Store.SaveImage(pg.ctx, attachments.SaveImage{Data: b, MediaType: mt, Name: name})
	if err != nil {
		return ref, nil, 0, firstLine(err.Error())
	}
	got, err := pg.adm.Store.ReadImage(pg.ctx, ref)
	if err != nil {
		return ref, nil, 0, firstLine(err.Error())
	}
	return ref, got.Data, len(b), ""
}

// cut is cell i reduced to the source lines that fit room bytes (at least one), without outputs.
func (pg *pager) cut(i, room int) NotebookCell {
	n := len(notebook.SourceLines(pg.nb.Cells[i].Source))
	lo, hi := 1, max(1, n)
	render := func(k int) []byte {
		return notebook.RenderCell(nil, pg.nb, i, notebook.RenderOptions{MaxLineLength: pg.s.caps.maxLineLength, SourceLines: k})
	}
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if len(render(mid)) <= room {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return NotebookCell{Number: i + 1, ID: pg.nb.DisplayID(i), Type: pg.nb.Cells[i].Type, Text: string(render(lo))}
}

func dropSpace(r rune) rune {
	if r == '\n' || r == '\r' || r == ' ' || r == '\t' {
		return -1
	}
	return r
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
