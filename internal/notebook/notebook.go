// Package notebook reads and edits Jupyter notebooks (nbformat 4) the way nbformat does, keeping
// the file's own bytes: a parsed notebook remembers where each cell's bytes are, so an edit
// changes one cell's bytes (or the bytes between two cells) and leaves every other byte as it
// was; the edited cell is written exactly as nbformat writes it (Python's json.dumps with
// indent=1 and sorted keys, ensure_ascii off, multi-line text split into lists of lines after
// the transient values are stripped). docs/notebooks.md says what the tools do with it.
//
// It is a leaf library: it imports nothing of Cordon.
package notebook

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
)

// Cell types.
const (
	TypeCode     = "code"
	TypeMarkdown = "markdown"
	TypeRaw      = "raw"
)

// Notebook is a parsed nbformat-4 notebook over its text.
type Notebook struct {
	text         string
	Major, Minor int
	// Language is metadata.language_info.name, else metadata.kernelspec.language ("" when neither).
	Language string
	Cells    []*Cell
	cells    *Value         // the cells array
	first    map[string]int // the first cell of each id
}

// Cell is one cell: its place, its id as the file holds it, its type and joined source.
type Cell struct {
	Index  int
	ID     string
	HasID  bool
	Type   string
	Source string
	// ExecutionCount is the literal of a code cell's execution_count ("" for null or absent).
	ExecutionCount string
	Outputs        []Output
	val            *Value
}

// Output is one output of a code cell, as far as read shows it.
type Output struct {
	Type string // output_type
	Name string // a stream's name
	// Text is a stream's text, or the text/plain of a result or display.
	Text string
	// EName, EValue and Traceback are an error's.
	EName, EValue string
	Traceback     []string
	// Images are the base64 image payloads of a result or display, in the bundle's key order.
	Images []Image
	// Other are the mime types of a result or display that are neither text/plain nor images.
	Other []string
}

// Image is an image of an output: its mime type and base64 payload (newlines included, as stored).
type Image struct {
	MediaType string
	Base64    string
}

// FormatError is a JSON text that is not an nbformat-4 notebook.
type FormatError struct{ Msg string }

func (e *FormatError) Error() string { return e.Msg }

// Parse parses text as an nbformat-4 notebook. A text that is not JSON fails with a
// *SyntaxError, JSON that is not an nbformat-4 notebook with a *FormatError.
func Parse(text string) (*Notebook, error) {
	root, err := ParseJSON(text)
	if err != nil {
		return nil, err
	}
	if root.Kind != Object {
		return nil, &FormatError{"the JSON is not an object"}
	}
	major := root.Get("nbformat")
	if major == nil || major.Kind != Number {
		return nil, &FormatError{"it has no nbformat version"}
	}
	if major.Str != "4" {
		return nil, &FormatError{"it is nbformat " + major.Str + "; only nbformat 4 is read as cells"}
	}
	nb := &Notebook{text: text, Major: 4}
	if minor := root.Get("nbformat_minor"); minor != nil && minor.Kind == Number {
		if n, err := strconv.Atoi(minor.Str); err == nil {
			nb.Minor = n
		}
	}
	cells := root.Get("cells")
	if cells == nil || cells.Kind != Array {
		return nil, &FormatError{"it has no cells list"}
	}
	nb.cells = cells
	nb.first = make(map[string]int, len(cells.Arr))
	for i, cv := range cells.Arr {
		c, err := parseCell(i, cv)
		if err != nil {
			return nil, err
		}
		nb.Cells = append(nb.Cells, c)
		if _, dup := nb.first[c.ID]; c.HasID && validID(c.ID) && !dup {
			nb.first[c.ID] = i
		}
	}
	if md := root.Get("metadata"); md != nil {
		if name := md.Get("language_info").Get("name"); name != nil && name.Kind == String {
			nb.Language = name.Str
		} else if lang := md.Get("kernelspec").Get("language"); lang != nil && lang.Kind == String {
			nb.Language = lang.Str
		}
	}
	return nb, nil
}

func parseCell(i int, cv *Value) (*Cell, error) {
	where := "cell " + strconv.Itoa(i)
	if cv.Kind != Object {
		return nil, &FormatError{where + " is not an object"}
	}
	typ := cv.Get("cell_type")
	if typ == nil || typ.Kind != String {
		return nil, &FormatError{where + " has no cell_type"}
	}
	c := &Cell{Index: i, Type: typ.Str, val: cv}
	if id := cv.Get("id"); id != nil && id.Kind == String {
		c.ID, c.HasID = id.Str, true
	}
	if src := cv.Get("source"); src != nil {
		s, err := Text(src)
		if err != nil {
			return nil, &FormatError{where + ": source is not a string or a list of strings"}
		}
		c.Source = s
	}
	if ec := cv.Get("execution_count"); ec != nil && ec.Kind == Number {
		c.ExecutionCount = ec.Str
	}
	if outs := cv.Get("outputs"); outs != nil && outs.Kind == Array {
		for _, ov := range outs.Arr {
			c.Outputs = append(c.Outputs, parseOutput(ov))
		}
	}
	return c, nil
}

// imageTypes are the output image types read shows as images.
var imageTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true}

func parseOutput(ov *Value) Output {
	var o Output
	if t := ov.Get("output_type"); t != nil && t.Kind == String {
		o.Type = t.Str
	}
	switch o.Type {
	case "stream":
		if n := ov.Get("name"); n != nil && n.Kind == String {
			o.Name = n.Str
		}
		o.Text, _ = Text(ov.Get("text"))
	case "error":
		if n := ov.Get("ename"); n != nil && n.Kind == String {
			o.EName = n.Str
		}
		if n := ov.Get("evalue"); n != nil && n.Kind == String {
			o.EValue = n.Str
		}
		if tb := ov.Get("traceback"); tb != nil && tb.Kind == Array {
			for _, l := range tb.Arr {
				if l.Kind == String {
					o.Traceback = append(o.Traceback, l.Str)
				}
			}
		}
	default:
		data := ov.Get("data")
		if data == nil || data.Kind != Object {
			break
		}
		for _, m := range sortedMembers(data.Obj) {
			switch {
			case m.Key == "text/plain":
				o.Text, _ = Text(m.Val)
			case imageTypes[m.Key]:
				if s, err := Text(m.Val); err == nil {
					o.Images = append(o.Images, Image{MediaType: m.Key, Base64: s})
				}
			default:
				o.Other = append(o.Other, m.Key)
			}
		}
	}
	return o
}

// Span returns where cell i's bytes are in the text.
func (nb *Notebook) Span(i int) (start, end int) {
	v := nb.Cells[i].val
	return v.Start, v.End
}

// MaxBytes is the largest notebook file the tools parse (docs/notebooks.md): read shows a larger
// one as text, notebook_edit refuses it before reading it.
const MaxBytes = 64 << 20

// IsPath reports whether a path names a Jupyter notebook: its last segment ends in ".ipynb" (any
// case) after at least one other character ("/a/.ipynb" is a dotfile, not a notebook).
func IsPath(p string) bool {
	base := p[strings.LastIndexAny(p, `/\`)+1:]
	return len(base) > len(".ipynb") && strings.EqualFold(base[len(base)-len(".ipynb"):], ".ipynb")
}

// Reason says, for a tool's message, why Parse refused a text: "it is not valid JSON (<what>
// at line <l>, column <c>)", or the *FormatError's message.
func Reason(err error) string {
	var se *SyntaxError
	if errors.As(err, &se) {
		return "it is not valid JSON (" + se.Error() + ")"
	}
	return err.Error()
}

// HasIDs reports whether the notebook's format has cell ids (nbformat 4.5 and later).
func (nb *Notebook) HasIDs() bool { return nb.Minor >= 5 }

// DisplayID is the id a tool names cell i by: its own id, or "cell-<i>" (0-based) for a cell
// without one (nbformat before 4.5), for a cell whose id an earlier cell already has, and for an
// id outside nbformat's pattern (1 to 64 of a-z, A-Z, 0-9, "-" and "_").
func (nb *Notebook) DisplayID(i int) string {
	if c := nb.Cells[i]; c.HasID && nb.firstWithID(c.ID) == i {
		return c.ID
	}
	return "cell-" + strconv.Itoa(i)
}

// validID reports whether id matches nbformat's cell id pattern, ^[a-zA-Z0-9-_]+$, in 1 to 64
// characters.
func validID(id string) bool {
	if len(id) == 0 || len(id) > 64 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// firstWithID is the index of the first cell whose id is id, or -1.
func (nb *Notebook) firstWithID(id string) int {
	if i, ok := nb.first[id]; ok {
		return i
	}
	return -1
}

// Find returns the index of the cell named id (as DisplayID names it), or -1.
func (nb *Notebook) Find(id string) int {
	if i := nb.firstWithID(id); i >= 0 {
		return i
	}
	if rest, ok := strings.CutPrefix(id, "cell-"); ok {
		if n, err := strconv.Atoi(rest); err == nil && n >= 0 && n < len(nb.Cells) && strconv.Itoa(n) == rest && nb.DisplayID(n) == id {
			return n
		}
	}
	return -1
}

// NewID returns a fresh cell id in nbformat's style (8 lower-case hex digits of a random UUID)
// that no cell of the notebook has.
func (nb *Notebook) NewID() string {
	for {
		var b [4]byte
		_, _ = rand.Read(b[:])
		id := hex.EncodeToString(b[:])
		if nb.Find(id) < 0 {
			return id
		}
	}
}

// ErrCellType is returned for a cell type other than code, markdown and raw.
var ErrCellType = errors.New("cell_type must be code, markdown or raw")

// Replace returns the text with cell i's source replaced, and its type changed when typ is not
// "" and differs (docs/notebooks.md "Replace"): the cell keeps its id, metadata, outputs and
// execution count while it stays a code cell; a cell that stops being code loses its outputs
// and execution count; a cell that becomes code gets empty outputs and a null execution count
// and loses its attachments.
func (nb *Notebook) Replace(i int, source, typ string) (string, error) {
	c := nb.Cells[i]
	if typ == "" {
		typ = c.Type
	}
	if !validType(typ) {
		return "", ErrCellType
	}
	obj := make([]Member, 0, len(c.val.Obj)+2)
	for _, m := range c.val.Obj {
		switch {
		case m.Key == "source", m.Key == "cell_type":
			continue
		case typ != TypeCode && (m.Key == "outputs" || m.Key == "execution_count"):
			continue
		case typ == TypeCode && m.Key == "attachments":
			continue
		}
		obj = append(obj, m)
	}
	obj = append(obj, Member{"cell_type", &Value{Kind: String, Str: typ}}, Member{"source", &Value{Kind: String, Str: source}})
	if typ == TypeCode && c.Type != TypeCode {
		obj = append(obj, Member{"execution_count", &Value{Kind: Null}}, Member{"outputs", &Value{Kind: Array}})
	}
	cell := Normalize(&Value{Kind: Object, Obj: obj})
	b := make([]byte, 0, len(nb.text)+len(source)*2)
	b = append(b, nb.text[:c.val.Start]...)
	b = Dump(b, cell, 2)
	b = append(b, nb.text[c.val.End:]...)
	return string(b), nil
}

// NewCell is a new cell as nbformat.v4's new_code_cell, new_markdown_cell and new_raw_cell make
// it; id is left out when it is "" (nbformat before 4.5 has no cell ids).
func NewCell(typ, id, source string) *Value {
	obj := []Member{{"cell_type", &Value{Kind: String, Str: typ}}, {"metadata", &Value{Kind: Object}}, {"source", &Value{Kind: String, Str: source}}}
	if id != "" {
		obj = append(obj, Member{"id", &Value{Kind: String, Str: id}})
	}
	if typ == TypeCode {
		obj = append(obj, Member{"execution_count", &Value{Kind: Null}}, Member{"outputs", &Value{Kind: Array}})
	}
	return Normalize(&Value{Kind: Object, Obj: obj})
}

// Insert returns the text with a new cell of typ and source after cell after (-1: at the
// start), with id (for nbformat 4.5 and later; "" before). The bytes between cells are the
// file's own where it has a separator to copy, else nbformat's.
func (nb *Notebook) Insert(after int, typ, id, source string) (string, error) {
	if !validType(typ) {
		return "", ErrCellType
	}
	cell := Dump(nil, NewCell(typ, id, source), 2)
	arr := nb.cells
	b := make([]byte, 0, len(nb.text)+len(cell)+8)
	if len(arr.Arr) == 0 {
		b = append(b, nb.text[:arr.Start]...)
		b = append(b, "[\n  "...)
		b = append(b, cell...)
		b = append(b, "\n ]"...)
		return string(append(b, nb.text[arr.End:]...)), nil
	}
	sep := nb.separator(after)
	if after < 0 {
		at := arr.Arr[0].Start
		b = append(b, nb.text[:at]...)
		b = append(b, cell...)
		b = append(b, sep...)
		return string(append(b, nb.text[at:]...)), nil
	}
	at := arr.Arr[after].End
	b = append(b, nb.text[:at]...)
	b = append(b, sep...)
	b = append(b, cell...)
	return string(append(b, nb.text[at:]...)), nil
}

// separator is the bytes between two cells near cell i: the file's own after i (or before it),
// else nbformat's.
func (nb *Notebook) separator(i int) string {
	arr := nb.cells.Arr
	switch {
	case i >= 0 && i+1 < len(arr):
		return nb.text[arr[i].End:arr[i+1].Start]
	case i >= 1:
		return nb.text[arr[i-1].End:arr[i].Start]
	case i < 0 && len(arr) > 1:
		return nb.text[arr[0].End:arr[1].Start]
	}
	return ",\n  "
}

// Delete returns the text without cell i and one separator next to it.
func (nb *Notebook) Delete(i int) string {
	arr := nb.cells.Arr
	switch {
	case len(arr) == 1:
		return nb.text[:nb.cells.Start] + "[]" + nb.text[nb.cells.End:]
	case i+1 < len(arr):
		return nb.text[:arr[i].Start] + nb.text[arr[i+1].Start:]
	}
	return nb.text[:arr[i-1].End] + nb.text[arr[i].End:]
}

func validType(t string) bool { return t == TypeCode || t == TypeMarkdown || t == TypeRaw }

// Normalize returns a cell as nbformat writes it after reading: multi-line fields that are lists
// of strings joined (rejoin_lines), metadata.trusted dropped (strip_transient), then the
// source, text mime types of bundles and stream texts split into lines (split_lines). v is not
// modified.
func Normalize(v *Value) *Value {
	cell := shallow(v)
	isCode := false
	if t := cell.Get("cell_type"); t != nil && t.Kind == String && t.Str == TypeCode {
		isCode = true
	}
	for k, m := range cell.Obj {
		switch m.Key {
		case "source":
			cell.Obj[k].Val = splitField(joinField(m.Val))
		case "attachments":
			if m.Val.Kind == Object {
				att := shallow(m.Val)
				for j, a := range att.Obj {
					att.Obj[j].Val = bundle(a.Val)
				}
				cell.Obj[k].Val = att
			}
		case "metadata":
			if m.Val.Kind == Object && m.Val.Get("trusted") != nil {
				md := &Value{Kind: Object}
				for _, mm := range m.Val.Obj {
					if mm.Key != "trusted" {
						md.Obj = append(md.Obj, mm)
					}
				}
				cell.Obj[k].Val = md
			}
		case "outputs":
			if isCode && m.Val.Kind == Array {
				outs := &Value{Kind: Array, Arr: make([]*Value, len(m.Val.Arr))}
				for j, o := range m.Val.Arr {
					outs.Arr[j] = normalizeOutput(o)
				}
				cell.Obj[k].Val = outs
			}
		}
	}
	return cell
}

func normalizeOutput(o *Value) *Value {
	if o.Kind != Object {
		return o
	}
	out := shallow(o)
	typ := ""
	if t := o.Get("output_type"); t != nil && t.Kind == String {
		typ = t.Str
	}
	for k, m := range out.Obj {
		switch {
		case (typ == "execute_result" || typ == "display_data") && m.Key == "data":
			out.Obj[k].Val = bundle(m.Val)
		case typ != "execute_result" && typ != "display_data" && typ != "" && m.Key == "text":
			t := joinField(m.Val)
			if typ == "stream" {
				t = splitField(t)
			}
			out.Obj[k].Val = t
		}
	}
	return out
}

// bundle rejoins and splits a mime bundle as nbformat does: lists of strings of a non-JSON type
// are joined; strings of text/*, application/javascript and image/svg+xml are split into lines.
func bundle(v *Value) *Value {
	if v.Kind != Object {
		return v
	}
	out := shallow(v)
	for k, m := range out.Obj {
		val := m.Val
		if !isJSONMime(m.Key) {
			val = joinField(val)
		}
		if val.Kind == String && (strings.HasPrefix(m.Key, "text/") || m.Key == "application/javascript" || m.Key == "image/svg+xml") {
			val = splitField(val)
		}
		out.Obj[k].Val = val
	}
	return out
}

func isJSONMime(m string) bool {
	return m == "application/json" || strings.HasPrefix(m, "application/") && strings.HasSuffix(m, "+json")
}

// joinField joins a list of strings into one string; any other value is returned as it is.
func joinField(v *Value) *Value {
	if v.Kind != Array {
		return v
	}
	s, err := Text(v)
	if err != nil {
		return v
	}
	return &Value{Kind: String, Str: s}
}

// splitField splits a string into its lines (SplitLines); any other value is returned as it is.
func splitField(v *Value) *Value {
	if v.Kind != String {
		return v
	}
	lines := SplitLines(v.Str)
	out := &Value{Kind: Array, Arr: make([]*Value, len(lines))}
	for i, l := range lines {
		out.Arr[i] = &Value{Kind: String, Str: l}
	}
	return out
}

// shallow copies an object or array one level deep.
func shallow(v *Value) *Value {
	c := *v
	c.Obj = append([]Member(nil), v.Obj...)
	c.Arr = append([]*Value(nil), v.Arr...)
	return &c
}
