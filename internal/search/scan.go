package search

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"unicode/utf8"
)

const (
	// blockSize is the unit of reading and of binary detection.
	blockSize = 64 << 10
	// carryMax is the longest partial line kept in memory; a longer line is streamed.
	carryMax = 1 << 20
)

// hitFunc receives one matching line: its number, its text cut to the line cap on a UTF-8
// boundary (nil when the line is not valid UTF-8; lent, valid until the call returns), whether
// it was cut, and whether the whole line is valid UTF-8.
type hitFunc func(line int, text []byte, truncated, valid bool) error

// scanner searches files for one worker; it owns its buffers.
type scanner struct {
	ctx          context.Context
	m            *Matcher
	maxLineBytes int
	buf          []byte // carryMax + blockSize
	lower        []byte // the lowercased region, when the prefilter folds case
	next         []int  // per literal: next hit position in the current region (-1 none, -2 unknown)
	keep         []byte // the kept head of a streamed line
}

func newScanner(ctx context.Context, m *Matcher, maxLineBytes int) *scanner {
	s := &scanner{ctx: ctx, m: m, maxLineBytes: maxLineBytes, buf: make([]byte, carryMax+blockSize)}
	if m.pf != nil {
		s.next = make([]int, len(m.lits))
		if m.pf.set.fold {
			s.lower = make([]byte, len(s.buf))
		}
	}
	return s
}

// scan searches the open regular file src (or a file's decoded text: decoded.go).
func (s *scanner) scan(src source, hit hitFunc) error {
	carry := 0
	lineNo := 1
	var bufOff int64 // file offset of buf[0]
	for {
		if err := s.ctx.Err(); err != nil {
			return err
		}
		n, eof, err := src.read(s.buf[carry : carry+blockSize])
		if err != nil {
			return err
		}
		block := s.buf[carry : carry+n]
		if bytes.IndexByte(block, 0) >= 0 {
			return nil
		}
		end := carry + n
		last := end
		if !eof {
			last = bytes.LastIndexByte(block, '\n') + 1
			if last > 0 {
				last += carry
			}
		}
		if last > 0 {
			lines, err := s.region(s.buf[:last], lineNo, hit)
			if err != nil {
				return err
			}
			lineNo += lines
		}
		if eof {
			return nil
		}
		rest := end - last
		if rest > carryMax {
			c, off, done, err := s.longLine(src, s.buf[last:end], bufOff+int64(last), bufOff+int64(end), lineNo, hit)
			if err != nil || done {
				return err
			}
			lineNo++
			carry, bufOff = c, off
			continue
		}
		copy(s.buf, s.buf[last:end])
		carry = rest
		bufOff += int64(last)
	}
}

// region searches complete lines (the last one may lack its '\n' at the end of the file) and
// returns the number of '\n' it holds. With a prefilter (literals, or a class run) only the lines
// where it is found are matched.
func (s *scanner) region(r []byte, lineNo int, hit hitFunc) (int, error) {
	pf, run := s.m.pf, s.m.run
	if pf == nil && run == nil {
		return s.everyLine(r, lineNo, hit)
	}
	text := r
	sufficient := false
	if pf != nil {
		if pf.set.fold {
			text = s.lower[:len(r)]
			lowerInto(text, r)
		}
		for i := range s.next {
			s.next[i] = -2
		}
		sufficient = pf.sufficient
	} else {
		sufficient = run.sufficient
	}
	counted, line := 0, lineNo
	for pos := 0; pos < len(r); {
		var p int
		if pf != nil {
			p = s.nextHit(text, pos)
		} else if p = run.index(r[pos:]); p >= 0 {
			p += pos
		}
		if p < 0 {
			break
		}
		ls := pos + bytes.LastIndexByte(r[pos:p], '\n') + 1
		le := bytes.IndexByte(r[p:], '\n')
		if le < 0 {
			le = len(r)
		} else {
			le += p
		}
		line += bytes.Count(r[counted:ls], nl)
		counted = ls
		l := trimCR(r[ls:le])
		if sufficient || s.m.re.Match(l) {
			if err := s.emit(line, l, hit); err != nil {
				return 0, err
			}
		}
		pos = le + 1
	}
	return line - lineNo + bytes.Count(r[counted:], nl), nil
}

var nl = []byte{'\n'}

// everyLine runs the regexp on every line of r.
func (s *scanner) everyLine(r []byte, lineNo int, hit hitFunc) (int, error) {
	n := 0
	for pos := 0; pos < len(r); {
		le := bytes.IndexByte(r[pos:], '\n')
		end := len(r)
		if le >= 0 {
			end = pos + le
			n++
		}
		if l := trimCR(r[pos:end]); s.m.re.Match(l) {
			if err := s.emit(lineNo, l, hit); err != nil {
				return 0, err
			}
		}
		lineNo++
		pos = end + 1
	}
	return n, nil
}

// nextHit returns the first position >= pos where a literal starts, or -1.
func (s *scanner) nextHit(text []byte, pos int) int {
	best := -1
	for i, l := range s.m.lits {
		p := s.next[i]
		if p == -1 {
			continue
		}
		if p < pos {
			if j := bytes.Index(text[pos:], l); j >= 0 {
				p = pos + j
			} else {
				p = -1
			}
			s.next[i] = p
			if p < 0 {
				continue
			}
		}
		if best < 0 || p < best {
			best = p
		}
	}
	return best
}

func trimCR(l []byte) []byte {
	if n := len(l); n > 0 && l[n-1] == '\r' {
		return l[:n-1]
	}
	return l
}

// emit hands a matching line to hit, cut to the cap and checked for UTF-8.
func (s *scanner) emit(line int, l []byte, hit hitFunc) error {
	if !utf8.Valid(l) {
		return hit(line, nil, false, false)
	}
	text, cut := cutUTF8(l, s.maxLineBytes)
	return hit(line, text, cut, true)
}

// cutUTF8 cuts valid UTF-8 to at most max bytes on a rune boundary.
func cutUTF8(l []byte, max int) ([]byte, bool) {
	if len(l) <= max {
		return l, false
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(l[cut]) {
		cut--
	}
	return l[:cut], true
}

// longLine streams a line too long for the carry buffer: head holds its first bytes (starting at
// file offset start) and the file is read on from readOff. It reads on in blocks to the line's end,
// keeping the head that is shown, checking UTF-8 and looking for the prefilter's literals on the
// way; then, when the literals do not settle it, runs the regexp over a re-read of the line. It
// returns how many bytes after the line it left at the start of s.buf, their file offset, and
// whether the file ended with the line. A NUL block ends the file: done, with no error.
func (s *scanner) longLine(src source, head []byte, start, readOff int64, lineNo int, hit hitFunc) (int, int64, bool, error) {
	ls := s.newLineStream()
	ls.feed(head)
	var after []byte
	eof := false
	for {
		if err := s.ctx.Err(); err != nil {
			return 0, 0, true, err
		}
		n, end, err := src.read(s.buf[:blockSize])
		if err != nil {
			return 0, 0, true, err
		}
		block := s.buf[:n]
		if bytes.IndexByte(block, 0) >= 0 {
			return 0, 0, true, nil // a binary file: its search ends here
		}
		if j := bytes.IndexByte(block, '\n'); j >= 0 {
			ls.feed(block[:j])
			after = block[j+1:]
			readOff += int64(n)
			break
		}
		ls.feed(block)
		readOff += int64(n)
		if end {
			eof = true
			break
		}
	}
	length := ls.length
	if ls.last == '\r' {
		length--
	}
	matched := false
	switch {
	case s.m.pf != nil && !ls.found:
	case s.m.pf != nil && s.m.pf.sufficient:
		matched = true
	default:
		r := bufio.NewReaderSize(io.NewSectionReader(ctxReaderAt{s.ctx, src}, start, length), blockSize)
		matched = s.m.re.MatchReader(r)
		if err := s.ctx.Err(); err != nil {
			return 0, 0, true, err
		}
	}
	if matched {
		var err error
		if !ls.valid() {
			err = hit(lineNo, nil, false, false)
		} else {
			kept := s.keep
			if int64(len(kept)) > length {
				kept = kept[:length]
			}
			text, _ := cutUTF8(kept, s.maxLineBytes)
			err = hit(lineNo, text, length > int64(s.maxLineBytes), true)
		}
		if err != nil {
			return 0, 0, true, err
		}
	}
	c := copy(s.buf, after)
	return c, readOff - int64(c), eof, nil
}

// ctxReaderAt fails every read once ctx has ended, so a regexp run over a long line stops at the
// next block.
type ctxReaderAt struct {
	ctx context.Context
	r   io.ReaderAt
}

func (c ctxReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.ReadAt(p, off)
}
