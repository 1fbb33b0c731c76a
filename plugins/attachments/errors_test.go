package attachments_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/attachments"
)

// The fifteen codes of the contract, plus Cordon's IMAGE_OVER_MEMORY_BUDGET (an
// admission code: downscaling the image cures it) and ATTACHMENT_BUSY (not
// one: the image is fine, the store is saturated).
func TestCodesAreTheClosedSetOfTheSpec(t *testing.T) {
	want := []string{
		"TOO_MANY_IMAGES", "IMAGES_TOO_LARGE", "UNSUPPORTED_IMAGE_TYPE", "INVALID_IMAGE_BASE64",
		"INVALID_IMAGE", "IMAGE_TYPE_MISMATCH", "IMAGE_TOO_LARGE", "IMAGE_TOO_MANY_PIXELS",
		"IMAGE_DIMENSION_TOO_LARGE", "IMAGE_OVER_MEMORY_BUDGET", "INVALID_ATTACHMENT_REF",
		"ATTACHMENT_CORRUPT", "ATTACHMENT_WRITE_FAILED", "ATTACHMENT_NOT_FOUND", "ATTACHMENT_READ_FAILED",
		"ATTACHMENT_PROJECTION_UNSUPPORTED", "ATTACHMENT_BUSY",
	}
	got := make([]string, len(attachments.Codes))
	for i, c := range attachments.Codes {
		got[i] = string(c)
		assert.Equal(t, i < 10, c.AdmissionCode(), c)
	}
	assert.Equal(t, want, got)
}

func TestMessagesVerbatim(t *testing.T) {
	cases := map[string]string{
		attachments.MsgInvalidImageBase64:                    "Image upload is not canonical base64.",
		attachments.MsgTooManyImages:                         "Image batch exceeds the configured image-count limit.",
		attachments.MsgImagesTooLarge:                        "Image batch exceeds the configured aggregate image-byte limit.",
		attachments.UnsupportedImageTypeMessage("image/bmp"): "Image type image/bmp is not accepted by this deployment.",
		attachments.MsgImageTooLarge:                         "Image exceeds the configured byte limit.",
		attachments.MsgImageEmpty:                            "Image is empty.",
		attachments.MsgInvalidImage:                          "Unsupported or malformed image data.",
		attachments.MsgImageTooManyPixels:                    "Image exceeds the configured decoded-pixel limit.",
		attachments.MsgImageDimensionTooLarge:                "Image exceeds the configured per-side pixel limit.",
		attachments.MsgImageTypeMismatch:                     "Declared image type does not match its bytes.",
		attachments.MsgNormalizedTooLarge:                    "Image cannot be encoded within the configured normalized-image byte cap.",
		attachments.MsgRequestTooLarge:                       "Image cannot be encoded within the model-request byte budget.",
		attachments.ConversionFailedMessage("16-bit PNG"):    "The 16-bit PNG could not be converted to the normalized 8-bit sRGB form.",
		attachments.MsgNormalizedSelfCheck:                   "Image normalization did not produce a single-frame 8-bit sRGB image with matching metadata.",
		attachments.MsgRequestSelfCheck:                      "Encoded model-request image does not match its verified 8-bit sRGB metadata.",
		attachments.MsgWriteFailed:                           "Unable to persist image attachment.",
		attachments.MsgInvalidAttachmentRef:                  "Attachment reference is invalid.",
		attachments.MsgPolicyMaxPixels:                       "Image request maxPixels must be a positive integer.",
		attachments.MsgPolicyMaxBytes:                        "Image request maxBytes must be a positive integer.",
		attachments.MsgPreparedCorrupt:                       "Prepared attachment bytes do not match their reference.",
		attachments.MsgDigestCorrupt:                         "Stored attachment failed integrity verification.",
		attachments.MsgFactsCorrupt:                          "Stored attachment metadata does not match its reference.",
		attachments.MsgNotFound:                              "Attachment object is missing.",
		attachments.MsgReadFailed:                            "Unable to read image attachment.",
		attachments.MsgProjectionUnsupported:                 "The mounted attachment provider cannot derive model-request images.",
	}
	for got, want := range cases {
		assert.Equal(t, want, got)
	}
}

func TestErrorShapeIsAndAs(t *testing.T) {
	cause := errors.New("disk full")
	err := fmt.Errorf("outer: %w", attachments.WriteFailed(cause))

	assert.True(t, errors.Is(err, attachments.ErrWriteFailed), "code sentinel matches any message")
	assert.True(t, errors.Is(err, &attachments.Error{Kind: attachments.CodeWriteFailed, Message: attachments.MsgWriteFailed}))
	assert.False(t, errors.Is(err, &attachments.Error{Kind: attachments.CodeWriteFailed, Message: "other"}))
	assert.False(t, errors.Is(err, attachments.ErrReadFailed))
	assert.True(t, errors.Is(err, cause), "cause is chained")

	var ae *attachments.Error
	require.True(t, errors.As(err, &ae))
	assert.Equal(t, "AttachmentError", ae.Name())
	assert.Equal(t, "ATTACHMENT_WRITE_FAILED", ae.Code())
	assert.Equal(t, "Unable to persist image attachment.", ae.Error())
	assert.Equal(t, attachments.CodeWriteFailed, attachments.CodeOf(err))
	assert.True(t, attachments.HasCode(err, attachments.CodeWriteFailed))
	assert.Equal(t, attachments.Code(""), attachments.CodeOf(cause))

	assert.Equal(t, attachments.CodeReadFailed, attachments.CodeOf(attachments.ReadFailed(cause)))
	assert.Equal(t, attachments.CodeInvalidAttachmentRef, attachments.InvalidRef().Kind)
	assert.Equal(t, attachments.MsgInvalidAttachmentRef, attachments.InvalidRef().Message)
	assert.Equal(t, attachments.MsgInvalidImage, attachments.InvalidImage(nil).Error())
	c := attachments.ConversionFailed("uchar JPEG", cause)
	assert.Equal(t, "The uchar JPEG could not be converted to the normalized 8-bit sRGB form.", c.Error())
	assert.ErrorIs(t, c, cause)
}

// foreignErr is an error type of another package that carries a code.
type foreignErr struct{ code string }

func (f foreignErr) Error() string { return "foreign policy error" }
func (f foreignErr) Code() string  { return f.code }

// Reference: "separates caller-correctable image admission failures from storage faults".
func TestIsImageAdmissionError(t *testing.T) {
	assert.True(t, attachments.IsImageAdmissionError(attachments.NewError(attachments.CodeInvalidImage, "bad bytes", nil)))
	assert.True(t, attachments.IsImageAdmissionError(attachments.NewError(attachments.CodeInvalidImageBase64, "bad base64", nil)))
	assert.True(t, attachments.IsImageAdmissionError(attachments.NewError(attachments.CodeTooManyImages, "too many", nil)))
	assert.True(t, attachments.IsImageAdmissionError(foreignErr{"IMAGE_TOO_LARGE"}), "structural")
	assert.True(t, attachments.IsImageAdmissionError(fmt.Errorf("wrapped: %w", foreignErr{"IMAGE_TYPE_MISMATCH"})))
	assert.False(t, attachments.IsImageAdmissionError(attachments.NewError(attachments.CodeAttachmentCorrupt, "corrupt object", nil)))
	assert.False(t, attachments.IsImageAdmissionError(attachments.NewError(attachments.CodeWriteFailed, "disk failed", nil)))
	assert.False(t, attachments.IsImageAdmissionError(foreignErr{"FS_TOO_LARGE"}))
	assert.False(t, attachments.IsImageAdmissionError(errors.New("unknown failure")))
	assert.False(t, attachments.IsImageAdmissionError(nil))
	for _, c := range attachments.Codes {
		assert.Equal(t, c.AdmissionCode(), attachments.IsImageAdmissionError(attachments.NewError(c, "x", nil)), c)
	}
}

func TestMediaTypes(t *testing.T) {
	assert.Equal(t, []attachments.MediaType{"image/png", "image/jpeg", "image/webp", "image/gif"}, attachments.MediaTypes())
	for _, m := range attachments.MediaTypes() {
		assert.True(t, m.Known())
	}
	assert.False(t, attachments.MediaType("image/svg+xml").Known())
	l := attachments.ImageLimits{MediaTypes: []attachments.MediaType{attachments.MediaTypePNG}}
	assert.True(t, l.Accepts("image/png"))
	assert.False(t, l.Accepts("image/jpeg"))
}
