package local

import (
	"context"
	"image/color"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/attachments"
)

// Images save and read through the service boundary, and a fully prepared
// batch commits in input order.
func TestBatchCommitsInInputOrder(t *testing.T) {
	s := newStore(t)
	first := encPNG(t, flat(2, 1, color.NRGBA{1, 2, 3, 255}))
	second := encPNG(t, flat(1, 2, color.NRGBA{4, 5, 6, 255}))
	refs, err := s.SaveImages(context.Background(), []attachments.SaveImage{
		{Data: first, MediaType: "image/png", Name: "first.png"},
		{Data: second, MediaType: "image/png", Name: "second.png"},
	})
	require.NoError(t, err)
	require.Len(t, refs, 2)
	assert.Equal(t, []string{"first.png", "second.png"}, []string{refs[0].Name, refs[1].Name})
	assert.Equal(t, sha(first), string(refs[0].AttachmentID))
	assert.Equal(t, sha(second), string(refs[1].AttachmentID))
	for _, r := range refs {
		_, err := s.ReadImage(context.Background(), r)
		require.NoError(t, err)
	}
	refs, err = s.SaveImages(context.Background(), nil)
	require.NoError(t, err)
	assert.NotNil(t, refs)
	assert.Empty(t, refs)
}

// Reference: "prepares every batch member before any write" and "validates
// without persisting: a rejected image leaves no storage root behind".
func TestBatchPreparesBeforeAnyWrite(t *testing.T) {
	s := newStore(t, withPolicy(0, 1))
	_, err := s.SaveImages(context.Background(), []attachments.SaveImage{
		{Data: png90, MediaType: "image/png"}, {Data: png90, MediaType: "image/png"},
	})
	assert.True(t, errorIsExactly(err, attachments.CodeImageTooLarge, attachments.MsgNormalizedTooLarge), "%v", err)
	_, statErr := os.Stat(s.root)
	assert.True(t, os.IsNotExist(statErr), "the storage root is not even created")

	v := newStore(t)
	err = v.ValidateImage(context.Background(), attachments.SaveImage{Data: []byte{1, 2, 3}, MediaType: "image/png"})
	assert.EqualError(t, err, "Unsupported or malformed image data.")
	limited := newStore(t, func(c *Config) { c.Home = &v.home; c.MaxImageBytes = 1 })
	err = limited.ValidateImage(context.Background(), attachments.SaveImage{Data: png90, MediaType: "image/png"})
	assert.True(t, errorIsExactly(err, attachments.CodeImageTooLarge, attachments.MsgImageTooLarge), "%v", err)
	require.NoError(t, v.ValidateImage(context.Background(), attachments.SaveImage{Data: png90, MediaType: "image/png"}))
	_, statErr = os.Stat(v.home)
	assert.True(t, os.IsNotExist(statErr), "validation never touches storage")
}

// docs/attachments.md "Admission": the batch check uses source bytes, runs
// before any decode, allows equality; saveImage alone skips it.
func TestBatchCheck(t *testing.T) {
	s := newStore(t, func(c *Config) { c.MaxImagesPerMessage, c.MaxMessageImageBytes = 2, 180 })
	ctx := context.Background()
	img := attachments.SaveImage{Data: png90, MediaType: "image/png"}
	_, err := s.SaveImages(ctx, []attachments.SaveImage{img, img, img})
	assert.True(t, errorIsExactly(err, attachments.CodeTooManyImages, attachments.MsgTooManyImages), "%v", err)
	junk := attachments.SaveImage{Data: make([]byte, 91), MediaType: "image/png"}
	_, err = s.SaveImages(ctx, []attachments.SaveImage{img, junk})
	assert.True(t, errorIsExactly(err, attachments.CodeImagesTooLarge, attachments.MsgImagesTooLarge), "before any decode: %v", err)
	refs, err := s.SaveImages(ctx, []attachments.SaveImage{img, img})
	require.NoError(t, err, "180 bytes == limit")
	assert.Len(t, refs, 2)
	// mediaTypes is all four types: nothing to refuse; an unknown type is
	// refused by the batch check but not by SaveImage (which then reports
	// the mismatch after decoding).
	_, err = s.SaveImages(ctx, []attachments.SaveImage{{Data: png90, MediaType: "image/bmp"}})
	assert.EqualError(t, err, "Image type image/bmp is not accepted by this deployment.")
	_, err = s.SaveImage(ctx, attachments.SaveImage{Data: png90, MediaType: "image/bmp"})
	assert.True(t, errorIsExactly(err, attachments.CodeImageTypeMismatch, attachments.MsgImageTypeMismatch), "%v", err)
	assert.Equal(t, []attachments.MediaType{"image/png", "image/jpeg", "image/webp", "image/gif"}, s.ImageLimits().MediaTypes)
}

// docs/attachments.md "Admission": several invalid members ⇒ the first in
// input order.
func TestBatchReportsFirstFailingMember(t *testing.T) {
	s := newStore(t)
	_, err := s.SaveImages(context.Background(), []attachments.SaveImage{
		{Data: png90, MediaType: "image/png"},
		{Data: []byte{1, 2, 3}, MediaType: "image/png"},
		{Data: png90, MediaType: "image/gif"},
	})
	assert.True(t, errorIsExactly(err, attachments.CodeInvalidImage, attachments.MsgInvalidImage), "%v", err)
	_, statErr := os.Stat(s.root)
	assert.True(t, os.IsNotExist(statErr))
}

// docs/attachments.md "Admission": a commit failure returns no refs; objects
// already published for earlier members stay on disk (unreachable).
func TestBatchCommitFailureKeepsEarlierObjects(t *testing.T) {
	s := newStore(t)
	h := png69ID[7:]
	require.NoError(t, os.MkdirAll(filepath.Join(s.root, "objects", h[:2], h), 0o700))
	refs, err := s.SaveImages(context.Background(), []attachments.SaveImage{
		{Data: png90, MediaType: "image/png"}, {Data: png69, MediaType: "image/png"},
	})
	assert.Nil(t, refs)
	assert.True(t, errorIsExactly(err, attachments.CodeWriteFailed, attachments.MsgWriteFailed), "%v", err)
	_, err = os.Stat(filepath.Join(s.root, "objects", png90ID[7:9], png90ID[7:]))
	assert.NoError(t, err, "the first member's object stays")
}

// Wire uploads (canonical base64, docs/attachments.md "Admission") through
// the real store.
func TestAdmitEncodedImagesThroughStore(t *testing.T) {
	s := newStore(t)
	refs, err := attachments.AdmitEncodedImages(context.Background(), s, []attachments.EncodedImage{
		{MediaType: "image/png", Data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAADElEQVQImWNgZGIGAAAOAAeCcsnOAAAAAElFTkSuQmCC", Name: `C:\shots\one.png`},
	})
	require.NoError(t, err)
	require.Len(t, refs, 1)
	assert.Equal(t, attachments.ImageRef{AttachmentID: png90ID, MediaType: "image/png", Bytes: 90, Width: 1, Height: 1, Name: "one.png"}, refs[0])
	_, err = attachments.AdmitEncodedImages(context.Background(), s, []attachments.EncodedImage{{MediaType: "image/png", Data: "iVBORw0KGgo\n"}})
	assert.True(t, errorIsExactly(err, attachments.CodeInvalidImageBase64, attachments.MsgInvalidImageBase64), "%v", err)
}
