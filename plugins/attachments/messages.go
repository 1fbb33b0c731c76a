package attachments

// Exact messages of the seam and of the local backend (docs/attachments.md
// "Errors").
const (
	MsgInvalidImageBase64     = "Image upload is not canonical base64."
	MsgTooManyImages          = "Image batch exceeds the configured image-count limit."
	MsgImagesTooLarge         = "Image batch exceeds the configured aggregate image-byte limit."
	MsgImageTooLarge          = "Image exceeds the configured byte limit."
	MsgImageEmpty             = "Image is empty."
	MsgInvalidImage           = "Unsupported or malformed image data."
	MsgImageTooManyPixels     = "Image exceeds the configured decoded-pixel limit."
	MsgImageDimensionTooLarge = "Image exceeds the configured per-side pixel limit."
	MsgImageTypeMismatch      = "Declared image type does not match its bytes."
	MsgNormalizedTooLarge     = "Image cannot be encoded within the configured normalized-image byte cap."
	MsgRequestTooLarge        = "Image cannot be encoded within the model-request byte budget."
	MsgNormalizedSelfCheck    = "Image normalization did not produce a single-frame 8-bit sRGB image with matching metadata."
	MsgRequestSelfCheck       = "Encoded model-request image does not match its verified 8-bit sRGB metadata."
	MsgWriteFailed            = "Unable to persist image attachment."
	MsgInvalidAttachmentRef   = "Attachment reference is invalid."
	MsgPolicyMaxPixels        = "Image request maxPixels must be a positive integer."
	MsgPolicyMaxBytes         = "Image request maxBytes must be a positive integer."
	MsgPreparedCorrupt        = "Prepared attachment bytes do not match their reference."
	MsgDigestCorrupt          = "Stored attachment failed integrity verification."
	MsgFactsCorrupt           = "Stored attachment metadata does not match its reference."
	MsgNotFound               = "Attachment object is missing."
	MsgReadFailed             = "Unable to read image attachment."
	MsgProjectionUnsupported  = "The mounted attachment provider cannot derive model-request images."
)

// UnsupportedImageTypeMessage is "Image type <mediaType> is not accepted by
// this deployment.".
func UnsupportedImageTypeMessage(m MediaType) string {
	return "Image type " + string(m) + " is not accepted by this deployment."
}

// ConversionFailedMessage is "The <source> could not be converted to the
// normalized 8-bit sRGB form." where source is e.g. "16-bit PNG" or
// "uchar JPEG" (docs/attachments.md "Normalization").
func ConversionFailedMessage(source string) string {
	return "The " + source + " could not be converted to the normalized 8-bit sRGB form."
}

// WriteFailed is ATTACHMENT_WRITE_FAILED "Unable to persist image
// attachment." with cause chained.
func WriteFailed(cause error) *Error { return NewError(CodeWriteFailed, MsgWriteFailed, cause) }

// ReadFailed is ATTACHMENT_READ_FAILED "Unable to read image attachment."
// with cause chained.
func ReadFailed(cause error) *Error { return NewError(CodeReadFailed, MsgReadFailed, cause) }

// ConversionFailed is ATTACHMENT_WRITE_FAILED with ConversionFailedMessage.
func ConversionFailed(source string, cause error) *Error {
	return NewError(CodeWriteFailed, ConversionFailedMessage(source), cause)
}

// InvalidRef is INVALID_ATTACHMENT_REF "Attachment reference is invalid.".
func InvalidRef() *Error { return NewError(CodeInvalidAttachmentRef, MsgInvalidAttachmentRef, nil) }

// InvalidImage is INVALID_IMAGE "Unsupported or malformed image data.".
func InvalidImage(cause error) *Error { return NewError(CodeInvalidImage, MsgInvalidImage, cause) }
