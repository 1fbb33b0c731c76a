// Package editmodel is an independent model of the host provider's literal edit on a
// file's bytes, for the tests and fuzz targets of textedit and hostfs. It
// works on a different representation from the implementation (the file as a
// sequence of units, each CRLF pair one unit) so that the two can be compared.
package editmodel

import (
	"strings"
	"unicode/utf8"
)

// The failures of Edit ("" is success).
const (
	Binary      = "binary"
	InvalidUTF8 = "invalid-utf8"
	EmptyOld    = "empty-old"
	NotFound    = "not-found"
	Ambiguous   = "ambiguous"
)

// Result is what the model expects of one edit.
type Result struct {
	Failure string
	Count   int // matches (also for Ambiguous)
	// Disk is the whole new file, BOM included.
	Disk string
	// Gaps are the file's bytes outside the replaced spans, in order: before
	// the first span, between spans, after the last (Count+1 of them; the BOM
	// is not in Gaps[0]).
	Gaps []string
}

type unit struct {
	raw  string
	norm byte
}

// Edit is the expected outcome of editing file with old, new and replaceAll:
// a NUL anywhere is Binary, invalid UTF-8 after a leading BOM InvalidUTF8;
// old and new are CRLF-normalized and old is matched non-overlapping, left to
// right, on the file's text with every CRLF pair read as LF; each match's
// bytes are replaced by new, whose line breaks are CRLF when the span's CRLF
// pairs outnumber its bare LFs, LF when the bare LFs outnumber the pairs, and
// otherwise those of the first line break after the span, or with none the
// style that dominates the file's first 4096 characters.
func Edit(file, old, new string, replaceAll bool) Result {
	if strings.IndexByte(file, 0) >= 0 {
		return Result{Failure: Binary}
	}
	bom := strings.HasPrefix(file, "\uFEFF")
	body := strings.TrimPrefix(file, "\uFEFF")
	if !utf8.ValidString(body) {
		return Result{Failure: InvalidUTF8}
	}
	lf := func(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }
	old, new = lf(old), lf(new)
	if old == "" {
		return Result{Failure: EmptyOld}
	}
	var units []unit
	for i := 0; i < len(body); i++ {
		if body[i] == '\r' && i+1 < len(body) && body[i+1] == '\n' {
			units = append(units, unit{"\r\n", '\n'})
			i++
			continue
		}
		units = append(units, unit{body[i : i+1], body[i]})
	}
	normBytes := make([]byte, len(units))
	for i, u := range units {
		normBytes[i] = u.norm
	}
	norm := string(normBytes)
	var starts []int
	for i := 0; ; {
		j := strings.Index(norm[i:], old)
		if j < 0 {
			break
		}
		starts = append(starts, i+j)
		i += j + len(old)
	}
	switch {
	case len(starts) == 0:
		return Result{Failure: NotFound}
	case len(starts) > 1 && !replaceAll:
		return Result{Failure: Ambiguous, Count: len(starts)}
	}
	raw := func(us []unit) string {
		var b strings.Builder
		for _, u := range us {
			b.WriteString(u.raw)
		}
		return b.String()
	}
	res := Result{Count: len(starts)}
	var disk strings.Builder
	if bom {
		disk.WriteString("\uFEFF")
	}
	dominant := dominantCRLF(body)
	prev := 0
	for _, s := range starts {
		e := s + len(old)
		res.Gaps = append(res.Gaps, raw(units[prev:s]))
		disk.WriteString(res.Gaps[len(res.Gaps)-1])
		if crlfStyle(units, s, e, dominant) {
			disk.WriteString(strings.ReplaceAll(new, "\n", "\r\n"))
		} else {
			disk.WriteString(new)
		}
		prev = e
	}
	res.Gaps = append(res.Gaps, raw(units[prev:]))
	disk.WriteString(res.Gaps[len(res.Gaps)-1])
	res.Disk = disk.String()
	return res
}

// crlfStyle decides the style of new text replacing units[s:e].
func crlfStyle(units []unit, s, e int, dominant bool) bool {
	crlf, bare := 0, 0
	for _, u := range units[s:e] {
		switch u.raw {
		case "\r\n":
			crlf++
		case "\n":
			bare++
		}
	}
	if crlf != bare {
		return crlf > bare
	}
	for _, u := range units[e:] {
		if u.norm == '\n' {
			return u.raw == "\r\n"
		}
	}
	return dominant
}

// dominantCRLF reports CRLF pairs outnumbering bare LFs in the first 4096
// characters of body.
func dominantCRLF(body string) bool {
	sample := []rune(body)
	if len(sample) > 4096 {
		sample = sample[:4096]
	}
	crlf, bare := 0, 0
	for i, r := range sample {
		if r == '\n' {
			if i > 0 && sample[i-1] == '\r' {
				crlf++
			} else {
				bare++
			}
		}
	}
	return crlf > bare
}

// KeepsGaps reports whether disk holds the gaps of r unchanged and in order,
// the first right after the BOM (when bom) and the last at the very end:
// the property "bytes outside the replaced spans never change", checked
// without the model's choice of line breaks.
func (r Result) KeepsGaps(disk string, bom bool) bool {
	if bom {
		if !strings.HasPrefix(disk, "\uFEFF") {
			return false
		}
		disk = disk[len("\uFEFF"):]
	}
	last := r.Gaps[len(r.Gaps)-1]
	if !strings.HasPrefix(disk, r.Gaps[0]) || !strings.HasSuffix(disk, last) || len(disk) < len(r.Gaps[0])+len(last) {
		return false
	}
	mid := disk[len(r.Gaps[0]) : len(disk)-len(last)]
	for _, g := range r.Gaps[1 : len(r.Gaps)-1] {
		i := strings.Index(mid, g)
		if i < 0 {
			return false
		}
		mid = mid[i+len(g):]
	}
	return true
}
