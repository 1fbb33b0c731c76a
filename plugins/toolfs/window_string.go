package toolfs

import "strings"

// WindowString is NewWindow(req), fed text in one piece, then Finish(displayPath): the same lines,
// counts and errors, without copying the text it keeps. Each line is a substring of text (a
// truncated line is a new string); when the lines cover less than half of text they are copied into
// one string of their own, so a small window never holds a large file's memory.
func WindowString(text string, req WindowRequest, displayPath string) (WindowResult, error) {
	res, _, err := windowString(text, req, displayPath)
	return res, err
}

// windowString is WindowString that also returns span: the bytes of text the window's lines come
// from, each line through its '\n', as they are in text (a substring of it), which is what the
// window shows of the file (the read's seen record).
func windowString(text string, req WindowRequest, displayPath string) (WindowResult, string, error) {
	var l lineList
	res, _, span, err := windowInto(text, req, displayPath, &l)
	res.Lines = l.lines
	if res.Lines == nil {
		res.Lines = []Line{}
	}
	if len(span) < len(text)/2 {
		own(res.Lines)
	}
	return res, span, err
}

// lineSink receives the lines a window keeps, in order; dropLast takes the last one back.
type lineSink interface {
	grow(n, last int) // at most n lines follow, numbered up to last
	keep(number int, text string)
	dropLast()
}

// lineList is windowString's sink: the lines as a []Line.
type lineList struct{ lines []Line }

func (l *lineList) grow(n, _ int)                { l.lines = make([]Line, 0, n) }
func (l *lineList) keep(number int, text string) { l.lines = append(l.lines, Line{number, text}) }
func (l *lineList) dropLast()                    { l.lines = l.lines[:len(l.lines)-1] }

// windowInto is windowString with its lines handed to sink (res.Lines stays nil); kept is how
// many it kept.
func windowInto(text string, req WindowRequest, displayPath string, sink lineSink) (res WindowResult, kept int, span string, err error) {
	req = req.normalized()
	room := newRoom(req)
	total := strings.Count(text, "\n")
	if len(text) > 0 && text[len(text)-1] != '\n' {
		total++
	}
	res = WindowResult{TotalLines: total}
	if err := outOfRange(req.Offset, total, displayPath); err != nil || req.Offset > total { // or an empty input
		return res, 0, "", err
	}
	rest := text
	for range req.Offset - 1 {
		rest = rest[strings.IndexByte(rest, '\n')+1:]
	}
	n := min(req.Limit, total-req.Offset+1)
	sink.grow(n, req.Offset+n-1)
	spanStart, used := len(text)-len(rest), 0
	end, prevEnd := spanStart, spanStart // where the span ends, before and after the last line kept
	for kept < req.Limit && len(rest) > 0 {
		line := rest
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = ""
		}
		// As Window: at most MaxLineLength+1 code points are kept before the '\r' is dropped, so a
		// longer line loses its '\r' with the rest (docs/tool-fs.md "The window").
		line = strings.TrimSuffix(line[:cut(line, req.MaxLineLength+1)], "\r")
		content := line
		if n := cut(line, req.MaxLineLength); n < len(line) {
			content = line[:n]
			line = string(appendTruncated([]byte(content), req.MaxLineLength))
		}
		cost := len(line)
		if kept > 0 {
			cost++
		}
		if used+cost > req.MaxBytes {
			res.TruncatedByBytes = true
			break
		}
		if room.max > 0 {
			n := req.Offset + kept
			if !room.fits(n, len(line)) {
				if kept > 0 {
					res.TruncatedByBudget = true
					break
				}
				if keep, points, ok := fitLength(content, room.alone(n)); ok {
					line = string(appendTruncated([]byte(content[:keep]), points))
					cost = len(line)
				}
			}
			room.add(n, len(line))
		}
		used += cost
		sink.keep(req.Offset+kept, line)
		kept++
		prevEnd, end = end, len(text)-len(rest)
	}
	if room.over(kept, req.Limit, req.Offset+kept-1, total) {
		sink.dropLast()
		kept, res.TruncatedByBudget = kept-1, true
		end = prevEnd
	}
	return res, kept, text[spanStart:end], nil
}

// own copies the texts of lines into one new string, joined by '\n', and points them at it.
func own(lines []Line) {
	var b strings.Builder
	size := 0
	for _, l := range lines {
		size += len(l.Text) + 1
	}
	b.Grow(size)
	for _, l := range lines {
		b.WriteString(l.Text)
		b.WriteByte('\n')
	}
	s := b.String()
	for i := range lines {
		n := len(lines[i].Text)
		lines[i].Text, s = s[:n], s[n+1:]
	}
}
