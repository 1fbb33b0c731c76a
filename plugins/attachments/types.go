package attachments

import "slices"

// MediaType is an image media type of the version-one attachment contract.
type MediaType string

// The closed set of accepted media types.
const (
	MediaTypePNG  MediaType = "image/png"
	MediaTypeJPEG MediaType = "image/jpeg"
	MediaTypeWebP MediaType = "image/webp"
	MediaTypeGIF  MediaType = "image/gif"
)

// MediaTypes returns every MediaType of the contract in the specification's
// order (png, jpeg, webp, gif). The slice is fresh on every call.
func MediaTypes() []MediaType {
	return []MediaType{MediaTypePNG, MediaTypeJPEG, MediaTypeWebP, MediaTypeGIF}
}

// Known reports whether m is one of the four media types of the contract.
func (m MediaType) Known() bool {
	switch m {
	case MediaTypePNG, MediaTypeJPEG, MediaTypeWebP, MediaTypeGIF:
		return true
	}
	return false
}

// AttachmentID is the opaque identifier of one immutable stored object. The
// local backend uses "sha256:" + 64 lowercase hex digits of the stored bytes;
// consumers must not parse it or derive paths from it.
type AttachmentID string

// ImageVariantID is the opaque identifier of one request-image transformation.
type ImageVariantID string

// Dimensions is a pixel size.
type Dimensions struct {
	Width  int `json:"width"`
	Height int `json:"height"`
}

// ImageRef is the serializable reference to one stored (normalized) image: the
// only record a session event carries (never bytes, base64, paths or URLs).
// The JSON encoding has the keys of docs/attachments.md and omits the optional ones when
// absent.
type ImageRef struct {
	// AttachmentID is the content address of the stored object.
	AttachmentID AttachmentID `json:"attachmentId"`
	// MediaType is verified from the stored bytes.
	MediaType MediaType `json:"mediaType"`
	// Bytes is the exact stored length.
	Bytes int `json:"bytes"`
	// Width and Height are the intrinsic pixel size of the stored image.
	Width  int `json:"width"`
	Height int `json:"height"`
	// Name is the display name with any path stripped; "" means none.
	Name string `json:"name,omitempty"`
	// OriginalDimensions is the orientation-applied source size, present only
	// when normalization made the raster smaller.
	OriginalDimensions *Dimensions `json:"originalDimensions,omitempty"`
}

// ImageLimits are the deployment-resolved admission limits (store.imageLimits).
// Equality with a limit is allowed everywhere.
type ImageLimits struct {
	// MaxImageBytes caps one source image.
	MaxImageBytes int `json:"maxImageBytes"`
	// MaxImagesPerMessage caps the number of images of one batch.
	MaxImagesPerMessage int `json:"maxImagesPerMessage"`
	// MaxMessageImageBytes caps the summed source bytes of one batch.
	MaxMessageImageBytes int `json:"maxMessageImageBytes"`
	// MaxImagePixels caps width×height of one source image.
	MaxImagePixels int `json:"maxImagePixels"`
	// MaxImageDimension caps the width and the height independently.
	MaxImageDimension int `json:"maxImageDimension"`
	// MediaTypes lists the accepted media types.
	MediaTypes []MediaType `json:"mediaTypes"`
}

// Accepts reports whether m is in l.MediaTypes.
func (l ImageLimits) Accepts(m MediaType) bool { return slices.Contains(l.MediaTypes, m) }

// EncodedImage is one wire upload: canonical base64 data with its declared
// media type and an optional display name ("" = none).
type EncodedImage struct {
	MediaType MediaType `json:"mediaType"`
	Data      string    `json:"data"`
	Name      string    `json:"name,omitempty"`
}

// SaveImage is the input of ValidateImage, SaveImage and SaveImages: the
// encoded bytes, the caller-declared media type (checked against the decoded
// bytes) and an optional display name ("" = none; never interpreted as a path).
type SaveImage struct {
	Data      []byte
	MediaType MediaType
	Name      string
}

// StoredImage is a verified read: the caller's reference and the stored bytes.
type StoredImage struct {
	Ref  ImageRef
	Data []byte
}

// ImageRequestPolicy is a route-owned budget for a model-request version.
type ImageRequestPolicy struct {
	// MaxPixels caps width×height after aspect-preserving projection.
	MaxPixels int `json:"maxPixels"`
	// MaxBytes caps the encoded bytes (before base64 expansion or upload).
	MaxBytes int `json:"maxBytes"`
}

// Sample depth and colour space of every request version.
const (
	DepthUchar = "uchar"
	SpaceSRGB  = "srgb"
)

// RequestImage is one model-request version derived from a stored image.
type RequestImage struct {
	VariantID  ImageVariantID
	Attachment ImageRef
	Data       []byte
	MediaType  MediaType
	Bytes      int
	Width      int
	Height     int
	// Depth is always DepthUchar.
	Depth string
	// Space is always SpaceSRGB.
	Space    string
	HasAlpha bool
}
