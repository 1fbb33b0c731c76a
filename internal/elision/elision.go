// Package elision recognizes a whole-file text that stands for lines it does not hold: an elision
// placeholder ("// ... rest of the file unchanged ...") in the file's comment syntax, and the lines
// of the old text a replacement would drop (docs/tool-fs.md "Writes that would drop lines").
package elision

import (
	"regexp"
	"strings"
)

// markers are the line-comment openers of a file's kind, by extension; a file of another kind may
// use any of allMarkers.
var markers = map[string][]string{}

// allMarkers are the comment openers a placeholder may follow.
var allMarkers = []string{"//", "/*", "#", "--", "<!--", ";", "%", "{/*", "'", "\"\"\""}

func init() {
	for _, e := range strings.Fields(".go .c .h .cc .cpp .hpp .cs .java .js .jsx .ts .tsx .mjs .cjs .rs .swift .kt .kts .scala .dart .php .css .scss .less .proto .zig .groovy") {
		markers[e] = []string{"//", "/*", "*", "{/*"}
	}
	for _, e := range strings.Fields(".py .sh .bash .zsh .rb .pl .yaml .yml .toml .r .cmake .mk .dockerfile .conf .ini .nix .ex .exs .jl .tf") {
		markers[e] = []string{"#", "\"\"\"", ";"}
	}
	for _, e := range strings.Fields(".sql .lua .hs .elm .ada") {
		markers[e] = []string{"--"}
	}
	for _, e := range strings.Fields(".html .htm .xml .svg .vue .md .markdown") {
		markers[e] = []string{"<!--", "//", "/*", "{/*"}
	}
	for _, e := range strings.Fields(".lisp .clj .el .scm .asm .s") {
		markers[e] = []string{";"}
	}
	for _, e := range strings.Fields(".tex .m .erl") {
		markers[e] = []string{"%"}
	}
}

// closers are what may end a placeholder's comment.
var closers = []string{"*/}", "*/", "-->", "\"\"\""}

// The bodies of placeholder comments once their markers are gone: an ellipsis alone; an ellipsis
// at either end with a word of elision; or, without one, words saying that lines stand elsewhere
// unchanged.
var (
	bareEllipsis = regexp.MustCompile(`^(?:\.{3,}|…)$`)
	withEllipsis = regexp.MustCompile(`(?i)^(?:\.{3,}|…).*\b(?:unchanged|existing|rest|remaining|remainder|other|others|omitted|elided|same|previous|original|as before|more|etc)\b|` +
		`(?i)\b(?:unchanged|existing|rest|remaining|remainder|other|others|omitted|elided|same|previous|original|as before|more|etc)\b.*(?:\.{3,}|…)$`)
	wordsOnly = regexp.MustCompile(`(?i)^(?:the\s+)?(?:rest|remainder)\s+of\s+(?:the\s+)?\w+(?:\s+\w+)?\s+(?:is\s+|remains\s+|stays\s+|are\s+)?(?:unchanged|the same|as before)\b|` +
		`^(?i)(?:existing|unchanged|previous|original|other)\s+(?:code|content|lines|methods|functions|implementation|tests|imports|fields)\s*(?:here|unchanged|omitted|as before|remains? (?:the same|unchanged))?\.?$`)
)

// placeholderBody reports whether b, a comment's body, is an elision placeholder.
func placeholderBody(b string) bool {
	return bareEllipsis.MatchString(b) || withEllipsis.MatchString(b) || wordsOnly.MatchString(b)
}

// Placeholder returns the first line of content that is an elision placeholder in the comment
// syntax of the file named name (any common one for a name of unknown kind) and that old does not
// hold (a comment the file already had is not an elision), and its 1-based number.
func Placeholder(name, content, old string) (line string, number int, ok bool) {
	return NewReplacement(name, content, nil).whole(old).Placeholder()
}

// Candidate reports, cheaply, whether content may hold a placeholder (an ellipsis or a word of
// one): when it does not, Placeholder finds none.
func Candidate(content string) bool {
	if strings.Contains(content, "...") || strings.Contains(content, "…") {
		return true
	}
	lower := strings.ToLower(content)
	for _, w := range []string{"unchanged", "rest", "remainder", "existing", "previous", "original", "other"} {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// commentBody returns t without its comment markers when t is a comment in one of ms.
func commentBody(t string, ms []string) (string, bool) {
	for _, m := range ms {
		if !strings.HasPrefix(t, m) {
			continue
		}
		b := strings.TrimSpace(t[len(m):])
		for _, c := range closers {
			b = strings.TrimSpace(strings.TrimSuffix(b, c))
		}
		b = strings.TrimSpace(strings.Trim(b, "[]()"))
		return b, b != ""
	}
	return "", false
}

// Dropped counts the lines of old that content does not keep: each line of old (trimmed) is kept
// by one line of content with the same trimmed text, each line of content keeping at most one.
// gone is every dropped line, solid the dropped lines that are not blank; when keep is not nil only
// the lines of old (1-based) it accepts are counted, and the lines it refuses (those the model
// read) are matched with content first, so a line of content that repeats a read line (a "}" or a
// blank) does not count as keeping an unread line that looks the same.
func Dropped(old, content string, keep func(line int) bool) (gone, solid int) {
	return NewReplacement("", content, keep).whole(old).Dropped()
}

// Lines is the number of lines of text (a last line without '\n' counts; "" has none).
func Lines(text string) int {
	if text == "" {
		return 0
	}
	return strings.Count(strings.TrimSuffix(text, "\n"), "\n") + 1
}

// MostPercent is the share of an old file's non-blank lines a content with a placeholder must drop
// to be refused: more than half.
const MostPercent = 50

// Refuses reports whether a whole-file write of content over old is refused for its placeholder:
// content holds one (Placeholder) and drops more than MostPercent of old's non-blank lines. It
// returns the placeholder line and its number.
func Refuses(name, old, content string) (line string, number int, ok bool) {
	return NewReplacement(name, content, nil).whole(old).Refuses()
}
