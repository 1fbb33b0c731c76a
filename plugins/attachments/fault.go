package attachments

import (
	"errors"
	"strings"
)

// FaultKind is what made image bytes fail to decode.
type FaultKind string

// The kinds of ImageFault.
const (
	// FaultEmpty: there are no bytes.
	FaultEmpty FaultKind = "empty"
	// FaultUnrecognized: no PNG, JPEG, WebP or GIF signature (Other may
	// name the format the bytes are in).
	FaultUnrecognized FaultKind = "unrecognized"
	// FaultHeader: the signature matched but the header does not parse.
	FaultHeader FaultKind = "header"
	// FaultTruncated: the data ends before the image is complete.
	FaultTruncated FaultKind = "truncated"
	// FaultUnsupported: a valid variant the decoder does not implement
	// (Detail names it, e.g. "arithmetic-coded JPEG").
	FaultUnsupported FaultKind = "unsupported"
	// FaultCorrupt: the pixel data does not decode.
	FaultCorrupt FaultKind = "corrupt"
)

// ImageFault is the cause chained to an INVALID_IMAGE *Error (whose message
// stays the contract's "Unsupported or malformed image data." or "Image is
// empty."): which format the bytes are in and what failed. Its Error text
// is one clause a consumer can show the model after its own prefix: it
// says what failed and what to do, and never contains a path or raw bytes.
// Find it with errors.As or FaultOf.
type ImageFault struct {
	// Format is the format the signature identified; "" when none did.
	Format MediaType
	// Other names another format the bytes were recognized as (e.g.
	// "TIFF") when Format is "".
	Other string
	Kind  FaultKind
	// Detail is the unsupported variant (FaultUnsupported) or the
	// decoder's own description (FaultHeader, FaultCorrupt).
	Detail string
	// Err is the decoder's error, if any.
	Err error
}

// FormatName is the short name of a media type: PNG, JPEG, WebP, GIF.
func FormatName(m MediaType) string {
	switch m {
	case MediaTypeWebP:
		return "WebP"
	case "":
		return "image"
	}
	return strings.ToUpper(strings.TrimPrefix(string(m), "image/"))
}

// Error describes the fault and the remedy, e.g. "the PNG data ends before
// the image is complete (the file is truncated); re-create or re-download
// the complete file".
func (f *ImageFault) Error() string {
	name := FormatName(f.Format)
	detail := ""
	if f.Detail != "" {
		detail = " (" + f.Detail + ")"
	}
	switch f.Kind {
	case FaultEmpty:
		return "the file is empty (0 bytes); write the image data to it or read another file"
	case FaultUnrecognized:
		if f.Other != "" {
			return "the bytes are " + article(f.Other) + " " + f.Other + " image, not PNG/JPEG/WebP/GIF; convert it to PNG or JPEG and retry"
		}
		return "the bytes carry no PNG, JPEG, WebP or GIF signature, so they are not an image in one of those formats; convert the image to PNG or JPEG and retry"
	case FaultHeader:
		return "the " + name + " header is malformed" + detail + "; the file is damaged or not really " + article(name) + " " + name + " — re-create or re-download it"
	case FaultTruncated:
		return "the " + name + " data ends before the image is complete (the file is truncated); re-create or re-download the complete file"
	case FaultUnsupported:
		return "the file is " + article(f.Detail) + " " + f.Detail + ", a variant the decoder does not support; convert it to an 8-bit baseline JPEG or a PNG and retry"
	}
	return "the " + name + " pixel data is corrupt" + detail + "; re-create or re-download the file"
}

// Unwrap returns the decoder's error.
func (f *ImageFault) Unwrap() error { return f.Err }

// FaultOf returns the ImageFault in err's chain, or nil.
func FaultOf(err error) *ImageFault {
	var f *ImageFault
	if errors.As(err, &f) {
		return f
	}
	return nil
}

// article is "an" before a vowel sound of the words used here, else "a".
func article(word string) string {
	if word == "" {
		return "a"
	}
	switch word[0] {
	case 'A', 'E', 'I', 'O', 'a', 'e', 'i', 'o', 'u':
		return "an"
	}
	// Initialisms read letter by letter: "an HEIF", "an SVG", "an MP4".
	if strings.ContainsRune("FHLMNRSX", rune(word[0])) && len(word) > 1 && word[1] >= 'A' && word[1] <= 'Z' {
		return "an"
	}
	return "a"
}
