package attachments

import (
	"context"
	"encoding/base64"
)

// DecodeCanonicalBase64 decodes s, which must be non-empty canonical standard
// base64 (alphabet A-Z a-z 0-9 + /, "=" padding, zero pad bits, no
// whitespace): re-encoding the result must give s back. Anything else is
// INVALID_IMAGE_BASE64 "Image upload is not canonical base64.".
func DecodeCanonicalBase64(s string) ([]byte, error) {
	if s == "" {
		return nil, NewError(CodeInvalidImageBase64, MsgInvalidImageBase64, nil)
	}
	b, err := base64.StdEncoding.Strict().DecodeString(s)
	if err != nil || base64.StdEncoding.EncodeToString(b) != s {
		return nil, NewError(CodeInvalidImageBase64, MsgInvalidImageBase64, nil)
	}
	return b, nil
}

// AdmitEncodedImages is the shared entry for wire uploads: every member is
// decoded with DecodeCanonicalBase64 first (on any failure the store is never
// called), then one s.SaveImages call receives the decoded batch in input
// order; its result or error is returned unchanged.
func AdmitEncodedImages(ctx context.Context, s Store, images []EncodedImage) ([]ImageRef, error) {
	in := make([]SaveImage, len(images))
	for i, img := range images {
		data, err := DecodeCanonicalBase64(img.Data)
		if err != nil {
			return nil, err
		}
		in[i] = SaveImage{Data: data, MediaType: img.MediaType, Name: img.Name}
	}
	return s.SaveImages(ctx, in)
}
