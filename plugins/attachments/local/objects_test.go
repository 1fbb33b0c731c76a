package local

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/attachments"
)

// A stored object that grew (appended bytes, or a sparse file of many GiB
// in its place) never makes a verified read or a dedup check buffer the
// whole file: a modest growth is reported as ATTACHMENT_CORRUPT with the
// exact message, a file too large to read (like Node's readFile past
// 2 GiB) as ATTACHMENT_READ_FAILED on read and ATTACHMENT_WRITE_FAILED on
// a dedup save; memory stays bounded and the call returns promptly.
func TestOversizedObjectsStayBounded(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	ref := save(t, s, png90, attachments.MediaTypePNG)
	obj := objectOf(s, ref)

	require.NoError(t, os.WriteFile(obj, append(append([]byte{}, png90...), 0), 0o600))
	_, err := s.ReadImage(ctx, ref)
	assert.True(t, errorIsExactly(err, attachments.CodeAttachmentCorrupt, attachments.MsgDigestCorrupt), "%v", err)

	// The genuine object under a ref that claims fewer bytes: the digest
	// holds, the facts do not.
	require.NoError(t, os.WriteFile(obj, png90, 0o600))
	short := ref
	short.Bytes--
	_, err = s.ReadImage(ctx, short)
	assert.True(t, errorIsExactly(err, attachments.CodeAttachmentCorrupt, attachments.MsgFactsCorrupt), "%v", err)

	require.NoError(t, os.Truncate(obj, 3<<30)) // sparse: 3 GiB of zeros
	start := time.Now()
	var readErr, saveErr error
	n := allocatedDuring(func() {
		_, readErr = s.ReadImage(ctx, ref)
		_, saveErr = s.SaveImage(ctx, attachments.SaveImage{Data: png90, MediaType: attachments.MediaTypePNG})
	})
	assert.True(t, errorIsExactly(readErr, attachments.CodeReadFailed, attachments.MsgReadFailed), "%v", readErr)
	assert.True(t, errorIsExactly(saveErr, attachments.CodeWriteFailed, attachments.MsgWriteFailed), "%v", saveErr)
	assert.NotContains(t, readErr.Error()+saveErr.Error(), s.home, "no host path in the messages")
	assert.Less(t, n, uint64(64<<20), "allocated %d bytes", n)
	assert.Less(t, time.Since(start), 5*time.Second)
	assert.Empty(t, dirNames(t, s.root+"/tmp"), "no staging residue")
}
