package toolfs

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/cordon-dev/cordon/internal/nearmiss"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/seen"
)

// maxListedMatches bounds the occurrences an ambiguous edit's refusal lists.
const maxListedMatches = 20

// editGuidance adds to a literal-match refusal of edit where the text is (docs/tool-fs.md "edit",
// "Near misses"): for FS_EDIT_NOT_FOUND the closest places, for FS_AMBIGUOUS_EDIT the lines of each
// occurrence. It reads the file again, bounded by nearmiss.MaxBytes; any failure to read leaves
// the refusal as it was. It never changes the file.
func (s *suite) editGuidance(ctx context.Context, target fs.Target, in editInput, err error) error {
	fe, ok := errors.AsType[*fs.Error](err)
	if !ok || fe.Kind != fs.CodeEditNotFound && fe.Kind != fs.CodeAmbiguousEdit || fe.Message == fs.OldStringEmpty().Message {
		return err
	}
	_, read, rerr := fs.StatText(ctx, s.fs, target, nearmiss.MaxBytes+1)
	if rerr != nil || read == nil {
		return err
	}
	text := read.Text
	var guide string
	if fe.Kind == fs.CodeAmbiguousEdit {
		guide = matchesAt(text, in.oldString)
		if guide != "" && !oneName(text, in.oldString) {
			guide += "\n" + notOneNameText
		}
	} else if bare, ok := withoutLinePrefixes(in.oldString); ok {
		prefix, _ := prefixedLines(in.oldString)
		_, both := prefixedLines(in.newString)
		guide = prefixGuide(text, bare, prefix, both)
	} else {
		guide = nearmiss.Explain(nearmiss.Find(text, in.oldString), text)
	}
	if guide == "" {
		return err
	}
	return fs.NewError(fe.Kind, fe.Message+"\n"+guide, err)
}

// matchesAt lists the lines of every occurrence of old in text: "The matches are at lines 3, 7-8
// and 12." (at most maxListedMatches, then how many more).
func matchesAt(text, old string) string {
	lf := func(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }
	rs := seen.Touched(lf(text), lf(old))
	if len(rs) < 2 {
		return ""
	}
	var parts []string
	shown := 0
	for i := 0; i < len(rs) && len(parts) < maxListedMatches; {
		j := i
		for j < len(rs) && rs[j] == rs[i] {
			j++
		}
		part := strconv.Itoa(rs[i].First)
		if rs[i].First != rs[i].Last {
			part += "-" + strconv.Itoa(rs[i].Last)
		}
		if j-i > 1 {
			part = fsText.MustRender("edit.next.matches_at.times", "lines", part, "n", strconv.Itoa(j-i))
		}
		parts = append(parts, part)
		shown, i = j, j
	}
	key := "edit.next.matches_at.lines"
	if len(parts) == 1 && rs[0].First == rs[0].Last {
		key = "edit.next.matches_at.line"
	}
	list := parts[0]
	if len(parts) > 1 {
		list = fsText.MustRender("edit.next.matches_at.and", "list", strings.Join(parts[:len(parts)-1], ", "), "last", parts[len(parts)-1])
	}
	if more := len(rs) - shown; more > 0 {
		list = fsText.MustRender("edit.next.matches_at.more", "list", strings.Join(parts, ", "), "n", strconv.Itoa(more))
	}
	return fsText.MustRender(key, "list", list)
}

// elsewhereNote is the line the edit's success text gains when the file had changed, outside the
// lines the edit replaced, since it was read (staleness region; docs/tool-fs.md "edit").
func elsewhereNote(rs []fs.LineRange) string {
	if len(rs) == 0 {
		return ""
	}
	return "\n" + fsText.MustRender("edit.success.changed_elsewhere", "lines", seen.Spell(rs))
}

// LineRange is a run of line numbers of a file (fs.LineRange).
type LineRange = fs.LineRange

// prefixedLines reports whether every non-empty line of s begins with read's "<n>: " prefix, and
// returns the first of them. It allocates nothing, and a text whose first line has no prefix (the
// common case) is refused at that line.
func prefixedLines(s string) (first string, ok bool) {
	for l := range strings.SplitSeq(s, "\n") {
		if l == "" || l == "\r" {
			continue
		}
		p := linePrefix.FindString(l)
		if p == "" {
			return "", false
		}
		if first == "" {
			first = p
		}
	}
	return first, first != ""
}

// newPrefixesNote is the line an edit's success gains when every non-empty line of new_string
// carries read's "<n>: " prefix and old_string's do not: the prefixes are now in the file.
func newPrefixesNote(old, new string) string {
	prefix, ok := prefixedLines(new)
	if !ok {
		return ""
	}
	if _, ok := prefixedLines(old); ok {
		return ""
	}
	return "\n" + fsText.MustRender("edit.success.new_prefixes", "prefix", prefix)
}

// linePrefix is read's "<n>: " before a line (docs/tool-fs.md "The text the model sees").
var linePrefix = regexp.MustCompile(`^[0-9]+: `)

// withoutLinePrefixes returns old with read's "<n>: " prefixes taken off its lines, when every
// non-empty line has one.
func withoutLinePrefixes(old string) (string, bool) {
	lines := strings.Split(old, "\n")
	seenOne := false
	for i, l := range lines {
		if l == "" || l == "\r" {
			continue
		}
		loc := linePrefix.FindStringIndex(l)
		if loc == nil {
			return "", false
		}
		lines[i], seenOne = l[loc[1]:], true
	}
	return strings.Join(lines, "\n"), seenOne
}

// prefixGuide tells that old_string carried read's line prefixes and where the text without them
// is (or the closest text to it).
func prefixGuide(text, bare, prefix string, both bool) string {
	key := "edit.next.prefixes"
	if both {
		key = "edit.next.prefixes.both"
	}
	head := fsText.MustRender(key, "prefix", prefix)
	lf := func(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }
	rs := seen.Touched(lf(text), lf(bare))
	switch {
	case len(rs) == 1:
		return head + "\n" + fsText.MustRender("edit.next.prefixes.found_once", "lines", seen.Spell(rs))
	case len(rs) > 1:
		return head + "\n" + fsText.MustRender("edit.next.prefixes.found_many", "n", strconv.Itoa(len(rs)), "lines", seen.Spell(rs))
	}
	if more := nearmiss.Explain(nearmiss.Find(text, bare), text); more != "" {
		return head + "\n" + more
	}
	return head
}

// replacedNote is the line a replace_all success gains: how many occurrences were replaced and on
// which lines of the file now, and those that sat inside a longer name (a rename of NewNop also
// renames NewNopCore).
func replacedNote(before, old, new string) string {
	lf := func(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }
	before, old, new = lf(before), lf(old), lf(new)
	rs := seen.Touched(before, old)
	if len(rs) == 0 {
		return ""
	}
	grow := strings.Count(new, "\n") - strings.Count(old, "\n")
	now := make([]fs.LineRange, len(rs))
	for i, r := range rs {
		now[i] = fs.LineRange{First: r.First + i*grow, Last: r.Last + i*grow + grow}
	}
	note := "\n" + fsText.MustRender("edit.success.replaced.one", "lines", seen.Spell(now))
	if len(rs) > 1 {
		note = "\n" + fsText.MustRender("edit.success.replaced.many", "n", strconv.Itoa(len(rs)), "lines", seen.Spell(now))
	}
	if n, inside := insideNames(before, old); n == 1 {
		note += "\n" + fsText.MustRender("edit.success.inside_names.one", "names", strings.Join(inside, ", "))
	} else if n > 1 {
		note += "\n" + fsText.MustRender("edit.success.inside_names.many", "n", strconv.Itoa(n), "names", strings.Join(inside, ", "))
	}
	return note
}

// insideNames counts the occurrences of old in text that sat inside a longer identifier (old begins
// or ends with an identifier character and the text goes on with one), and names those identifiers
// (at most 3, each once).
func insideNames(text, old string) (n int, names []string) {
	word := func(b byte) bool {
		return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
	}
	if old == "" || !word(old[0]) && !word(old[len(old)-1]) {
		return 0, nil
	}
	for at := 0; ; {
		i := strings.Index(text[at:], old)
		if i < 0 {
			return n, names
		}
		i += at
		j := i + len(old)
		a, b := i, j
		for a > 0 && word(text[a-1]) && word(old[0]) {
			a--
		}
		for b < len(text) && word(text[b]) && word(old[len(old)-1]) {
			b++
		}
		if a < i || b > j {
			n++
			if len(names) < 3 && !slices.Contains(names, text[a:b]) {
				names = append(names, text[a:b])
			}
		}
		at = j
	}
}

// notOneNameText follows the matches of an ambiguous edit whose old_string is not one name used in
// several places: replace_all would change every one of them.
var notOneNameText = fsText.Text("edit.next.not_one_name")

// identifier is one name of a program: letters, digits and '_', not starting with a digit.
var identifier = regexp.MustCompile(`^[\p{L}_][\p{L}\p{N}_]*$`)

// oneName reports whether old is an identifier and every occurrence of it in text is the whole
// name (not inside a longer one): the matches look like one name used in several places.
func oneName(text, old string) bool {
	if !identifier.MatchString(old) {
		return false
	}
	n, _ := insideNames(text, old)
	return n == 0
}
