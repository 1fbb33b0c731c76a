package notebook

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Dump appends v as nbformat writes JSON: Python's json.dumps with indent=1, sort_keys=True,
// separators (",", ": ") and ensure_ascii=False. depth is the nesting level of v (its closing
// bracket is indented by depth spaces; the first line is not indented).
func Dump(b []byte, v *Value, depth int) []byte {
	switch v.Kind {
	case Object:
		members := sortedMembers(v.Obj)
		if len(members) == 0 {
			return append(b, "{}"...)
		}
		b = append(b, '{')
		for i, m := range members {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '\n')
			b = appendIndent(b, depth+1)
			b = appendQuoted(b, m.Key)
			b = append(b, ": "...)
			b = Dump(b, m.Val, depth+1)
		}
		b = append(b, '\n')
		b = appendIndent(b, depth)
		return append(b, '}')
	case Array:
		if len(v.Arr) == 0 {
			return append(b, "[]"...)
		}
		b = append(b, '[')
		for i, el := range v.Arr {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '\n')
			b = appendIndent(b, depth+1)
			b = Dump(b, el, depth+1)
		}
		b = append(b, '\n')
		b = appendIndent(b, depth)
		return append(b, ']')
	case String:
		return appendQuoted(b, v.Str)
	case Number:
		return append(b, pyNumber(v.Str)...)
	case Bool:
		return append(b, v.Str...)
	}
	return append(b, "null"...)
}

// sortedMembers returns the members of an object as a Python dict holds them (one per key, the
// last value), sorted by key in code point order (byte order of UTF-8).
func sortedMembers(obj []Member) []Member {
	out := make([]Member, 0, len(obj))
	for i, m := range obj {
		dup := false
		for _, later := range obj[i+1:] {
			if later.Key == m.Key {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, m)
		}
	}
	slices.SortStableFunc(out, func(a, b Member) int { return strings.Compare(a.Key, b.Key) })
	return out
}

func appendIndent(b []byte, n int) []byte {
	for range n {
		b = append(b, ' ')
	}
	return b
}

const hexDigits = "0123456789abcdef"

// appendQuoted appends s as Python's json.dumps(ensure_ascii=False) quotes it: `"` and `\`
// escaped, \n \r \t \b \f as such, other control characters below U+0020 as \u00xx (lower-case
// hex); everything else, U+007F and non-ASCII included, as it is.
func appendQuoted(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"':
			b = append(b, `\"`...)
		case '\\':
			b = append(b, `\\`...)
		case '\n':
			b = append(b, `\n`...)
		case '\r':
			b = append(b, `\r`...)
		case '\t':
			b = append(b, `\t`...)
		case '\b':
			b = append(b, `\b`...)
		case '\f':
			b = append(b, `\f`...)
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
		}
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// pyNumber spells a JSON number literal as Python writes the value json.loads made of it: an
// integer as it is (-0 is 0), a float as repr(float) (shortest round-trip digits, ".0" on a
// whole number, exponent form below 1e-4 or from 1e16, overflow as Infinity).
func pyNumber(lit string) string {
	switch lit {
	case "NaN", "Infinity", "-Infinity":
		return lit
	}
	if !strings.ContainsAny(lit, ".eE") {
		if strings.Trim(lit, "-0") == "" {
			return "0"
		}
		return lit
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil && !math.IsInf(f, 0) {
		return lit
	}
	return PyFloat(f)
}

// PyFloat is Python's repr of a float.
func PyFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		if math.Signbit(f) {
			return "-0.0"
		}
		return "0.0"
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	decpt := x + 1
	if decpt <= -4 || decpt > 16 {
		m := digits[:1]
		if len(digits) > 1 {
			m += "." + digits[1:]
		}
		es := "+"
		if x < 0 {
			es, x = "-", -x
		}
		xs := strconv.Itoa(x)
		if len(xs) < 2 {
			xs = "0" + xs
		}
		return sign + m + "e" + es + xs
	}
	switch {
	case decpt <= 0:
		return sign + "0." + strings.Repeat("0", -decpt) + digits
	case decpt >= len(digits):
		return sign + digits + strings.Repeat("0", decpt-len(digits)) + ".0"
	}
	return sign + digits[:decpt] + "." + digits[decpt:]
}

// SplitLines is Python's str.splitlines(keepends=True): lines end at \n, \r\n, \r, \v, \f,
// \x1c, \x1d, \x1e, U+0085, U+2028 and U+2029, each keeping its ending; "" has no lines.
func SplitLines(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		n := 0
		switch {
		case c == '\n' || c == '\v' || c == '\f' || c == 0x1c || c == 0x1d || c == 0x1e:
			n = 1
		case c == '\r':
			n = 1
			if i+1 < len(s) && s[i+1] == '\n' {
				n = 2
			}
		case c >= 0x80:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == 0x85 || r == 0x2028 || r == 0x2029 {
				n = size
			} else {
				i += size
				continue
			}
		default:
			i++
			continue
		}
		out = append(out, s[start:i+n])
		i += n
		start = i
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}
