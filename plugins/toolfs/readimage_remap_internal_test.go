package toolfs

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/attachments"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// A remedy hides the store's code from the result envelope (it is a plain error),
// yet keeps the store's error as its cause for errors.Is and errors.As.
func TestRemapSaveErrorKeepsTheCauseButNoCode(t *testing.T) {
	limits := attachments.ImageLimits{MaxImagePixels: 4, MaxImageDimension: 2}
	claim := imageClaim{mediaType: attachments.MediaTypePNG, ext: ".png"}
	for _, kind := range []attachments.Code{attachments.CodeImageTooManyPixels, attachments.CodeImageDimensionTooLarge,
		attachments.CodeImageTooLarge, attachments.CodeImageTypeMismatch} {
		cause := attachments.NewError(kind, "store says no", nil)
		err := remapSaveError(cause, "/w/a.png", limits, claim)
		require.NotSame(t, cause, err, kind)
		assert.ErrorIs(t, err, cause, kind)
		var ae *attachments.Error
		require.ErrorAs(t, err, &ae, kind)
		assert.Equal(t, kind, ae.Kind)
		var coded tools.Coded
		require.ErrorAs(t, err, &coded)
		assert.Empty(t, coded.Code(), "the first coded error in the chain is the uncoded remedy")
	}
	unchanged := attachments.WriteFailed(errors.New("disk full"))
	assert.Same(t, unchanged, remapSaveError(unchanged, "/w/a.png", limits, claim), "no remedy: the store's error itself")
	foreign := errors.New("x")
	assert.Same(t, foreign, remapSaveError(foreign, "/w/a.png", limits, claim))
}

// INVALID_IMAGE and the memory-budget codes name the file yet keep the store's {name, code}, and
// the store's error (with its ImageFault) stays reachable.
func TestRemapSaveErrorKeepsTheCodeOfInvalidImage(t *testing.T) {
	limits := attachments.ImageLimits{MaxImagePixels: 4, MaxImageDimension: 2}
	fault := &attachments.ImageFault{Format: attachments.MediaTypePNG, Kind: attachments.FaultTruncated}
	for _, cause := range []*attachments.Error{
		attachments.InvalidImage(fault),
		attachments.NewError(attachments.CodeImageOverMemoryBudget, "Image is too large to normalize in memory.", nil),
		attachments.NewError(attachments.CodeBusy, "Image normalization is busy.", nil),
	} {
		for _, claim := range []imageClaim{{mediaType: attachments.MediaTypePNG, ext: ".png"}, {mediaType: attachments.MediaTypePNG, sniffed: true}} {
			err := remapSaveError(cause, "/w/a.png", limits, claim)
			assert.ErrorIs(t, err, cause)
			var coded tools.Coded
			require.ErrorAs(t, err, &coded)
			assert.Equal(t, string(cause.Kind), coded.Code())
			named, ok := coded.(tools.Named)
			require.True(t, ok)
			assert.Equal(t, attachments.ErrorName, named.Name())
			assert.Contains(t, err.Error(), `cannot read "/w/a.png": `)
		}
	}
	assert.Same(t, fault, attachments.FaultOf(remapSaveError(attachments.InvalidImage(fault), "/w/a.png", limits, imageClaim{})))
}
