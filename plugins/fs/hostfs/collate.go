package hostfs

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// compareNames is the listing collation, an approximation of the reference's
// locale-aware comparison (ICU root collation) without locale tables:
//
//  1. primary: rune by rune, runes ranked by class (spaces, punctuation and
//     symbols < digits < letters and everything else); ASCII punctuation in
//     the ICU root order (space _ - , ; : ! ? . ' " ( ) [ ] { } @ * / \ & # %
//     ` ^ + < = > | ~ $), letters by lower-case value with the Latin-1 accented
//     letters folded to their base letter, so "alpha" < "Beta" < "beta2" <
//     "éclair" < "gamma" and "_x" < "-y" < "10" < "9" < "a"; a prefix sorts
//     first;
//  2. tertiary tie-break: at the first rune that differs only by case, the
//     lower-case form sorts first ("a" < "A");
//  3. final tie-break: byte order, so the order is total and stable.
func compareNames(a, b string) int {
	if c := comparePrimary(a, b); c != 0 {
		return c
	}
	if c := compareCase(a, b); c != 0 {
		return c
	}
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func runeClass(r rune) int {
	switch {
	case unicode.IsSpace(r) || unicode.IsPunct(r) || unicode.IsSymbol(r) || unicode.IsControl(r):
		return 0
	case unicode.IsDigit(r):
		return 1
	}
	return 2
}

// icuPunct is the ICU root order of ASCII spaces, punctuation and symbols.
const icuPunct = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$"

// latin1Fold maps U+00C0..U+00FF to a base letter ('*' = keep the rune).
const latin1Fold = "AAAAAAACEEEEIIIIDNOOOOO*OUUUUY*saaaaaaaceeeeiiiidnooooo*ouuuuy*y"

// primaryKey returns the class and the primary weight of r.
func primaryKey(r rune) (class int, weight rune) {
	class = runeClass(r)
	if class == 0 && r < utf8.RuneSelf {
		if i := strings.IndexRune(icuPunct, r); i >= 0 {
			return 0, rune(i)
		}
		return 0, rune(len(icuPunct)) + r
	}
	if class == 0 {
		return 0, 0x80 + r
	}
	if r >= 0xC0 && r <= 0xFF {
		if b := latin1Fold[r-0xC0]; b != '*' {
			r = rune(b)
		}
	}
	return class, unicode.ToLower(r)
}

func comparePrimary(a, b string) int {
	for a != "" && b != "" {
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		a, b = a[na:], b[nb:]
		ca, wa := primaryKey(ra)
		cb, wb := primaryKey(rb)
		if ca != cb {
			return ca - cb
		}
		if wa != wb {
			if wa < wb {
				return -1
			}
			return 1
		}
	}
	switch {
	case a == "" && b != "":
		return -1
	case a != "" && b == "":
		return 1
	}
	return 0
}

func compareCase(a, b string) int {
	for a != "" && b != "" {
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		a, b = a[na:], b[nb:]
		if ra == rb {
			continue
		}
		lowerA, lowerB := unicode.IsLower(ra), unicode.IsLower(rb)
		if lowerA && !lowerB {
			return -1
		}
		if lowerB && !lowerA {
			return 1
		}
	}
	return 0
}
