package fshistory_test

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/fshistory/history"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// Each change's prior content and digest are those of the bytes it replaced: after an edit (whose
// published bytes the next edit finds hashed already), and after a change by another program
// between two edits (same size, other bytes: hashed again, never assumed).
func TestPriorDigestIsOfTheBytesReplaced(t *testing.T) {
	e := newEnv(t, false, nil)
	s := tools.NewSession("s1")
	p := e.path("a.txt")
	require.NoError(t, os.WriteFile(p, []byte("\xEF\xBB\xBFone\ntwo\n"), 0o644))
	var priors [][]byte
	edit := func(from, to string) {
		t.Helper()
		priors = append(priors, readBytes(t, p))
		e.ok(t, s, "read", args{"file_path": p})
		e.ok(t, s, "edit", args{"file_path": p, "old_string": from, "new_string": to})
	}
	edit("two", "TWO")
	edit("one", "ONE")
	require.NoError(t, os.WriteFile(p, []byte("\xEF\xBB\xBFuno\nTWO\n"), 0o644)) // another program
	edit("uno", "UNO")

	recs := e.records(t) // newest first
	require.Len(t, recs, 3)
	lg, ok := history.Service.Get(e.root)
	require.True(t, ok)
	for i, want := range priors {
		r := recs[len(recs)-1-i]
		sum := sha256.Sum256(want)
		assert.Equal(t, hex.EncodeToString(sum[:]), r.Digest, "change %d", i)
		assert.Equal(t, int64(len(want)), r.Size, "change %d", i)
		got, err := lg.Store.Content(r)
		require.NoError(t, err, "change %d", i)
		assert.Equal(t, want, got, "change %d", i)
	}
}
