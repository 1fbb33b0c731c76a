package search

import (
	"bytes"
	"unicode/utf8"
)

// lineStream follows a streamed line chunk by chunk: its length and last byte, the head that is
// shown (into s.keep), UTF-8 validity, and whether one of the prefilter's literals occurs
// (overlapping chunk boundaries).
type lineStream struct {
	s       *scanner
	length  int64
	last    byte
	found   bool
	invalid bool
	pending []byte // an incomplete UTF-8 sequence at the end of the last chunk
	tail    []byte // the last maxLit-1 bytes seen (lowercased when folding)
	pbuf    [utf8.UTFMax]byte
}

func (s *scanner) newLineStream() *lineStream {
	s.keep = s.keep[:0]
	return &lineStream{s: s}
}

func (ls *lineStream) feed(chunk []byte) {
	if len(chunk) == 0 {
		return
	}
	s := ls.s
	ls.length += int64(len(chunk))
	ls.last = chunk[len(chunk)-1]
	if room := s.maxLineBytes + utf8.UTFMax - len(s.keep); room > 0 {
		s.keep = append(s.keep, chunk[:min(room, len(chunk))]...)
	}
	if !ls.invalid {
		ls.checkUTF8(chunk)
	}
	if s.m.pf != nil && !ls.found {
		ls.findLiteral(chunk)
	}
}

// checkUTF8 validates chunk, completing a sequence left from the previous chunk first.
func (ls *lineStream) checkUTF8(chunk []byte) {
	if len(ls.pending) > 0 {
		seq := append(ls.pbuf[:0], ls.pending...)
		for len(chunk) > 0 && !utf8.FullRune(seq) {
			seq = append(seq, chunk[0])
			chunk = chunk[1:]
		}
		ls.pending = nil
		if !utf8.FullRune(seq) {
			ls.pending = seq
			return
		}
		if r, _ := utf8.DecodeRune(seq); r == utf8.RuneError || !utf8.Valid(seq) {
			ls.invalid = true
			return
		}
	}
	// Hold back an incomplete sequence at the end.
	cut := len(chunk)
	for i := len(chunk) - 1; i >= 0 && i >= len(chunk)-utf8.UTFMax; i-- {
		if utf8.RuneStart(chunk[i]) {
			if !utf8.FullRune(chunk[i:]) {
				cut = i
			}
			break
		}
	}
	if !utf8.Valid(chunk[:cut]) {
		ls.invalid = true
		return
	}
	if cut < len(chunk) {
		ls.pending = append(ls.pbuf[:0], chunk[cut:]...)
	}
}

// valid reports whether the whole line was valid UTF-8 (call after the last chunk).
func (ls *lineStream) valid() bool { return !ls.invalid && len(ls.pending) == 0 }

// findLiteral looks for the prefilter's literals in the tail of the previous chunk joined with
// this one, then in this one.
func (ls *lineStream) findLiteral(chunk []byte) {
	s := ls.s
	text := chunk
	if s.m.pf.set.fold {
		text = s.lower[:len(chunk)]
		lowerInto(text, chunk)
	}
	if len(ls.tail) > 0 {
		var joint [128]byte // on the stack; append moves a longer joint to the heap
		head := text[:min(len(text), s.m.maxLit-1)]
		if containsAny(append(append(joint[:0], ls.tail...), head...), s.m.lits) {
			ls.found = true
			return
		}
	}
	if containsAny(text, s.m.lits) {
		ls.found = true
		return
	}
	keep := s.m.maxLit - 1
	if len(text) >= keep {
		ls.tail = append(ls.tail[:0], text[len(text)-keep:]...)
		return
	}
	ls.tail = append(ls.tail, text...)
	ls.tail = ls.tail[max(0, len(ls.tail)-keep):]
}

func containsAny(text []byte, lits [][]byte) bool {
	for _, l := range lits {
		if bytes.Contains(text, l) {
			return true
		}
	}
	return false
}
