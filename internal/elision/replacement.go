package elision

import (
	"bytes"
	"path"
	"strings"
	"unsafe"
)

// MaxLine is the longest line of an old text a Replacement compares: a longer one counts as a
// non-blank line that content does not keep (no line of a model's content stands for a line of a
// mebibyte).
const MaxLine = 1 << 20

// Replacement judges a whole-file write of content over an old text handed to it a piece at a time
// (Write, WriteString), so that an old text too large to hold is judged with memory bounded by
// content and MaxLine. Its answers (Lines, Dropped, DroppedAll, Refuses) are those of Lines,
// Dropped and Refuses over the whole old text; they end the input.
//
//	r := elision.NewReplacement("a.go", content, nil)
//	io.Copy(r, file)
//	line, at, ok := r.Refuses()
type Replacement struct {
	content string // tallied (texts) when the first line of old comes, or at the end
	tallied bool
	keep    func(line int) bool
	texts   map[string]*tally // the trimmed lines of content and its placeholders
	marks   []mark            // content's placeholder lines, in order
	line    []byte            // the start of a line cut by the end of a piece
	long    bool              // that line has more than MaxLine bytes
	n       int               // the old text's lines so far
	solidN  int               // its non-blank lines
	gone    [2]int            // its lines no text of content has: counted by keep, all
	solid   [2]int            // the non-blank ones of those
	ended   bool
}

// tally is a trimmed text: how many lines of content have it, how many lines of old do (read
// ones, keep refuses them, and counted ones), and whether it is a placeholder line of content that
// old holds.
type tally struct {
	have, read, counted int
	held                bool
}

// mark is a placeholder line of content: as written (without its '\r'), its number and its text
// trimmed.
type mark struct {
	line    string
	number  int
	trimmed string
}

// NewReplacement returns the judge of content replacing a file named name (its extension names
// the comment syntax); keep is Dropped's (nil: every line counts).
func NewReplacement(name, content string, keep func(line int) bool) *Replacement {
	r := &Replacement{content: content, keep: keep, texts: map[string]*tally{}}
	ms, known := markers[strings.ToLower(path.Ext(name))]
	if !known {
		ms = allMarkers
	}
	for i, l := range strings.Split(content, "\n") {
		if body, ok := commentBody(strings.TrimSpace(strings.TrimSuffix(l, "\r")), ms); ok && placeholderBody(body) {
			t := strings.TrimSpace(l)
			r.text(t)
			r.marks = append(r.marks, mark{strings.TrimSuffix(l, "\r"), i + 1, t})
		}
	}
	return r
}

// tallyContent counts content's lines (texts), once: a judge asked only HasPlaceholder never does.
func (r *Replacement) tallyContent() {
	if r.tallied {
		return
	}
	r.tallied = true
	for _, l := range strings.Split(strings.TrimSuffix(r.content, "\n"), "\n") {
		r.text(strings.TrimSpace(l)).have++
	}
}

func (r *Replacement) text(t string) *tally {
	c := r.texts[t]
	if c == nil {
		c = &tally{}
		r.texts[t] = c
	}
	return c
}

// Write takes the next piece of the old text; it never fails.
func (r *Replacement) Write(p []byte) (int, error) {
	for rest := p; len(rest) > 0; {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			r.gather(rest)
			break
		}
		if len(r.line) == 0 && !r.long {
			r.add(rest[:i])
		} else {
			r.gather(rest[:i])
			r.add(r.line)
			r.line, r.long = r.line[:0], false
		}
		rest = rest[i+1:]
	}
	return len(p), nil
}

// WriteString is Write of s's bytes, which it does not copy.
func (r *Replacement) WriteString(s string) (int, error) {
	return r.Write(unsafe.Slice(unsafe.StringData(s), len(s))) // read only
}

// whole takes all of old, whose lines it compares whatever their length, and returns r.
func (r *Replacement) whole(old string) *Replacement {
	for b := unsafe.Slice(unsafe.StringData(old), len(old)); len(b) > 0; { // read only
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			r.add(b)
			break
		}
		r.add(b[:i])
		b = b[i+1:]
	}
	return r
}

// gather keeps b, part of a line, up to MaxLine bytes.
func (r *Replacement) gather(b []byte) {
	if room := MaxLine - len(r.line); len(b) > room {
		b, r.long = b[:max(room, 0)], true
	}
	r.line = append(r.line, b...)
}

// add counts one line of the old text.
func (r *Replacement) add(b []byte) {
	r.tallyContent()
	r.n++
	counted := r.keep == nil || r.keep(r.n)
	t := bytes.TrimSpace(b)
	blank := len(t) == 0 && !r.long
	if !blank {
		r.solidN++
	}
	var c *tally
	if !r.long {
		c = r.texts[string(t)]
	}
	if c == nil {
		r.drop(0, counted, blank)
		return
	}
	c.held = true
	if counted {
		c.counted++
	} else {
		c.read++
	}
}

// drop counts n lines of one text that content does not keep, as counted by keep or not.
func (r *Replacement) drop(n int, counted, blank bool) {
	if n == 0 {
		n = 1
	}
	for i, in := range [2]bool{counted, true} {
		if !in {
			continue
		}
		r.gone[i] += n
		if !blank {
			r.solid[i] += n
		}
	}
}

// end counts the last line (one without '\n') and each text's lines beyond content's, once.
func (r *Replacement) end() {
	if r.ended {
		return
	}
	r.ended = true
	r.tallyContent()
	if len(r.line) > 0 || r.long {
		r.add(r.line)
	}
	for t, c := range r.texts {
		blank := t == ""
		// Lines the model read take content's lines first; the counted ones get what is left.
		if extra := c.counted - max(c.have-c.read, 0); extra > 0 {
			r.gone[0] += extra
			if !blank {
				r.solid[0] += extra
			}
		}
		if extra := c.read + c.counted - c.have; extra > 0 {
			r.gone[1] += extra
			if !blank {
				r.solid[1] += extra
			}
		}
	}
}

// HasPlaceholder reports whether content holds a placeholder line, whatever the old text: without
// one, Placeholder and Refuses find nothing, and a caller that needs only them need not read it.
func (r *Replacement) HasPlaceholder() bool { return len(r.marks) > 0 }

// Lines is the number of lines of the old text, as Lines counts them.
func (r *Replacement) Lines() int { r.end(); return r.n }

// Dropped is Dropped(old, content, keep).
func (r *Replacement) Dropped() (gone, solid int) { r.end(); return r.gone[0], r.solid[0] }

// DroppedAll is Dropped(old, content, nil).
func (r *Replacement) DroppedAll() (gone, solid int) { r.end(); return r.gone[1], r.solid[1] }

// Placeholder is Placeholder(name, content, old).
func (r *Replacement) Placeholder() (line string, number int, ok bool) {
	r.end()
	for _, m := range r.marks {
		if !r.texts[m.trimmed].held {
			return m.line, m.number, true
		}
	}
	return "", 0, false
}

// Refuses is Refuses(name, old, content).
func (r *Replacement) Refuses() (line string, number int, ok bool) {
	line, number, ok = r.Placeholder()
	if !ok {
		return "", 0, false
	}
	_, solid := r.DroppedAll()
	if r.solidN == 0 || solid*100 <= r.solidN*MostPercent {
		return "", 0, false
	}
	return line, number, true
}
