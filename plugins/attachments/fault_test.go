package attachments_test

import (
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/cordon-dev/cordon/plugins/attachments"
)

// Every ImageFault text, pinned: what failed and what to do, with no path.
func TestImageFaultMessages(t *testing.T) {
	cases := []struct {
		fault attachments.ImageFault
		want  string
	}{
		{attachments.ImageFault{Kind: attachments.FaultEmpty},
			"the file is empty (0 bytes); write the image data to it or read another file"},
		{attachments.ImageFault{Kind: attachments.FaultUnrecognized},
			"the bytes carry no PNG, JPEG, WebP or GIF signature, so they are not an image in one of those formats; convert the image to PNG or JPEG and retry"},
		{attachments.ImageFault{Kind: attachments.FaultUnrecognized, Other: "TIFF"},
			"the bytes are a TIFF image, not PNG/JPEG/WebP/GIF; convert it to PNG or JPEG and retry"},
		{attachments.ImageFault{Kind: attachments.FaultUnrecognized, Other: "HEIF"},
			"the bytes are an HEIF image, not PNG/JPEG/WebP/GIF; convert it to PNG or JPEG and retry"},
		{attachments.ImageFault{Kind: attachments.FaultUnrecognized, Other: "AVIF"},
			"the bytes are an AVIF image, not PNG/JPEG/WebP/GIF; convert it to PNG or JPEG and retry"},
		{attachments.ImageFault{Format: attachments.MediaTypePNG, Kind: attachments.FaultHeader, Detail: "png: invalid format: bad IHDR length"},
			"the PNG header is malformed (png: invalid format: bad IHDR length); the file is damaged or not really a PNG — re-create or re-download it"},
		{attachments.ImageFault{Format: attachments.MediaTypeWebP, Kind: attachments.FaultTruncated},
			"the WebP data ends before the image is complete (the file is truncated); re-create or re-download the complete file"},
		{attachments.ImageFault{Format: attachments.MediaTypeJPEG, Kind: attachments.FaultUnsupported, Detail: "12-bit JPEG"},
			"the file is a 12-bit JPEG, a variant the decoder does not support; convert it to an 8-bit baseline JPEG or a PNG and retry"},
		{attachments.ImageFault{Format: attachments.MediaTypeJPEG, Kind: attachments.FaultUnsupported, Detail: "arithmetic-coded JPEG"},
			"the file is an arithmetic-coded JPEG, a variant the decoder does not support; convert it to an 8-bit baseline JPEG or a PNG and retry"},
		{attachments.ImageFault{Format: attachments.MediaTypeGIF, Kind: attachments.FaultCorrupt, Detail: "gif: reading image data: lzw: invalid code"},
			"the GIF pixel data is corrupt (gif: reading image data: lzw: invalid code); re-create or re-download the file"},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, c.fault.Error())
	}
}

// The fault rides as the cause of an INVALID_IMAGE whose message stays the
// contract's; FaultOf and errors.As find it, and it unwraps to the
// decoder's error.
func TestImageFaultChain(t *testing.T) {
	f := &attachments.ImageFault{Format: attachments.MediaTypePNG, Kind: attachments.FaultTruncated, Err: io.ErrUnexpectedEOF}
	err := fmt.Errorf("save: %w", attachments.InvalidImage(f))
	assert.Equal(t, "save: Unsupported or malformed image data.", err.Error())
	assert.Same(t, f, attachments.FaultOf(err))
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
	assert.ErrorIs(t, err, attachments.ErrInvalidImage)
	assert.Nil(t, attachments.FaultOf(errors.New("x")))
	assert.Equal(t, []string{"PNG", "JPEG", "WebP", "GIF"}, []string{
		attachments.FormatName(attachments.MediaTypePNG), attachments.FormatName(attachments.MediaTypeJPEG),
		attachments.FormatName(attachments.MediaTypeWebP), attachments.FormatName(attachments.MediaTypeGIF)})
}
