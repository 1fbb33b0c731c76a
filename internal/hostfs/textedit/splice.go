package textedit

import "strings"

// splice replaces the count non-overlapping occurrences of old in d.Content
// (old and new LF-normalized) within d.Raw, which holds CRLF pairs: each match
// is mapped back to its span of raw bytes (a CRLF pair is one "\n" of the
// content, so a span never splits a pair), the bytes between spans are copied
// unchanged, and the line breaks of new take the style of the line it lands
// in (see rawMap.style).
func (d Doc) splice(old, new string, count int) string {
	breaks := strings.Count(new, "\n")
	var b strings.Builder
	b.Grow(len(d.Raw) + count*max(0, len(new)+breaks-len(old)))
	m := rawMap{raw: d.Raw, pair: -1, nl: -1}
	var crlfNew string // new in CRLF style, made once when needed
	rawEnd, at := 0, 0
	for range count {
		s := at + strings.Index(d.Content[at:], old)
		at = s + len(old)
		rs, re := m.offset(s), m.offset(at)
		b.WriteString(d.Raw[rawEnd:rs])
		rawEnd = re
		if breaks == 0 || m.style(rs, re, d.Endings) == LF {
			b.WriteString(new)
			continue
		}
		if crlfNew == "" {
			crlfNew = RestoreLineEndings(new, CRLF)
		}
		b.WriteString(crlfNew)
	}
	b.WriteString(d.Raw[rawEnd:])
	return b.String()
}

// rawMap converts offsets of the LF-normalized content to offsets of the raw
// text it came from, for offsets that never decrease: it walks the CRLF pairs
// and line breaks of raw once.
type rawMap struct {
	raw  string
	n, r int // a content offset and its raw offset
	pair int // raw offset of the next CRLF pair at or after r; -1 unknown, len(raw) none
	nl   int // raw offset of the next "\n" at or after the last span; -1 unknown, len(raw) none
}

// offset returns the raw offset of content offset k (k >= every earlier k).
func (m *rawMap) offset(k int) int {
	for {
		if m.pair < m.r {
			m.pair = len(m.raw)
			if i := strings.Index(m.raw[m.r:], "\r\n"); i >= 0 {
				m.pair = m.r + i
			}
		}
		// Up to the pair, raw and content advance together; the pair's "\n"
		// is content offset pn.
		if pn := m.n + m.pair - m.r; m.pair < len(m.raw) && pn < k {
			m.n, m.r = pn+1, m.pair+2
			continue
		}
		m.r += k - m.n
		m.n = k
		return m.r
	}
}

// style is the line-break style of new text replacing the raw span [rs, re)
// (spans never go backwards): the span's own when its CRLF pairs or its bare
// LFs are the majority, else that of the line break ending the span's last
// line, else (that line has none) fallback.
func (m *rawMap) style(rs, re int, fallback LineEndings) LineEndings {
	span := m.raw[rs:re]
	crlf := strings.Count(span, "\r\n")
	switch bare := strings.Count(span, "\n") - crlf; {
	case crlf > bare:
		return CRLF
	case bare > crlf:
		return LF
	}
	if m.nl < re {
		m.nl = len(m.raw)
		if i := strings.IndexByte(m.raw[re:], '\n'); i >= 0 {
			m.nl = re + i
		}
	}
	switch {
	case m.nl == len(m.raw):
		return fallback
	case m.raw[m.nl-1] == '\r': // never the span's own byte: a span never ends inside a pair
		return CRLF
	}
	return LF
}
