package charset

import (
	"errors"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// EditorConfig's globs (docs/encodings.md): `*` any run of characters but `/`, `**` any run,
// `?` one character but `/`, `[seq]` and `[!seq]` one of (or none of) the characters, `{s1,s2}`
// one of the alternatives, `{n1..n2}` an integer from n1 to n2, `\` escapes. compileGlob turns
// one into a regular expression, as EditorConfig's Go core does, except for numeric ranges: that
// core writes every integer of the range as an alternative (a range of 2^63 integers never
// ends); here a range is a regular expression of the digits, its size at most quadratic in the
// numbers' lengths, so a glob's expression is linear in its length and Go's regexp matches it in
// time linear in the name.

var (
	leftBraces        = regexp.MustCompile(`(^|[^\\])\{`)
	doubleLeftBraces  = regexp.MustCompile(`(^|[^\\])\{\{`)
	rightBraces       = regexp.MustCompile(`(^|[^\\])\}`)
	doubleRightBraces = regexp.MustCompile(`(^|[^\\])\}\}`)
	numericRange      = regexp.MustCompile(`^([+-]?\d+)\.\.([+-]?\d+)$`)
)

var errPatternBudget = errors.New("over the patterns' budget")

// compileGlob compiles an EditorConfig glob matched against a whole slash-separated path; the
// expression's length is taken from *budget, and a glob that does not fit is refused.
func compileGlob(glob string, budget *int) (*regexp.Regexp, error) {
	src := "^" + translateGlob(glob) + "$"
	if len(src) > *budget {
		return nil, errPatternBudget
	}
	*budget -= len(src)
	return regexp.Compile(src)
}

// translateGlob is the regular expression of glob, the translation of EditorConfig's Go core
// (its quirks kept, so the two agree on ordinary globs) with numeric ranges as rangeExpr.
func translateGlob(pattern string) string {
	index := 0
	pat := []rune(pattern)
	length := len(pat)
	var result strings.Builder
	braceLevel := 0
	isEscaped := false
	inBrackets := false
	// Braces count as groups only when they pair up (the cores' test suite asks this).
	matchesBraces := len(leftBraces.FindAllString(pattern, -1))+len(doubleLeftBraces.FindAllString(pattern, -1)) ==
		len(rightBraces.FindAllString(pattern, -1))+len(doubleRightBraces.FindAllString(pattern, -1))
	for index < length {
		r := pat[index]
		index++
		switch r {
		case '*':
			if index < length && pat[index] == '*' {
				result.WriteString(".*")
				index++
			} else {
				result.WriteString("[^/]*")
			}
		case '/':
			if index+2 < length && pat[index] == '*' && pat[index+1] == '*' && pat[index+2] == '/' {
				result.WriteString("(?:/|/.*/)")
				index += 3
			} else {
				result.WriteRune(r)
			}
		case '?':
			result.WriteString("[^/]")
		case '[':
			if inBrackets {
				result.WriteString(`\[`)
				break
			}
			hasSlash := false
			var res strings.Builder
			p := index
			for p < length {
				if pat[p] == ']' && pat[p-1] != '\\' {
					break
				}
				res.WriteRune(pat[p])
				if pat[p] == '/' && pat[p-1] != '\\' {
					hasSlash = true
					break
				}
				p++
			}
			switch {
			case hasSlash:
				result.WriteString(`\[` + regexp.QuoteMeta(res.String()))
				index = p + 1
			case index < length && (pat[index] == '!' || pat[index] == '^'):
				result.WriteString("[^")
				index++
				inBrackets = true
			case index < length:
				result.WriteRune('[')
				inBrackets = true
			default: // a `[` ending the glob is itself
				result.WriteString(`\[`)
			}
		case ']':
			if inBrackets && pat[index-2] == '\\' {
				result.WriteString(`\]`)
			} else {
				result.WriteRune(r)
				inBrackets = false
			}
		case '{':
			hasComma := false
			p := index
			var res strings.Builder
			for p < length {
				if pat[p] == '}' && pat[p-1] != '\\' {
					break
				}
				res.WriteRune(pat[p])
				if pat[p] == ',' && pat[p-1] != '\\' {
					hasComma = true
					break
				}
				p++
			}
			switch {
			case !hasComma && p < length:
				inner := res.String()
				if sub := numericRange.FindStringSubmatch(inner); len(sub) == 3 {
					from, _ := strconv.Atoi(sub[1]) // out of range: clamped, as that core does
					to, _ := strconv.Atoi(sub[2])
					result.WriteString(rangeExpr(int64(min(from, to)), int64(max(from, to))))
				} else {
					result.WriteString(`\{` + translateGlob(inner) + `\}`)
				}
				index = p + 1
			case matchesBraces:
				result.WriteString("(?:")
				braceLevel++
			default:
				result.WriteString(`\{`)
			}
		case '}':
			switch {
			case braceLevel > 0 && isEscaped:
				result.WriteRune('}')
				isEscaped = false
			case braceLevel > 0:
				result.WriteRune(')')
				braceLevel--
			default:
				result.WriteString(`\}`)
			}
		case ',':
			if braceLevel == 0 || isEscaped {
				result.WriteRune(r)
			} else {
				result.WriteRune('|')
			}
		default:
			if r != '\\' || isEscaped {
				result.WriteString(regexp.QuoteMeta(string(r)))
				isEscaped = false
			} else {
				isEscaped = true
			}
		}
	}
	return result.String()
}

// rangeExpr is a regular expression matching exactly the decimal integers from lo to hi (lo <=
// hi) as strconv writes them: no sign but `-`, no leading zero.
func rangeExpr(lo, hi int64) string {
	switch {
	case lo >= 0:
		return "(?:" + uintRange(uint64(lo), uint64(hi)) + ")"
	case hi < 0:
		return "(?:-(?:" + uintRange(magnitude(hi), magnitude(lo)) + "))"
	}
	return "(?:-(?:" + uintRange(1, magnitude(lo)) + ")|" + uintRange(0, uint64(hi)) + ")"
}

func magnitude(n int64) uint64 {
	if n == math.MinInt64 {
		return 1 << 63
	}
	return uint64(-n)
}

// uintRange matches the integers from lo to hi (lo <= hi): the numbers of lo's length from lo, the
// lengths in between whole, those of hi's length up to hi.
func uintRange(lo, hi uint64) string {
	a, b := strconv.FormatUint(lo, 10), strconv.FormatUint(hi, 10)
	if len(a) == len(b) {
		return sameLength(a, b)
	}
	parts := []string{sameLength(a, strings.Repeat("9", len(a)))}
	if len(b)-len(a) > 1 {
		parts = append(parts, "[1-9][0-9]{"+strconv.Itoa(len(a))+","+strconv.Itoa(len(b)-2)+"}")
	}
	parts = append(parts, sameLength("1"+strings.Repeat("0", len(b)-1), b))
	return strings.Join(parts, "|")
}

// sameLength matches the digit strings of a's length from a to b (a <= b).
func sameLength(a, b string) string {
	if a == b {
		return a
	}
	if a[0] == b[0] {
		return a[:1] + "(?:" + sameLength(a[1:], b[1:]) + ")"
	}
	rest := len(a) - 1
	anyRest := ""
	if rest > 0 {
		anyRest = "[0-9]{" + strconv.Itoa(rest) + "}"
	}
	lowFull := strings.Trim(a[1:], "0") == ""
	highFull := strings.Trim(b[1:], "9") == ""
	var parts []string
	first, last := a[0], b[0]
	if !lowFull {
		parts = append(parts, a[:1]+"(?:"+sameLength(a[1:], strings.Repeat("9", rest))+")")
		first++
	}
	if !highFull {
		last--
	}
	if first <= last {
		parts = append(parts, "["+string(first)+"-"+string(last)+"]"+anyRest)
	}
	if !highFull {
		parts = append(parts, b[:1]+"(?:"+sameLength(strings.Repeat("0", rest), b[1:])+")")
	}
	return strings.Join(parts, "|")
}
