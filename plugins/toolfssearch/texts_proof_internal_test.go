package toolfssearch

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestTextsAreTheOldSentences: the spill, note and glob-footer texts of texts.json render, byte for
// byte, what the code they replaced built (the proof before it was deleted).
func TestTextsAreTheOldSentences(t *testing.T) {
	type words struct{ noun, narrow, unsaved string }
	old := map[string]words{
		"glob": {"paths", "narrow pattern or path", "The complete result could not be saved; narrow pattern or path to see more."},
		"grep": {"matches", "narrow pattern, path, or include", "The complete result could not be saved; narrow pattern, path, or include to see more."},
	}
	oldRecovery := func(w words, s savedAs, total int) string {
		switch {
		case s.path == "":
			return w.unsaved
		case s.kept > 0:
			return "The first " + strconv.Itoa(s.kept) + " of " + strconv.Itoa(total) + " " + w.noun + " are stored at: " +
				s.path + " (spill files are capped at " + strconv.FormatInt(s.limit, 10) +
				" bytes). Use read with offset and limit on that path to see them; " + w.narrow + " to see the rest."
		}
		return strings.Replace("Full result stored at: %s. Use read with offset and limit on that path to see the rest.", "%s", s.path, 1)
	}
	oldNote := func(w words, kept, total int, limit int64) string {
		return "\n\n(The result was cut here: this file holds the first " + strconv.Itoa(kept) + " of " + strconv.Itoa(total) +
			" " + w.noun + "; spill files are capped at " + strconv.FormatInt(limit, 10) + " bytes. " +
			strings.ToUpper(w.narrow[:1]) + w.narrow[1:] + " to see the rest.)"
	}
	for tool, sw := range map[string]spillWords{"glob": globSpill, "grep": grepSpill} {
		w := old[tool]
		for _, s := range []savedAs{{}, {path: "/s/x.txt"}, {path: "/s/x.txt", kept: 7, limit: 1 << 20}} {
			require.Equal(t, oldRecovery(w, s, 12), sw.recovery(s, 12))
		}
		require.Equal(t, oldNote(w, 3, 9, 4096), sw.note(3, 9, 4096))
		require.Equal(t, len(oldNote(w, 0, 0, 4096))+2*18, sw.noteRoom(4096))
		p := strings.Repeat("/", 40)
		require.Equal(t, max(len(w.unsaved), len(oldRecovery(w, savedAs{path: p}, 0)), len(oldRecovery(w, savedAs{path: p, kept: 1, limit: 4096}, 0))+2*18),
			sw.longestRecovery(40, 4096))
	}
	require.Equal(t, "\n\n(Skipped 1 entry that could not be read.)\n\n(3 ignore files were applied only in part: their rules past the first 1 MiB, or past 32 KiB of wildcard patterns, were left out.)\n\n(The search stopped after visiting 5 entries; narrow pattern or path.)", notes(1, 3, 5))
	require.Equal(t, "\n\n(Skipped 2 entries that could not be read.)\n\n(1 ignore file was applied only in part: its rules past the first 1 MiB, or past 32 KiB of wildcard patterns, were left out.)", notes(2, 1, 0))
	v := GlobValue{Paths: []string{"a"}, Total: 5, SpillPath: "/s"}
	require.Equal(t, "\n\n(Showing 1 of 5 paths. Full result stored at: /s. Use read with offset and limit on that path to see the rest.)", globFooter(v))
	v.Sampled, v.EntriesShown, v.EntriesTotal = true, 2, 3
	require.Equal(t, "\n\n(Showing 1 of 5 paths, sampled across 2 of the 3 top-level entries this pattern matched instead of taken newest first. Narrow path to inspect a specific subtree. Full result stored at: /s. Use read with offset and limit on that path to see the rest.)", globFooter(v))
	v.EntriesShown = 3
	require.Equal(t, "\n\n(Showing 1 of 5 paths, sampled across 3 of the 3 top-level entries this pattern matched instead of taken newest first. Full result stored at: /s. Use read with offset and limit on that path to see the rest.)", globFooter(v))
	require.Equal(t, " (line truncated)", truncatedSuffix)
	require.Equal(t, "(line is not valid UTF-8)", invalidUTF8Line)
}
