package search

import "strings"

// The glob dialect of ignore files, matched byte by byte as git does: '?' is one byte other than
// '/', '*' a run of bytes without '/', "**" between slashes (or at either end) any number of
// directories, "[...]" a byte set ('!' or '^' negates; ranges; [:alpha:] and the other POSIX
// classes; '\' escapes), '\' makes the next byte literal. With pathname false (base-name
// patterns) '*' and "**" also cross '/'. A pattern git would abort on (an unclosed "[", an unknown
// class, a trailing '\') never matches.
//
// A pattern compiles to a token list run as a small NFA: every token but the stars consumes one
// byte; a star loops on the bytes it may consume; the state set is a bit set, so matching is
// linear in the text.

type tokKind uint8

const (
	tokByte  tokKind = iota // one literal byte
	tokSet                  // one byte of a set
	tokStar                 // a run of bytes without '/' (any bytes when !pathname)
	tokAny                  // a run of any bytes
	tokDirs                 // "" or a run of any bytes ending in '/' ("**/")
	tokNever                // matches nothing
)

type token struct {
	kind tokKind
	b    byte
	set  *[256]bool
}

type wildPattern struct {
	toks     []token
	literal  string // set when the pattern has no wildcard
	suffix   string // set for "*literal" base-name patterns
	prefix   string // set for "literal*" base-name patterns
	isLit    bool
	isSuffix bool
	isPrefix bool
	// need is the longest run of literal bytes: a text without it cannot match.
	need string
}

// anyByte and anyButSlash are the sets of '?' (shared, never written).
var anyByte, anyButSlash = func() (a, b [256]bool) {
	for i := range a {
		a[i], b[i] = true, i != '/'
	}
	return a, b
}()

func compileWild(p string, pathname bool) *wildPattern {
	w := &wildPattern{}
	var lit []byte
	plain := true
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch c {
		case '\\':
			if i+1 >= len(p) {
				w.toks = append(w.toks, token{kind: tokNever})
				plain = false
				continue
			}
			i++
			w.toks = append(w.toks, token{kind: tokByte, b: p[i]})
			lit = append(lit, p[i])
		case '?':
			plain = false
			set := &anyByte
			if pathname {
				set = &anyButSlash
			}
			w.toks = append(w.toks, token{kind: tokSet, set: set})
		case '*':
			plain = false
			j := i
			for j < len(p) && p[j] == '*' {
				j++
			}
			double := j-i >= 2
			atStart := i == 0 || p[i-1] == '/'
			k := tokStar
			if !pathname {
				k = tokAny
			} else if double && atStart && (j == len(p) || p[j] == '/' || (p[j] == '\\' && j+1 < len(p) && p[j+1] == '/')) {
				if j == len(p) {
					k = tokAny
				} else {
					k = tokDirs
					if p[j] == '\\' {
						j++
					}
					j++ // the slash belongs to the token
				}
			}
			w.toks = append(w.toks, token{kind: k})
			i = j - 1
		case '[':
			plain = false
			set, next, ok := parseSet(p, i+1, pathname)
			if !ok {
				w.toks = []token{{kind: tokNever}}
				return w
			}
			w.toks = append(w.toks, token{kind: tokSet, set: set})
			i = next
		default:
			w.toks = append(w.toks, token{kind: tokByte, b: c})
			lit = append(lit, c)
		}
	}
	w.need = longestLiteral(w.toks)
	switch {
	case plain:
		w.isLit, w.literal = true, string(lit)
	case pathname || len(w.toks) < 2:
	case w.toks[0].kind == tokAny:
		w.suffix, w.isSuffix = literalRun(w.toks[1:])
	case w.toks[len(w.toks)-1].kind == tokAny:
		w.prefix, w.isPrefix = literalRun(w.toks[:len(w.toks)-1])
	}
	return w
}

// longestLiteral returns the longest run of literal-byte tokens.
func longestLiteral(toks []token) string {
	best, start := toks[:0], 0
	for i := 0; i <= len(toks); i++ {
		if i < len(toks) && toks[i].kind == tokByte {
			continue
		}
		if i-start > len(best) {
			best = toks[start:i]
		}
		start = i + 1
	}
	s, _ := literalRun(best)
	return s
}

// literalRun returns the bytes of toks when every one is a literal byte.
func literalRun(toks []token) (string, bool) {
	b := make([]byte, len(toks))
	for i, t := range toks {
		if t.kind != tokByte {
			return "", false
		}
		b[i] = t.b
	}
	return string(b), true
}

// parseSet parses a bracket expression whose first member is at p[i]; it returns the set and the
// index of the closing ']'. ok is false for a malformed expression (the pattern never matches).
func parseSet(p string, i int, pathname bool) (*[256]bool, int, bool) {
	set := new([256]bool)
	negated := false
	if i < len(p) && (p[i] == '!' || p[i] == '^') {
		negated = true
		i++
	}
	var prev int = -1 // the previous single member, for ranges
	first := true
	for ; ; i++ {
		if i >= len(p) {
			return nil, 0, false
		}
		c := p[i]
		if c == ']' && !first {
			break
		}
		first = false
		switch {
		case c == '\\':
			i++
			if i >= len(p) {
				return nil, 0, false
			}
			set[p[i]] = true
			prev = int(p[i])
		case c == '-' && prev >= 0 && i+1 < len(p) && p[i+1] != ']':
			i++
			hi := p[i]
			if hi == '\\' {
				i++
				if i >= len(p) {
					return nil, 0, false
				}
				hi = p[i]
			}
			for b := prev; b <= int(hi); b++ {
				set[b] = true
			}
			prev = -1
		case c == '[' && i+1 < len(p) && p[i+1] == ':':
			end := i + 2
			for end < len(p) && p[end] != ']' {
				end++
			}
			if end >= len(p) {
				return nil, 0, false
			}
			if end-1 < i+2 || p[end-1] != ':' {
				// Not a class after all: a literal '['.
				set['['] = true
				prev = '['
				continue
			}
			if !addClass(set, p[i+2:end-1]) {
				return nil, 0, false
			}
			i = end
			prev = -1
		default:
			set[c] = true
			prev = int(c)
		}
	}
	if negated {
		for b := range set {
			set[b] = !set[b]
		}
	}
	if pathname {
		set['/'] = false
	}
	return set, i, true
}

// addClass adds a POSIX character class (ASCII, as git's) to set.
func addClass(set *[256]bool, name string) bool {
	var in func(b byte) bool
	switch name {
	case "alnum":
		in = func(b byte) bool { return isAlpha(b) || isDigit(b) }
	case "alpha":
		in = isAlpha
	case "blank":
		in = func(b byte) bool { return b == ' ' || b == '\t' }
	case "cntrl":
		in = func(b byte) bool { return b < 0x20 || b == 0x7f }
	case "digit":
		in = isDigit
	case "graph":
		in = func(b byte) bool { return b > 0x20 && b < 0x7f }
	case "lower":
		in = func(b byte) bool { return b >= 'a' && b <= 'z' }
	case "print":
		in = func(b byte) bool { return b >= 0x20 && b < 0x7f }
	case "punct":
		in = func(b byte) bool { return b > 0x20 && b < 0x7f && !isAlpha(b) && !isDigit(b) }
	case "space":
		in = func(b byte) bool { return b == ' ' || (b >= '\t' && b <= '\r') }
	case "upper":
		in = func(b byte) bool { return b >= 'A' && b <= 'Z' }
	case "xdigit":
		in = func(b byte) bool { return isDigit(b) || (b|0x20 >= 'a' && b|0x20 <= 'f') }
	default:
		return false
	}
	for b := 0; b < 256; b++ {
		if in(byte(b)) {
			set[b] = true
		}
	}
	return true
}

func isAlpha(b byte) bool { return b|0x20 >= 'a' && b|0x20 <= 'z' }
func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// match reports whether text matches the whole pattern.
func (w *wildPattern) match(text string) bool {
	if w.isLit {
		return text == w.literal
	}
	if w.isSuffix {
		return strings.HasSuffix(text, w.suffix)
	}
	if w.isPrefix {
		return strings.HasPrefix(text, w.prefix)
	}
	if len(w.need) > 0 && !strings.Contains(text, w.need) {
		return false
	}
	n := len(w.toks)
	words := (n + 1 + 63) / 64
	var stack [8]uint64
	var cur, next []uint64
	if 2*words <= len(stack) {
		cur, next = stack[:words], stack[words:2*words]
	} else {
		cur, next = make([]uint64, words), make([]uint64, words)
	}
	w.closure(cur, 0)
	for i := 0; i < len(text); i++ {
		c := text[i]
		clear(next)
		anyState := false
		for s := 0; s < n; s++ {
			if cur[s>>6]&(1<<(s&63)) == 0 {
				continue
			}
			anyState = true
			t := &w.toks[s]
			switch t.kind {
			case tokByte:
				if c == t.b {
					w.closure(next, s+1)
				}
			case tokSet:
				if t.set[c] {
					w.closure(next, s+1)
				}
			case tokStar:
				if c != '/' {
					w.closure(next, s)
				}
			case tokAny:
				w.closure(next, s)
			case tokDirs:
				// Inside the directories: only a '/' may end them.
				next[s>>6] |= 1 << (s & 63)
				if c == '/' {
					w.closure(next, s+1)
				}
			}
		}
		if !anyState {
			return false
		}
		cur, next = next, cur
	}
	return cur[n>>6]&(1<<(n&63)) != 0
}

// closure adds state s and every state reachable from it without consuming a byte.
func (w *wildPattern) closure(set []uint64, s int) {
	for {
		set[s>>6] |= 1 << (s & 63)
		if s == len(w.toks) {
			return
		}
		switch w.toks[s].kind {
		case tokStar, tokAny, tokDirs:
			s++
		default:
			return
		}
	}
}
