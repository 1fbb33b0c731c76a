// Package attachments is the ctx.attachments seam: the Store interface every
// attachment backend implements, its vocabulary (MediaType, AttachmentID,
// ImageRef, ImageLimits, SaveImage, StoredImage, EncodedImage, request-image
// types), the *Error type with its closed set of codes and exact messages,
// the shared batch check (CheckBatch, SaveImagesInOrder) and wire admission
// (AdmitEncodedImages).
//
// The package imports only the kernel and the standard library. Backends
// (attachment-local in plugins/attachments/local) and consumers (tool-fs's
// read_image) import it and never each other.
//
// Kernel keys (declared once, here):
//
//   - Service ("attachments"): the Store; a second live provider fails.
//
// Identity: an AttachmentID is opaque. Session events carry only ImageRef
// (never bytes, base64, paths or URLs); a ref describes the stored,
// normalized object, and OriginalDimensions is set only when normalization
// made the raster smaller.
//
// Errors: every coded failure is an *Error (Name "AttachmentError"). An
// INVALID_IMAGE carries an *ImageFault as its cause (FaultOf): the format
// the bytes are in and what failed, as a clause a consumer may show after
// its own prefix. IMAGE_OVER_MEMORY_BUDGET and ATTACHMENT_BUSY are Cordon's
// additions (docs/attachments.md). Route on
// the code: errors.Is(err, attachments.ErrImageTooLarge) (any message),
// CodeOf / HasCode, or IsImageAdmissionError for the ten caller-correctable
// admission codes (structural: any error with a Code() string method
// counts). Messages never contain raw bytes or host paths; I/O failures are
// chained as the cause.
//
// Cancellation: a cancelled context makes a Store method fail with
// context.Cause(ctx) itself, never wrapped as a storage error.
package attachments
