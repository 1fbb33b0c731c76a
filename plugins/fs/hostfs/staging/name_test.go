package staging_test

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/cordon-dev/cordon/plugins/fs/hostfs/staging"
)

// Base keeps names up to MaxBase bytes and cuts longer ones at a UTF-8 boundary, so a staging
// directory name always fits 255 bytes.
func TestBase(t *testing.T) {
	assert.Equal(t, 199, staging.MaxBase)
	cases := []struct{ in, want string }{
		{"note.txt", "note.txt"},
		{strings.Repeat("a", 199), strings.Repeat("a", 199)},
		{strings.Repeat("a", 255), strings.Repeat("a", 199)},
		{"x" + strings.Repeat("世", 84), "x" + strings.Repeat("世", 66)},   // 1+66*3 = 199
		{"xy" + strings.Repeat("世", 84), "xy" + strings.Repeat("世", 65)}, // 2+65*3 = 197: no split rune
	}
	for _, c := range cases {
		assert.Equal(t, c.want, staging.Base(c.in))
		assert.LessOrEqual(t, len(staging.Name(c.in)), 255)
	}
}

// OwnerPID reads back the pid of every name Name makes (long and dotted bases included) and
// refuses anything else.
func TestOwnerPID(t *testing.T) {
	for _, base := range []string{"a", "doc.txt", ".hidden", "a.1.b", strings.Repeat("L", 255), "x" + strings.Repeat("世", 84)} {
		pid, ok := staging.OwnerPID(staging.Name(base))
		assert.True(t, ok, base)
		assert.Equal(t, os.Getpid(), pid, base)
	}
	const uuid = "0b8f1c2e-3d4a-4b5c-8d6e-7f8091a2b3c4"
	for _, name := range []string{
		"", ".tmpdir", "doc.txt", ".doc.txt.12." + uuid, // no suffix
		"doc.txt.12." + uuid + ".tmpdir",   // no leading dot
		".doc.txt.12.short.tmpdir",         // no uuid
		"..12." + uuid + ".tmpdir",         // empty base
		".doc.txt.x12." + uuid + ".tmpdir", // pid not a number
		".doc.txt.012." + uuid + ".tmpdir", // not a canonical pid
		".doc.txt.0." + uuid + ".tmpdir",
		".doc.txt.-5." + uuid + ".tmpdir",
	} {
		_, ok := staging.OwnerPID(name)
		assert.False(t, ok, name)
	}
	pid, ok := staging.OwnerPID(".doc.txt.12." + uuid + ".tmpdir")
	assert.True(t, ok)
	assert.Equal(t, 12, pid)
}
