package toolfs

import (
	"context"
	"errors"
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
	info, serr := s.fs.Stat(ctx, target)
	if serr != nil || info == nil || info.HasSize && info.Size > nearmiss.MaxBytes {
		return err
	}
	read, rerr := s.fs.ReadText(ctx, target)
	if rerr != nil {
		return err
	}
	text := read.Text
	var guide string
	if fe.Kind == fs.CodeAmbiguousEdit {
		guide = matchesAt(text, in.oldString)
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
			part += " (" + strconv.Itoa(j-i) + " times)"
		}
		parts = append(parts, part)
		shown, i = j, j
	}
	word := "lines "
	if len(parts) == 1 && rs[0].First == rs[0].Last {
		word = "line "
	}
	list := parts[0]
	if len(parts) > 1 {
		list = strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
	}
	if more := len(rs) - shown; more > 0 {
		list = strings.Join(parts, ", ") + " and " + strconv.Itoa(more) + " more"
	}
	return "The matches are at " + word + list + "."
}

// elsewhereNote is the line the edit's success text gains when the file had changed, outside the
// lines the edit replaced, since it was read (staleness region; docs/tool-fs.md "edit").
func elsewhereNote(rs []fs.LineRange) string {
	if len(rs) == 0 {
		return ""
	}
	return "\nThe file had changed since it was read, at " + seen.Spell(rs) +
		" of the file before this edit; the lines this edit replaced had not changed."
}

// LineRange is a run of line numbers of a file (fs.LineRange).
type LineRange = fs.LineRange
