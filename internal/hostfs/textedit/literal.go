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

// Apply performs a literal edit of the document. oldString and newString are
// CRLF-normalized first and oldString is matched against d.Content;
// occurrences are counted non-overlapping, left to right (after a match the
// scan resumes at its end). Zero occurrences fail NotFound, more than one
// without replaceAll fails Ambiguous (count holds the number of matches).
// Otherwise every occurrence is replaced verbatim (no pattern expansion) in
// the file's own bytes, d.Raw: body is d.Raw with each matched span replaced
// by newString, every byte outside the spans unchanged (see splice for the
// line breaks of the new text). count is the number of matches.
func (d Doc) Apply(oldString, newString string, replaceAll bool) (body string, count int, f Failure) {
	oldString = NormalizeLF(oldString)
	if oldString == "" {
		return "", 0, EmptyOld
	}
	newString = NormalizeLF(newString)
	count = strings.Count(d.Content, oldString)
	switch {
	case count == 0:
		return "", 0, NotFound
	case count > 1 && !replaceAll:
		return "", count, Ambiguous
	}
	if len(d.Raw) == len(d.Content) {
		// No CRLF pair: the raw text is the matched text, and every line break
		// next to a span is LF.
		return strings.Replace(d.Raw, oldString, newString, count), count, None
	}
	return d.splice(oldString, newString, count), count, None
}
