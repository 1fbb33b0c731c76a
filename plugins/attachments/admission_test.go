package attachments_test

import (
	"context"
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/attachments"
)

const threeBytes = "AAAA" // canonical base64 of 3 zero bytes

// Reference: "decodes every member and delegates one ordered batch to saveImages".
func TestAdmitEncodedImagesDelegatesOneOrderedBatch(t *testing.T) {
	s := &recordingStore{}
	refs, err := attachments.AdmitEncodedImages(context.Background(), s, []attachments.EncodedImage{
		{MediaType: "image/png", Data: "AA==", Name: "first.png"},
		{MediaType: "image/png", Data: "AQID", Name: "second.png"},
	})
	require.NoError(t, err)
	require.Len(t, s.batches, 1)
	b := s.batches[0]
	require.Len(t, b, 2)
	assert.Equal(t, attachments.SaveImage{Data: []byte{0}, MediaType: "image/png", Name: "first.png"}, b[0])
	assert.Equal(t, attachments.SaveImage{Data: []byte{1, 2, 3}, MediaType: "image/png", Name: "second.png"}, b[1])
	require.Len(t, refs, 2)
	assert.Equal(t, []string{"first.png", "second.png"}, []string{refs[0].Name, refs[1].Name})
}

// Reference: "omits the name from store inputs when the upload has none".
func TestAdmitEncodedImagesNoName(t *testing.T) {
	s := &recordingStore{}
	_, _ = attachments.AdmitEncodedImages(context.Background(), s, []attachments.EncodedImage{{MediaType: "image/webp", Data: threeBytes}})
	require.Len(t, s.batches, 1)
	assert.Equal(t, "", s.batches[0][0].Name)
}

// Reference: "delegates an empty batch unchanged".
func TestAdmitEncodedImagesEmptyBatch(t *testing.T) {
	s := &recordingStore{}
	refs, err := attachments.AdmitEncodedImages(context.Background(), s, nil)
	require.NoError(t, err)
	assert.Empty(t, refs)
	require.Len(t, s.batches, 1)
	assert.Empty(t, s.batches[0])
}

// Reference: "rejects non-canonical and empty base64 payloads before any
// store call", plus the cases docs/attachments.md "Admission" names
// (whitespace, URL-safe alphabet, non-zero pad bits).
func TestAdmitEncodedImagesRejectsNonCanonical(t *testing.T) {
	for _, data := range []string{"", "AAA", "!!!!", "AA==\n", "AA\r\n==", " AAAA", "AAAA\n", "-_8=", "AB==", "AAF=", "AAAA====", "A==="} {
		s := &recordingStore{}
		_, err := attachments.AdmitEncodedImages(context.Background(), s, []attachments.EncodedImage{
			{MediaType: "image/png", Data: threeBytes}, {MediaType: "image/png", Data: data},
		})
		var ae *attachments.Error
		require.True(t, errors.As(err, &ae), "%q: %v", data, err)
		assert.Equal(t, "AttachmentError", ae.Name())
		assert.Equal(t, attachments.CodeInvalidImageBase64, ae.Kind, data)
		assert.Equal(t, "Image upload is not canonical base64.", ae.Message)
		assert.Empty(t, s.batches, "store never called for %q", data)
	}
	for _, data := range []string{"AA==", "AAE=", "+/+/", "AAAA"} {
		_, err := attachments.DecodeCanonicalBase64(data)
		assert.NoError(t, err, data)
	}
}

// Reference: "propagates the store batch rejection unchanged".
func TestAdmitEncodedImagesPropagatesStoreErrorIdentity(t *testing.T) {
	refused := attachments.NewError(attachments.CodeTooManyImages, attachments.MsgTooManyImages, nil)
	s := &recordingStore{batchErr: refused}
	_, err := attachments.AdmitEncodedImages(context.Background(), s, []attachments.EncodedImage{{MediaType: "image/png", Data: threeBytes}})
	assert.Same(t, refused, err)
}

func FuzzDecodeCanonicalBase64(f *testing.F) {
	for _, s := range []string{"", "AAAA", "AAA", "AA==", "AB==", "!!!!", "AA\n==", "-_8="} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := attachments.DecodeCanonicalBase64(s)
		if err != nil {
			if attachments.CodeOf(err) != attachments.CodeInvalidImageBase64 || err.Error() != attachments.MsgInvalidImageBase64 {
				t.Fatalf("unexpected error %v", err)
			}
			if s != "" && !strings.ContainsAny(s, "\r\n \t") {
				// A refused input must not be canonical.
				if d, e := base64.StdEncoding.DecodeString(s); e == nil && base64.StdEncoding.EncodeToString(d) == s {
					t.Fatalf("canonical %q refused", s)
				}
			}
			return
		}
		if s == "" || base64.StdEncoding.EncodeToString(b) != s {
			t.Fatalf("accepted non-canonical %q", s)
		}
	})
}
