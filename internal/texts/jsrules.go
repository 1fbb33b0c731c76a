package texts

import (
	"math"
	"strconv"
	"strings"
)

// Space reports whether r is one of the characters JavaScript's String.prototype.trim removes:
// ECMA-262 WhiteSpace (TAB, VT, FF, SP, NBSP, ZWNBSP U+FEFF and the Space_Separator class) and
// LineTerminator (LF, CR, LS, PS). U+0085 and U+200B are not among them.
func Space(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

// Trim is String.prototype.trim.
func Trim(s string) string { return strings.TrimFunc(s, Space) }

// IsBlank reports whether s is empty after Trim.
func IsBlank(s string) bool { return strings.TrimLeftFunc(s, Space) == "" }

// IsInteger is Number.isInteger: f is finite and has no fractional part (-0 included).
func IsInteger(f float64) bool { return !math.IsInf(f, 0) && f == math.Trunc(f) }

// Number spells a finite float64 as Number#toString does: the shortest digits that read back as f,
// in plain notation from 1e-7 up to 1e21 exclusive and in exponent notation (1e+21, 1.5e-7) outside.
func Number(f float64) string {
	if f == 0 {
		return "0" // -0 too
	}
	neg := f < 0
	if neg {
		f = -f
	}
	mant, expStr, _ := strings.Cut(strconv.FormatFloat(f, 'e', -1, 64), "e") // d.ddd, ±x
	digits := strings.Replace(mant, ".", "", 1)
	exp, _ := strconv.Atoi(expStr)
	n, k := exp+1, len(digits) // the decimal point sits n digits into digits
	var out string
	switch {
	case k <= n && n <= 21:
		out = digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		out = digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		out = "0." + strings.Repeat("0", -n) + digits
	default:
		x, sign := n-1, "+"
		if x < 0 {
			x, sign = -x, "-"
		}
		out = digits[:1]
		if k > 1 {
			out += "." + digits[1:]
		}
		out += "e" + sign + strconv.Itoa(x)
	}
	if neg {
		return "-" + out
	}
	return out
}

const hexDigits = "0123456789abcdef"

// Quote is JSON.stringify of a string: `"` and `\` escaped, the control characters as \b \f \n \r
// \t or \u00XX, everything else (non-ASCII, '<', '>', '&', U+2028 and U+2029 included) as it is;
// a byte that is not valid UTF-8 becomes U+FFFD, as a file name decoded by Node would.
func Quote(s string) string {
	var sb strings.Builder
	sb.Grow(len(s) + 2)
	sb.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			sb.WriteString(`\"`)
		case '\\':
			sb.WriteString(`\\`)
		case '\b':
			sb.WriteString(`\b`)
		case '\f':
			sb.WriteString(`\f`)
		case '\n':
			sb.WriteString(`\n`)
		case '\r':
			sb.WriteString(`\r`)
		case '\t':
			sb.WriteString(`\t`)
		default:
			if r < 0x20 {
				sb.WriteString(`\u00`)
				sb.WriteByte(hexDigits[r>>4])
				sb.WriteByte(hexDigits[r&0xf])
			} else {
				sb.WriteRune(r)
			}
		}
	}
	sb.WriteByte('"')
	return sb.String()
}
