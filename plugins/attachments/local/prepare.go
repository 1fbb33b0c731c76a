package local

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"unicode/utf16"

	"github.com/cordon-dev/cordon/internal/texts"
	"github.com/cordon-dev/cordon/plugins/attachments"
)

// prepared is one admitted image ready for publication.
type prepared struct {
	data []byte
	ref  attachments.ImageRef
}

// idPrefix starts every local attachment id.
const idPrefix = "sha256:"

// digestHex is the lowercase hex SHA-256 of b.
func digestHex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// prepare is the admission pipeline of docs/attachments.md "Admission" for
// one image, in its observable order: byte limit, empty, header (format and
// oriented size), pixel limit, per-side limit, full decode (of a large JPEG,
// at a reduced scale: jpegScale), declared type, normalization. Between the
// per-side limit and the decode, the transform's memory estimate is admitted
// by mem (held until prepare returns). It touches no storage. ctx is checked
// between the expensive stages.
func prepare(ctx context.Context, in attachments.SaveImage, limits attachments.ImageLimits, p NormalizationPolicy, mem memoryGate) (prepared, error) {
	if len(in.Data) > limits.MaxImageBytes {
		return prepared{}, attachments.NewError(attachments.CodeImageTooLarge, attachments.MsgImageTooLarge, nil)
	}
	if len(in.Data) == 0 {
		return prepared{}, attachments.NewError(attachments.CodeInvalidImage, attachments.MsgImageEmpty,
			&attachments.ImageFault{Kind: attachments.FaultEmpty})
	}
	f, err := inspect(in.Data)
	if err != nil {
		return prepared{}, err
	}
	if int64(f.width)*int64(f.height) > int64(limits.MaxImagePixels) {
		return prepared{}, attachments.NewError(attachments.CodeImageTooManyPixels, attachments.MsgImageTooManyPixels, nil)
	}
	if max(f.width, f.height) > limits.MaxImageDimension {
		return prepared{}, attachments.NewError(attachments.CodeImageDimensionTooLarge, attachments.MsgImageDimensionTooLarge, nil)
	}
	if err := ctx.Err(); err != nil {
		return prepared{}, context.Cause(ctx)
	}
	release, err := mem.admit(ctx, f, len(in.Data), p)
	if err != nil {
		return prepared{}, err
	}
	defer release()
	img, err := decodeAt(in.Data, f, jpegScale(f, p))
	if err != nil {
		return prepared{}, err
	}
	if f.mediaType != in.MediaType {
		return prepared{}, attachments.NewError(attachments.CodeImageTypeMismatch, attachments.MsgImageTypeMismatch, nil)
	}
	if err := ctx.Err(); err != nil {
		return prepared{}, context.Cause(ctx)
	}
	n, err := normalize(in.Data, f, img, p)
	if err != nil {
		return prepared{}, err
	}
	ref := attachments.ImageRef{
		AttachmentID: attachments.AttachmentID(idPrefix + digestHex(n.data)),
		MediaType:    n.mediaType,
		Bytes:        len(n.data),
		Width:        n.width,
		Height:       n.height,
		Name:         displayName(in.Name),
	}
	if n.width != f.width || n.height != f.height {
		ref.OriginalDimensions = &attachments.Dimensions{Width: f.width, Height: f.height}
	}
	return prepared{data: n.data, ref: ref}, nil
}

// maxNameUnits is the display-name cap in UTF-16 code units.
const maxNameUnits = 255

// displayName is the stored name (docs/attachments.md "Admission"): the part
// after the last "/" or "\" (whatever the host OS), without C0 controls and
// DEL, trimmed with JavaScript's whitespace set, cut to 255 UTF-16 code units
// (never splitting a surrogate pair); "" means no name.
func displayName(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	name = strings.Map(func(r rune) rune {
		if r <= 0x1f || r == 0x7f {
			return -1
		}
		return r
	}, name)
	name = texts.Trim(name)
	units := 0
	for i, r := range name {
		n := utf16.RuneLen(r)
		if n < 0 {
			n = 1 // invalid UTF-8 decodes to U+FFFD, one unit
		}
		if units+n > maxNameUnits {
			return name[:i]
		}
		units += n
	}
	return name
}
