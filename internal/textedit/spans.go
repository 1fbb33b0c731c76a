package textedit

import "strings"

// Spans calls fn with each span [rs, re) of the document's Raw text that the edit replaces, left
// to right, and the text that replaces it (the new text in the line-break style it takes there):
// Body is Raw with exactly these replacements. A caller storing the text in another charset
// re-encodes only these texts.
func (e Edit) Spans(fn func(rs, re int, text string)) {
	if len(e.doc.Raw) == len(e.doc.Content) {
		at := 0
		for range e.count {
			s := at + strings.Index(e.doc.Raw[at:], e.old)
			at = s + len(e.old)
			fn(s, at, e.new)
		}
		return
	}
	var crlfNew string
	e.doc.spans(e.old, e.count, strings.Contains(e.new, "\n"), func(rs, re int, crlf bool) {
		if !crlf {
			fn(rs, re, e.new)
			return
		}
		if crlfNew == "" {
			crlfNew = RestoreLineEndings(e.new, CRLF)
		}
		fn(rs, re, crlfNew)
	})
}
