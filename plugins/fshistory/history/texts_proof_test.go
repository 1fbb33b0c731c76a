package history

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestTextsAreTheOldSentences: each text of texts.json renders, byte for byte, what the format
// strings it replaced gave (the proof before they were deleted).
func TestTextsAreTheOldSentences(t *testing.T) {
	q := func(s string) string { return `"` + s + `"` }
	cases := []struct{ got, want string }{
		{msg("undo.success", "path", "/a b", "tool", "edit", "time", "T"), "Restored " + q("/a b") + " to its state before the edit at T."},
		{msg("undo.success.removed", "path", "/a", "tool", "write", "time", "T"), "Restored " + q("/a") + " to its state before the write at T: it did not exist, so it was removed."},
		{"\n" + Texts.Text("undo.next.none"), "\nThe history holds no earlier change by this session to it."},
		{"\n" + msg("undo.next.again", "tool", "edit", "time", "T"), "\nUndo again to restore it to its state before the edit at T."},
		{msg("undo.error.outside_cwd", "path", "/a", "cwd", "/w"), fmt.Sprintf("cannot undo \"%s\": it is not under the working directory \"%s\"", "/a", "/w")},
		{msg("undo.error.relinked", "path", "/a", "target", "/b"), fmt.Sprintf("cannot undo \"%s\": it now leads to \"%s\", not to the file Cordon changed (a symlink since the change); nothing was restored", "/a", "/b")},
		{msg("undo.error.digest_only", "path", "/a", "tool", "edit", "time", "T", "size", "123"), fmt.Sprintf("cannot undo \"%s\": its content before the %s at %s was %d bytes, so the history kept its digest only", "/a", "edit", "T", 123)},
		{msg("undo.error.lost", "path", "/a", "tool", "edit", "time", "T"), fmt.Sprintf("cannot undo \"%s\": the history lost the content from before the %s at %s", "/a", "edit", "T")},
		{msg("undo.error.no_such_change", "change", "c9"), fmt.Sprintf("cannot undo change \"%s\": no such change in the history", "c9")},
		{msg("undo.error.undo_of_undo", "change", "c9", "undoes", "c8"), fmt.Sprintf("cannot undo change \"%s\": it is the undo of change %s, and an undo is not undone", "c9", "c8")},
		{msg("undo.error.undone", "change", "c9", "by", "c10"), fmt.Sprintf("cannot undo change \"%s\": it was undone already (change %s)", "c9", "c10")},
		{msg("undo.error.other_session", "change", "c9", "session", "s1"), fmt.Sprintf("cannot undo change \"%s\": it was made in another session (%s)", "c9", q("s1"))},
		{msg("undo.error.none", "path", "/a"), fmt.Sprintf("cannot undo \"%s\": the history holds no change by Cordon to it%s", "/a", " in this session")},
		{msg("undo.error.none.any_session", "path", "/a"), fmt.Sprintf("cannot undo \"%s\": the history holds no change by Cordon to it%s", "/a", "")},
		{msg("undo.error.later", "path", "/a", "later", msg("undo.later.in_session", "tool", "write", "session", "s2"), "later_time", "U", "later_change", "c2", "tool", "edit", "time", "T", "change", "c1"),
			fmt.Sprintf("cannot undo \"%s\": file changed since Cordon's last change — the %s at %s (change %s) came after the %s at %s (change %s); undo that first", "/a", "write"+" in session "+q("s2"), "U", "c2", "edit", "T", "c1")},
		{msg("undo.error.outside", "path", "/a", "what", msg("undo.outside.created"), "tool", "edit", "time", "T", "change", "c1"),
			fmt.Sprintf("cannot undo \"%s\": file changed since Cordon's last change — %s after the %s at %s (change %s); nothing was restored", "/a", "it was created outside Cordon", "edit", "T", "c1")},
		{msg("undo.outside.changed"), "it was changed outside Cordon"},
		{msg("undo.outside.removed"), "it was removed outside Cordon"},
		{Texts.Text("undo.description"), "Restores a file to what it was before your last change to it in this session (write, edit, or apply_patch): " +
			"a file that change created is removed. Call it again to step further back. " +
			"It refuses, changing nothing, when the file changed since that change (by anyone); read the file then. " +
			"After an undo, read the file before changing it again."},
	}
	for _, c := range cases {
		require.Equal(t, c.want, c.got)
	}
}
