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
	full := func(reason string) string { return fsText.MustRender("read_image.error", "path", dp, "reason", reason) }
	var msg string
	switch {
	case ae.Kind == attachments.CodeImageDimensionTooLarge:
		msg = fsText.MustRender("read_image.error.dimension", "max", strconv.Itoa(limits.MaxImageDimension))
	case ae.Kind == attachments.CodeImageTooManyPixels:
		msg = fsText.MustRender("read_image.error.pixels", "max", strconv.Itoa(limits.MaxImagePixels))
	case ae.Kind == attachments.CodeImageTooLarge:
		msg = fsText.Text("read_image.error.bytes")
	case ae.Kind == attachments.CodeWriteFailed && sixteenBitPNG.MatchString(ae.Message):
		msg = fsText.Text("read_image.error.sixteen_bit")
	case ae.Kind == attachments.CodeImageTypeMismatch && claim.sniffed:
		msg = fsText.MustRender("read_image.error.signature_mismatch", "media_type", string(claim.mediaType))
	case ae.Kind == attachments.CodeImageTypeMismatch:
		msg = fsText.MustRender("read_image.error.extension_mismatch", "ext", claim.ext, "media_type", string(claim.mediaType))
	case ae.Kind == attachments.CodeInvalidImage:
		// The sniffed-path text of the contract, for a declared type too, then what the store found.
		msg = fsText.Text("read_image.error.invalid")
		if f := attachments.FaultOf(err); f != nil {
			msg = fsText.MustRender("read_image.error.invalid.fault", "fault", f.Error())
		}
		return coded(ae, full(msg), err)
	case ae.Kind == attachments.CodeImageOverMemoryBudget, ae.Kind == attachments.CodeBusy:
		return coded(ae, full(ae.Message), err)
	default:
		return err
	}
	return &readImageError{msg: full(msg), cause: err}
}

// coded is a remedy that keeps the store error's {name, code}: INVALID_IMAGE and Cordon's
// memory-budget codes name the file and still tell a client which failure it was.
func coded(ae *attachments.Error, msg string, cause error) error {
	return tools.NewError(ae.Name(), ae.Code(), msg, cause)
}
