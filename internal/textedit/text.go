package textedit

import (
	"bytes"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// BOM is the UTF-8 encoding of U+FEFF, the byte order mark.
const BOM = "\xEF\xBB\xBF"

// detectSampleRunes is how many leading characters DetectLineEndings inspects.
const detectSampleRunes = 4096

// LineEndings is the dominant line-ending style of a text.
type LineEndings int

// The two line-ending styles.
const (
	LF LineEndings = iota
	CRLF
)

// String returns "LF" or "CRLF".
func (l LineEndings) String() string {
	if l == CRLF {
		return "CRLF"
	}
	return "LF"
}

// SplitBOM reports whether b starts with a UTF-8 BOM and returns b without it.
func SplitBOM(b []byte) (rest []byte, hadBOM bool) {
	if bytes.HasPrefix(b, []byte(BOM)) {
		return b[len(BOM):], true
	}
	return b, false
}

// TrimBOM returns s without one leading UTF-8 BOM.
func TrimBOM(s string) string {
	return strings.TrimPrefix(s, BOM)
}

// NormalizeLF replaces every CRLF pair with LF in one left-to-right pass. A lone
// CR (one not immediately followed by LF) is kept. When s has no CRLF pair, s
// itself is returned without copying.
func NormalizeLF(s string) string {
	if !strings.Contains(s, "\r\n") {
		return s
	}
	return strings.ReplaceAll(s, "\r\n", "\n")
}

// DetectLineEndings measures the dominant style on the first 4096 characters
// (Unicode code points) of the raw, not yet normalized text: CRLF when CRLF
// pairs outnumber bare LFs (LF not preceded by CR), LF otherwise (ties and texts
// without newlines are LF). A CRLF pair cut by the sample boundary counts as
// neither.
func DetectLineEndings(raw string) LineEndings {
	sample := raw
	n := 0
	for i := range raw {
		if n == detectSampleRunes {
			sample = raw[:i]
			break
		}
		n++
	}
	crlf := strings.Count(sample, "\r\n")
	bare := strings.Count(sample, "\n") - crlf
	if crlf > bare {
		return CRLF
	}
	return LF
}

// RestoreLineEndings converts LF-normalized text to style le (the new text of
// an edit). LF returns s unchanged. CRLF turns every LF into CRLF; because s
// is already normalized, every CR that precedes an LF in s was a lone CR in the
// source and is kept (so "\r\n" in s becomes "\r\r\n", the exact inverse of
// NormalizeLF).
func RestoreLineEndings(s string, le LineEndings) string {
	if le == LF {
		return s
	}
	return strings.ReplaceAll(s, "\n", "\r\n")
}

// OwnedString returns b as a string without copying. The caller hands b over:
// it must never be modified again.
func OwnedString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// Doc is a text file prepared for a literal edit.
type Doc struct {
	// Raw is the text after the BOM, byte for byte: what an edit splices.
	Raw string
	// Content is Raw with its CRLF pairs replaced by LF: what an edit
	// matches.
	Content string
	// Endings is the dominant style detected on Raw: the style of an edit's
	// new text when nothing closer decides it.
	Endings LineEndings
	// BOM reports whether the file started with a UTF-8 BOM.
	BOM bool
}

// Decode prepares raw file bytes for editing. A NUL byte anywhere fails with
// Binary (checked first), invalid UTF-8 fails with InvalidUTF8.
//
// Decode takes ownership of b: the returned Content may share its memory, so
// the caller must not modify b afterwards.
func Decode(b []byte) (Doc, Failure) {
	if bytes.IndexByte(b, 0) >= 0 {
		return Doc{}, Binary
	}
	body, bom := SplitBOM(b)
	if !utf8.Valid(body) {
		return Doc{}, InvalidUTF8
	}
	raw := OwnedString(body)
	return Doc{Raw: raw, Content: NormalizeLF(raw), Endings: DetectLineEndings(raw), BOM: bom}, None
}
