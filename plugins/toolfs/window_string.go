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
func windowString(text string, req WindowRequest, displayPath string) (res WindowResult, span string, err error) {
	req = req.normalized()
	room := newRoom(req)
	total := strings.Count(text, "\n")
	if len(text) > 0 && text[len(text)-1] != '\n' {
		total++
	}
	res = WindowResult{Lines: []Line{}, TotalLines: total}
	if err := outOfRange(req.Offset, total, displayPath); err != nil || req.Offset > total { // or an empty input
		return res, "", err
	}
	rest := text
	for range req.Offset - 1 {
		rest = rest[strings.IndexByte(rest, '\n')+1:]
	}
	res.Lines = make([]Line, 0, min(req.Limit, total-req.Offset+1))
	spanStart, used := len(text)-len(rest), 0
	end, prevEnd := spanStart, spanStart // where the span ends, before and after the last line kept
	for len(res.Lines) < req.Limit && len(rest) > 0 {
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
		if len(res.Lines) > 0 {
			cost++
		}
		if used+cost > req.MaxBytes {
			res.TruncatedByBytes = true
			break
		}
		if room.max > 0 {
			n := req.Offset + len(res.Lines)
			if !room.fits(n, len(line)) {
				if len(res.Lines) > 0 {
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
		res.Lines = append(res.Lines, Line{Number: req.Offset + len(res.Lines), Text: line})
		prevEnd, end = end, len(text)-len(rest)
	}
	if n := len(res.Lines); room.over(n, req.Limit, req.Offset+n-1, total) {
		res.Lines, res.TruncatedByBudget = res.Lines[:n-1], true
		end = prevEnd
	}
	if span := len(text) - len(rest) - spanStart; span < len(text)/2 {
		own(res.Lines)
	}
	return res, text[spanStart:end], nil
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
