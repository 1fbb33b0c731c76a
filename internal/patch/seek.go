package patch

import (
	"context"
	"hash/maphash"
	"slices"
	"strings"
	"unicode"
)

// seeker locates chunks in the lines of one file as Codex does (seek), in time linear in the
// file and the patch in practice: each pass compares lines by a key (the line itself, the line
// without trailing whitespace, trimmed, normalized), and the file's keys are indexed once per pass
// (a hash per line, prefix hashes of the windows, the positions of each hash), so a pattern is
// sought only at the positions where its rarest line occurs, each tried in constant time and
// verified line by line on a hash match. It stops when ctx is done.
type seeker struct {
	ctx   context.Context
	lines []string
	index [len(passes)]*passIndex // one per pass, built on first use
	calls int
}

// passIndex is the index of a file's lines under one pass's key.
type passIndex struct {
	keys   []string
	prefix []uint64           // prefix[i] is the hash of keys[:i]
	at     map[uint64][]int32 // a line hash and its positions, ascending
}

// pow is hashBase^n (mod 2^64).
func pow(n int) uint64 {
	p, b := uint64(1), uint64(hashBase)
	for ; n > 0; n >>= 1 {
		if n&1 == 1 {
			p *= b
		}
		b *= b
	}
	return p
}

const hashBase = 1099511628211 // odd, so multiplying by it loses nothing mod 2^64

var seed = maphash.MakeSeed()

func lineHash(s string) uint64 { return maphash.String(seed, s) }

// checkEvery is how many lines or candidates are handled between two looks at ctx.
const checkEvery = 4096

func (s *seeker) tick() error {
	if s.calls++; s.calls%checkEvery == 0 {
		return s.ctx.Err()
	}
	return nil
}

func (s *seeker) indexOf(p int) (*passIndex, error) {
	if ix := s.index[p]; ix != nil {
		return ix, nil
	}
	key := passes[p]
	ix := &passIndex{keys: make([]string, len(s.lines)), prefix: make([]uint64, len(s.lines)+1), at: map[uint64][]int32{}}
	for i, l := range s.lines {
		if err := s.tick(); err != nil {
			return nil, err
		}
		k := key(l)
		h := lineHash(k)
		ix.keys[i] = k
		ix.prefix[i+1] = ix.prefix[i]*hashBase + h
		ix.at[h] = append(ix.at[h], int32(i))
	}
	s.index[p] = ix
	return ix, nil
}

// seek returns the first index at or after start where pattern occurs in the lines, or -1.
// Passes of decreasing strictness run over the whole range in turn: exact, trailing whitespace
// ignored, surrounding whitespace ignored, then common Unicode punctuation and spaces normalized
// to ASCII (normalize). With eof the search starts where pattern would end the file, and only
// there; an empty pattern matches at start. The error is ctx's when it is done.
func (s *seeker) seek(pattern []string, start int, eof bool) (int, error) {
	if len(pattern) == 0 {
		return start, nil
	}
	n, m := len(s.lines), len(pattern)
	if m > n {
		return -1, nil
	}
	if eof {
		start = n - m
	}
	if start < 0 || start+m > n {
		return -1, nil
	}
	for p, key := range passes {
		ix, err := s.indexOf(p)
		if err != nil {
			return -1, err
		}
		keys := make([]string, m)
		var want uint64
		anchor, fewest := 0, -1
		for j, l := range pattern {
			keys[j] = key(l)
			h := lineHash(keys[j])
			want = want*hashBase + h
			if c := len(ix.at[h]); fewest < 0 || c < fewest {
				anchor, fewest = j, c
			}
		}
		if fewest == 0 {
			continue
		}
		shift := pow(m)
		cands := ix.at[lineHash(keys[anchor])]
		from, _ := slices.BinarySearch(cands, int32(start+anchor))
		for _, c := range cands[from:] {
			if err := s.tick(); err != nil {
				return -1, err
			}
			i := int(c) - anchor
			if i+m > n || eof && i != start {
				break
			}
			if ix.prefix[i+m]-ix.prefix[i]*shift == want && slices.Equal(ix.keys[i:i+m], keys) {
				return i, nil
			}
		}
	}
	return -1, nil
}

// passes are the line keys of seek, strictest first: two lines are equal under a pass when their
// keys are.
var passes = [4]func(s string) string{
	func(s string) string { return s },
	func(s string) string { return strings.TrimRightFunc(s, unicode.IsSpace) },
	strings.TrimSpace,
	normalize,
}

// normalize trims s and maps typographic dashes, quotes and spaces to their ASCII forms.
func normalize(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212':
			return '-'
		case '\u2018', '\u2019', '\u201A', '\u201B':
			return '\''
		case '\u201C', '\u201D', '\u201E', '\u201F':
			return '"'
		case '\u00A0', '\u2002', '\u2003', '\u2004', '\u2005', '\u2006', '\u2007', '\u2008', '\u2009', '\u200A', '\u202F', '\u205F', '\u3000':
			return ' '
		}
		return r
	}, strings.TrimSpace(s))
}
