package textedit

import "strings"

// splice replaces the count non-overlapping occurrences of old in d.Content
// (old and new LF-normalized) within d.Raw, which holds CRLF pairs: each match
// is mapped back to its span of raw bytes (a CRLF pair is one "\n" of the
// content, so a span never splits a pair), the bytes between spans are copied
// unchanged, and the line breaks of new take the style of the line it lands
// in (see rawMap.style). size is the length of the result (Edit.Size).
func (d Doc) splice(old, new string, count int, size int64) string {
	var b strings.Builder
	b.Grow(int(size))
	var crlfNew string // new in CRLF style, made once when needed
	rawEnd := 0
	d.spans(old, count, strings.Contains(new, "\n"), func(rs, re int, crlf bool) {
		b.WriteString(d.Raw[rawEnd:rs])
		rawEnd = re
		if !crlf {
			b.WriteString(new)
			return
		}
		if crlfNew == "" {
			crlfNew = RestoreLineEndings(new, CRLF)
		}
		b.WriteString(crlfNew)
	})
	b.WriteString(d.Raw[rawEnd:])
	return b.String()
}

// spans calls fn with the raw span [rs, re) of each of the count
// non-overlapping occurrences of old in d.Content, left to right, and whether
// new text placed there takes CRLF line breaks (decided only when the new
// text has line breaks: withBreaks).
func (d Doc) spans(old string, count int, withBreaks bool, fn func(rs, re int, crlf bool)) {
	m := rawMap{raw: d.Raw, pair: -1, nl: -1}
	at := 0
	for range count {
		s := at + strings.Index(d.Content[at:], old)
		at = s + len(old)
		rs, re := m.offset(s), m.offset(at)
		fn(rs, re, withBreaks && m.style(rs, re, d.Endings) == CRLF)
	}
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
