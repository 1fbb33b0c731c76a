package toolfs

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The texts no other test shows, compared with what the replaced code built.
func TestTextsAreTheOldSentences(t *testing.T) {
	require.Equal(t, "\nReplaced 1 occurrence, at line 1 of the file now.", replacedNote("a x b\n", "x", "y"))
	require.Equal(t, "\nReplaced 4 occurrences, at lines 1-2 of the file now.\n3 of them were inside longer names (xx, ax): check that this was meant.",
		replacedNote("x xx\nax\n", "x", "z"))
	require.Equal(t, "old_string carries read's line-number prefixes (\"12: \"), which are not part of the file: send it without them.\nWithout them it is found 2 times, at lines 1-2.",
		prefixGuide("a\na\n", "a"))
	require.Equal(t, `offset 9 is out of range for "/f" (2 lines)`, (&OffsetOutOfRangeError{Offset: 9, TotalLines: 2, DisplayPath: "/f"}).Error())
}
