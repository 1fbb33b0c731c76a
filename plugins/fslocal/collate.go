package fslocal

import (
	"unicode"
	"unicode/utf8"
)

// compareNames is the listing collation, an approximation of the reference's
// locale-aware comparison (ICU root collation) without locale tables:
//
//  1. primary: rune by rune, runes ranked by class (spaces, punctuation and
//     symbols < digits < letters and everything else), then by lower-case
//     value, so "alpha" < "Beta" < "beta2" < "gamma" and "_x" < "10" < "9" < "a";
//     a prefix sorts first;
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

func comparePrimary(a, b string) int {
	for a != "" && b != "" {
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		a, b = a[na:], b[nb:]
		if ca, cb := runeClass(ra), runeClass(rb); ca != cb {
			return ca - cb
		}
		la, lb := unicode.ToLower(ra), unicode.ToLower(rb)
		if la != lb {
			if la < lb {
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
