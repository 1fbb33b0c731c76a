package attachments

import (
	"errors"

	"github.com/cordon-dev/cordon/internal/coded"
)

// Code is the stable code of an *Error. The set is closed.
type Code string

// The closed set of attachment error codes. The first ten are the
// caller-correctable image admission codes (see IsImageAdmissionError).
// IMAGE_OVER_MEMORY_BUDGET and ATTACHMENT_BUSY belong to the
// transform memory budget; docs/attachments.md documents them.
const (
	CodeTooManyImages          Code = "TOO_MANY_IMAGES"
	CodeImagesTooLarge         Code = "IMAGES_TOO_LARGE"
	CodeUnsupportedImageType   Code = "UNSUPPORTED_IMAGE_TYPE"
	CodeInvalidImageBase64     Code = "INVALID_IMAGE_BASE64"
	CodeInvalidImage           Code = "INVALID_IMAGE"
	CodeImageTypeMismatch      Code = "IMAGE_TYPE_MISMATCH"
	CodeImageTooLarge          Code = "IMAGE_TOO_LARGE"
	CodeImageTooManyPixels     Code = "IMAGE_TOO_MANY_PIXELS"
	CodeImageDimensionTooLarge Code = "IMAGE_DIMENSION_TOO_LARGE"
	// CodeImageOverMemoryBudget: normalizing the image would need more
	// memory than the whole image-transform memory budget.
	CodeImageOverMemoryBudget Code = "IMAGE_OVER_MEMORY_BUDGET"
	CodeInvalidAttachmentRef  Code = "INVALID_ATTACHMENT_REF"
	CodeAttachmentCorrupt     Code = "ATTACHMENT_CORRUPT"
	CodeWriteFailed           Code = "ATTACHMENT_WRITE_FAILED"
	CodeNotFound              Code = "ATTACHMENT_NOT_FOUND"
	CodeReadFailed            Code = "ATTACHMENT_READ_FAILED"
	CodeProjectionUnsupported Code = "ATTACHMENT_PROJECTION_UNSUPPORTED"
	// CodeBusy: the image-transform memory budget stayed full for the
	// whole wait bound; the same call may succeed later.
	CodeBusy Code = "ATTACHMENT_BUSY"
)

// Codes lists every Code in the order of the specification.
var Codes = []Code{
	CodeTooManyImages, CodeImagesTooLarge, CodeUnsupportedImageType, CodeInvalidImageBase64,
	CodeInvalidImage, CodeImageTypeMismatch, CodeImageTooLarge, CodeImageTooManyPixels,
	CodeImageDimensionTooLarge, CodeImageOverMemoryBudget, CodeInvalidAttachmentRef, CodeAttachmentCorrupt,
	CodeWriteFailed, CodeNotFound, CodeReadFailed, CodeProjectionUnsupported, CodeBusy,
}

// AdmissionCode reports whether c is one of the ten caller-correctable image
// admission codes.
func (c Code) AdmissionCode() bool {
	switch c {
	case CodeTooManyImages, CodeImagesTooLarge, CodeUnsupportedImageType, CodeInvalidImageBase64,
		CodeInvalidImage, CodeImageTypeMismatch, CodeImageTooLarge, CodeImageTooManyPixels,
		CodeImageDimensionTooLarge, CodeImageOverMemoryBudget:
		return true
	}
	return false
}

// ErrorName is the Name of every *Error.
const ErrorName = "AttachmentError"

// ErrorName names the seam's errors; it makes Code a coded.Kind.
func (Code) ErrorName() string { return ErrorName }

// Error is the attachment error: a stable Kind (its code), the exact message and an optional
// cause; its Name is "AttachmentError" and Code() returns the code as a string, so a tool envelope can
// expose {name, code}. It is the one coded-error type of the seams (internal/coded).
type Error = coded.Error[Code]

// Code sentinels: errors.Is(err, ErrImageTooLarge) matches any *Error in err's
// chain with that code, whatever its message.
var (
	ErrTooManyImages          = &Error{Kind: CodeTooManyImages}
	ErrImagesTooLarge         = &Error{Kind: CodeImagesTooLarge}
	ErrUnsupportedImageType   = &Error{Kind: CodeUnsupportedImageType}
	ErrInvalidImageBase64     = &Error{Kind: CodeInvalidImageBase64}
	ErrInvalidImage           = &Error{Kind: CodeInvalidImage}
	ErrImageTypeMismatch      = &Error{Kind: CodeImageTypeMismatch}
	ErrImageTooLarge          = &Error{Kind: CodeImageTooLarge}
	ErrImageTooManyPixels     = &Error{Kind: CodeImageTooManyPixels}
	ErrImageDimensionTooLarge = &Error{Kind: CodeImageDimensionTooLarge}
	ErrImageOverMemoryBudget  = &Error{Kind: CodeImageOverMemoryBudget}
	ErrInvalidAttachmentRef   = &Error{Kind: CodeInvalidAttachmentRef}
	ErrAttachmentCorrupt      = &Error{Kind: CodeAttachmentCorrupt}
	ErrWriteFailed            = &Error{Kind: CodeWriteFailed}
	ErrNotFound               = &Error{Kind: CodeNotFound}
	ErrReadFailed             = &Error{Kind: CodeReadFailed}
	ErrProjectionUnsupported  = &Error{Kind: CodeProjectionUnsupported}
	ErrBusy                   = &Error{Kind: CodeBusy}
)

// NewError returns an *Error with the given code, message and cause.
func NewError(code Code, message string, cause error) *Error {
	return &Error{Kind: code, Message: message, Cause: cause}
}

// CodeOf returns the code of the first *Error in err's chain, or "" if none.
func CodeOf(err error) Code { return coded.CodeOf[Code](err) }

// HasCode reports whether err's chain holds an *Error with the given code.
func HasCode(err error, code Code) bool { return coded.HasCode(err, code) }

// IsImageAdmissionError reports whether err is a caller-correctable image
// admission failure. It is structural: the first error in
// err's chain that has a `Code() string` method decides, so a foreign error
// type with code "IMAGE_TOO_LARGE" counts, and an *Error with a storage code
// (ATTACHMENT_CORRUPT, ATTACHMENT_WRITE_FAILED, ...) does not.
func IsImageAdmissionError(err error) bool {
	var c interface{ Code() string }
	if !errors.As(err, &c) {
		return false
	}
	return Code(c.Code()).AdmissionCode()
}
