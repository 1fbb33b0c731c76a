package attachments

import (
	"context"

	"github.com/cordon-dev/cordon/kernel"
)

// Service is the key of the ctx.attachments service ("attachments"): one live
// provider; a second one fails to provide.
var Service = kernel.NewService[Store]("attachments")

// Store is the attachment store. Every method takes the caller's context
// first; a cancelled context makes a method fail with context.Cause(ctx)
// unchanged, never with a storage error. Every other failure with a code is
// an *Error.
type Store interface {
	// ImageLimits returns the deployment-resolved admission limits.
	ImageLimits() ImageLimits
	// ValidateImage runs the complete admission policy for one image
	// (including normalization, so the byte cap is proven satisfiable)
	// without touching storage.
	ValidateImage(ctx context.Context, in SaveImage) error
	// SaveImage validates, normalizes and durably commits one image and
	// returns the reference of the stored (normalized) object. It does not
	// check ImageLimits().MediaTypes nor the batch limits.
	SaveImage(ctx context.Context, in SaveImage) (ImageRef, error)
	// SaveImages admits one ordered batch: CheckBatch first, then every
	// member is validated before any is written; refs come back in input
	// order. A storage failure returns no refs (objects published for
	// earlier members stay on disk, unreachable). An empty batch returns an
	// empty slice. SaveImagesInOrder is the generic implementation.
	SaveImages(ctx context.Context, in []SaveImage) ([]ImageRef, error)
	// ReadImage reads the object of ref and verifies its digest and header
	// facts against ref; admission limits are not re-applied.
	ReadImage(ctx context.Context, ref ImageRef) (StoredImage, error)
	// ReadImageRequest derives (or reads from cache) the model-request
	// version of ref under policy. A backend that cannot derive request
	// images returns UnsupportedRequest(ctx).
	ReadImageRequest(ctx context.Context, ref ImageRef, policy ImageRequestPolicy) (RequestImage, error)
}

// CheckBatch is the shared batch check, in this order: more than
// MaxImagesPerMessage inputs is TOO_MANY_IMAGES; summed source lengths over
// MaxMessageImageBytes is IMAGES_TOO_LARGE; the first input whose declared
// type is not in MediaTypes is UNSUPPORTED_IMAGE_TYPE. Equality passes.
func CheckBatch(limits ImageLimits, in []SaveImage) error {
	if len(in) > limits.MaxImagesPerMessage {
		return NewError(CodeTooManyImages, MsgTooManyImages, nil)
	}
	total := 0
	for _, img := range in {
		total += len(img.Data)
		if total > limits.MaxMessageImageBytes {
			return NewError(CodeImagesTooLarge, MsgImagesTooLarge, nil)
		}
	}
	for _, img := range in {
		if !limits.Accepts(img.MediaType) {
			return NewError(CodeUnsupportedImageType, UnsupportedImageTypeMessage(img.MediaType), nil)
		}
	}
	return nil
}

// SaveImagesInOrder is the generic batch admission of the seam: CheckBatch, then ValidateImage for
// every member in input order, then SaveImage for every member in input order. A validation failure
// writes nothing; a save failure returns no refs. A backend may do better (the local one normalizes
// each member once) but must keep these observable semantics.
func SaveImagesInOrder(ctx context.Context, s Store, in []SaveImage) ([]ImageRef, error) {
	if err := CheckBatch(s.ImageLimits(), in); err != nil {
		return nil, err
	}
	for _, img := range in {
		if err := s.ValidateImage(ctx, img); err != nil {
			return nil, err
		}
	}
	refs := make([]ImageRef, 0, len(in))
	for _, img := range in {
		ref, err := s.SaveImage(ctx, img)
		if err != nil {
			return nil, err
		}
		refs = append(refs, ref)
	}
	return refs, nil
}

// UnsupportedRequest is the ReadImageRequest of a backend that cannot derive
// request images: context.Cause(ctx) when ctx is already done, otherwise
// ATTACHMENT_PROJECTION_UNSUPPORTED.
func UnsupportedRequest(ctx context.Context) (RequestImage, error) {
	if ctx.Err() != nil {
		return RequestImage{}, context.Cause(ctx)
	}
	return RequestImage{}, NewError(CodeProjectionUnsupported, MsgProjectionUnsupported, nil)
}
