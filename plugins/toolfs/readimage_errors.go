package toolfs

import (
	"errors"
	"regexp"
	"strconv"

	"github.com/cordon-dev/cordon/plugins/attachments"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// readImageError is a model-facing read_image refusal that rewrites a store failure: its message
// is the tool's, its cause the store's *attachments.Error, reachable with errors.Is/As. It carries no
// code of its own, and its empty
// Code hides the cause's from the result envelope: the call fails with no {name, code}.
type readImageError struct {
	msg   string
	cause error
}

func (e *readImageError) Error() string { return e.msg }
func (e *readImageError) Unwrap() error { return e.cause }

// Code is empty: the first coded error in the chain decides the envelope (tools.Coded), and this
// one says "uncoded".
func (e *readImageError) Code() string { return "" }

// sixteenBitPNG matches the store's conversion failure of a 16-bit PNG (case-insensitive).
var sixteenBitPNG = regexp.MustCompile(`(?i)16-bit PNG`)

// imageClaim is what read_image knew about the format before saving: the type the extension
// declared (ext is the display path's lower-cased extension) or, for an extension-less path, the
// type the signature claimed (sniffed).
type imageClaim struct {
	mediaType attachments.MediaType
	ext       string
	sniffed   bool
}

// remapSaveError rewrites a SaveImage failure for the model (docs/attachments.md "What read_image
// tells the model"). A failure that is not an *attachments.Error, and every code without a remedy,
// is returned unchanged (the same error value). INVALID_IMAGE (declared or sniffed type) and the
// memory-budget codes name the file and keep their code (docs/attachments.md).
func remapSaveError(err error, dp string, limits attachments.ImageLimits, claim imageClaim) error {
	var ae *attachments.Error
	if !errors.As(err, &ae) {
		return err
	}
	prefix := `cannot read "` + dp + `": `
	var msg string
	switch {
	case ae.Kind == attachments.CodeImageDimensionTooLarge:
		msg = "at least one image side exceeds the " + strconv.Itoa(limits.MaxImageDimension) +
			"px limit; downscale the image and read the smaller copy"
	case ae.Kind == attachments.CodeImageTooManyPixels:
		msg = "the image exceeds the " + strconv.Itoa(limits.MaxImagePixels) +
			"-pixel decoded-size limit; downscale the image and read the smaller copy"
	case ae.Kind == attachments.CodeImageTooLarge:
		msg = "the image cannot be stored within the deployment's byte limits; downscale the image and read the smaller copy"
	case ae.Kind == attachments.CodeWriteFailed && sixteenBitPNG.MatchString(ae.Message):
		msg = "the 16-bit PNG could not be converted to the normalized 8-bit sRGB form; convert it to an 8-bit PNG/JPEG/WebP and retry"
	case ae.Kind == attachments.CodeImageTypeMismatch && claim.sniffed:
		msg = "the file signature claims " + string(claim.mediaType) +
			", but the bytes decode as a different image format; the file may be corrupt"
	case ae.Kind == attachments.CodeImageTypeMismatch:
		msg = "the " + claim.ext + " extension declares " + string(claim.mediaType) +
			", but the bytes use a different image format; rename the file to match its actual format if it is PNG/JPEG/WebP/GIF, or convert it to one of those formats"
	case ae.Kind == attachments.CodeInvalidImage:
		// The sniffed-path text of the contract, for a declared type too, then what the store found.
		msg = "the bytes do not decode as a supported PNG/JPEG/WebP/GIF image; the file may be truncated or corrupt"
		if f := attachments.FaultOf(err); f != nil {
			msg += " — " + f.Error()
		}
		return coded(ae, prefix+msg, err)
	case ae.Kind == attachments.CodeImageOverMemoryBudget, ae.Kind == attachments.CodeBusy:
		return coded(ae, prefix+ae.Message, err)
	default:
		return err
	}
	return &readImageError{msg: prefix + msg, cause: err}
}

// coded is a remedy that keeps the store error's {name, code}: INVALID_IMAGE and Cordon's
// memory-budget codes name the file and still tell a client which failure it was.
func coded(ae *attachments.Error, msg string, cause error) error {
	return tools.NewError(ae.Name(), ae.Code(), msg, cause)
}
