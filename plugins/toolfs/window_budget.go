package toolfs

import "math"

// room keeps a read window's rendered text within the result budget (docs/tool-fs.md "The result
// budget"): the envelope, each selected line as `<number>: <text>\n`, the blank line and the
// footer. A line is selected only if the text would still fit when the window ends right after it
// with the capped footer, so when the window ends otherwise and the actual footer is longer (a
// long total), dropping that last line makes it fit again. The first line is always selected: cut
// to fit when it alone is too long.
type room struct {
	max        int // bytes of the whole text; 0: no budget
	offset     int
	fixed      int // the envelope and the blank line before the footer
	used       int // the selected lines, numbered, each with its '\n'
	d, pow     int // the digits of the last number asked about (numbers only grow), and 10^d
	capped     int // the length of the capped footer ending at a line up to cappedTill
	cappedTill int // the last line whose capped footer is capped bytes long (-1: none yet)
}

func newRoom(req WindowRequest) room {
	if req.Budget <= 0 {
		return room{}
	}
	r := room{max: req.Budget, offset: req.Offset, fixed: envelopeLen(req.PathBytes) + 1, cappedTill: -1}
	r.d, r.pow = 1, 10
	return r
}

// digits is the length of n in decimal, for n at least the last number asked about.
func (r *room) digits(n int) int {
	for n >= r.pow && r.d < len(pow10) {
		r.d++
		r.pow *= 10
	}
	return r.d
}

// fits reports whether line n with a text of textLen bytes may be selected.
func (r *room) fits(n, textLen int) bool {
	d := r.digits(n)
	return r.fixed+r.used+d+textLen+3+r.cappedLen(n) <= r.max
}

// cappedLen is the length of the capped footer of a window ending at line n (n at least the last
// number asked about), found by rendering the footer. The footer spells its numbers in decimal,
// so its length holds while n and n+1 keep their digits: it is rendered again only when they
// gain one.
func (r *room) cappedLen(n int) int {
	if n > r.cappedTill {
		r.capped = readFooterLen(r.offset, n, 0, true)
		r.cappedTill = n
		if n+1 < r.pow-1 { // r.pow is 10^digits(n): n and n+1 keep their digits up to r.pow-2
			r.cappedTill = r.pow - 2
		}
	}
	return r.capped
}

// add counts line n, selected with a text of textLen bytes.
func (r *room) add(n, textLen int) { r.used += r.digits(n) + textLen + 3 }

// alone is the bytes the text of line n may have when it is the first line selected and does
// not fit: what is left beside the longest footer the window could end with.
func (r *room) alone(n int) int {
	footer := max(readFooterLen(r.offset, n, 0, true), readFooterLen(r.offset, n, math.MaxInt, false))
	return r.max - r.fixed - r.used - digits(n) - 3 - footer
}

// over reports whether a window of selected lines (at least two) ending at endLine of total
// lines, requested with limit, is over the budget with the footer the renderer will choose.
func (r *room) over(selected, limit, endLine, total int) bool {
	if r.max == 0 || selected < 2 {
		return false
	}
	return r.fixed+r.used+readFooterLen(r.offset, endLine, total, selected < limit && endLine < total) > r.max
}

// fitLength returns how many bytes of content (a line's kept text, without a truncation suffix) to
// keep, and how many code points they hold, so that they and the suffix of that many code points
// fit n bytes; at least one code point is kept. ok is false when content has none to spare.
func fitLength[T string | []byte](content T, n int) (keep, points int, ok bool) {
	avail := n - suffixLen(max(n, 0))
	if avail >= len(content) {
		avail = len(content) - 1
	}
	keep = max(avail, 0)
	for keep > 0 && content[keep]&0xC0 == 0x80 {
		keep--
	}
	if keep == 0 {
		keep = cut(content, 1)
	}
	return keep, countLeading(content[:keep]), keep < len(content)
}
