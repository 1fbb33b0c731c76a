package textedit

import "strings"

// Failure classifies why decoding or a literal edit was refused.
type Failure int

// The failure kinds; None means success.
const (
	None Failure = iota
	// Binary: the bytes contain a NUL.
	Binary
	// InvalidUTF8: the bytes are not valid UTF-8.
	InvalidUTF8
	// EmptyOld: old_string is empty after CRLF normalization.
	EmptyOld
	// NotFound: old_string does not occur.
	NotFound
	// Ambiguous: old_string occurs more than once and replaceAll is false.
	Ambiguous
)

// String names the failure kind.
func (f Failure) String() string {
	switch f {
	case None:
		return "none"
	case Binary:
		return "binary"
	case InvalidUTF8:
		return "invalid-utf8"
	case EmptyOld:
		return "empty-old"
	case NotFound:
		return "not-found"
	case Ambiguous:
		return "ambiguous"
	}
	return "unknown"
}

// Edit is a literal edit of a Doc, planned by Doc.Plan: its match count and
// the byte size of the text it produces are known before that text is built.
type Edit struct {
	doc      Doc
	old, new string // LF-normalized
	count    int
	at       int // the byte offset of the first match in doc.Content
	size     int64
}

// Count is the number of matches the edit replaces.
func (e Edit) Count() int { return e.count }

// Size is the byte length of Body (the BOM, if any, not included).
func (e Edit) Size() int64 { return e.size }

// Plan matches a literal edit of the document without building its result.
// oldString and newString are CRLF-normalized first and oldString is matched
// against d.Content; occurrences are counted non-overlapping, left to right
// (after a match the scan resumes at its end). Zero occurrences fail
// NotFound, more than one without replaceAll fails Ambiguous (the returned
// Edit's Count holds the number of matches). The size of the result is
// computed from the spans alone: len(d.Raw) plus, per match, the length of the
// new text in the style it takes minus that of the raw span it replaces.
func (d Doc) Plan(oldString, newString string, replaceAll bool) (Edit, Failure) {
	oldString = NormalizeLF(oldString)
	if oldString == "" {
		return Edit{}, EmptyOld
	}
	newString = NormalizeLF(newString)
	e := Edit{doc: d, old: oldString, new: newString, at: strings.Index(d.Content, oldString)}
	// One pass over the text: the first match, then the count of those after it.
	if e.at >= 0 {
		e.count = 1 + strings.Count(d.Content[e.at+len(oldString):], oldString)
	}
	switch {
	case e.count == 0:
		return Edit{}, NotFound
	case e.count > 1 && !replaceAll:
		return Edit{count: e.count}, Ambiguous
	}
	e.size = int64(len(d.Raw))
	if len(d.Raw) == len(d.Content) {
		e.size += int64(e.count) * (int64(len(newString)) - int64(len(oldString)))
		return e, None
	}
	breaks := int64(strings.Count(newString, "\n"))
	d.spans(oldString, e.count, breaks > 0, func(rs, re int, crlf bool) {
		e.size += int64(len(newString)) - int64(re-rs)
		if crlf {
			e.size += breaks
		}
	})
	return e, None
}

// Body builds the edited text: d.Raw with each matched span replaced by the
// new text, every byte outside the spans unchanged (see splice for the line
// breaks of the new text).
func (e Edit) Body() string {
	if len(e.doc.Raw) == len(e.doc.Content) {
		// No CRLF pair: the raw text is the matched text, and every line break
		// next to a span is LF.
		if e.count == 1 { // the match is known: no second search
			var b strings.Builder
			b.Grow(int(e.size))
			b.WriteString(e.doc.Raw[:e.at])
			b.WriteString(e.new)
			b.WriteString(e.doc.Raw[e.at+len(e.old):])
			return b.String()
		}
		return strings.Replace(e.doc.Raw, e.old, e.new, e.count)
	}
	return e.doc.splice(e.old, e.new, e.count, e.size)
}

// Apply is Plan followed by Body: body is the edited text and count the
// number of matches (on Ambiguous too).
func (d Doc) Apply(oldString, newString string, replaceAll bool) (body string, count int, f Failure) {
	e, f := d.Plan(oldString, newString, replaceAll)
	if f != None {
		return "", e.count, f
	}
	return e.Body(), e.count, None
}
