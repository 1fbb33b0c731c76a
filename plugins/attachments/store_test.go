package attachments_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/plugins/attachments"
)

var testLimits = attachments.ImageLimits{
	MaxImageBytes:        4,
	MaxImagesPerMessage:  2,
	MaxMessageImageBytes: 5,
	MaxImagePixels:       4,
	MaxImageDimension:    2000,
	MediaTypes:           []attachments.MediaType{attachments.MediaTypePNG},
}

// recordingStore records the order of calls (a recording store); its
// SaveImages is the generic SaveImagesInOrder.
type recordingStore struct {
	calls          []string
	rejectValidate int // 0 = never
	rejectSave     int // 0 = never
	batches        [][]attachments.SaveImage
	batchErr       error
}

var _ attachments.Store = (*recordingStore)(nil)

func (s *recordingStore) ImageLimits() attachments.ImageLimits { return testLimits }

func first(in attachments.SaveImage) byte {
	if len(in.Data) == 0 {
		return 0
	}
	return in.Data[0]
}

func (s *recordingStore) ValidateImage(_ context.Context, in attachments.SaveImage) error {
	v := first(in)
	s.calls = append(s.calls, fmt.Sprintf("validate:%d", v))
	if int(v) == s.rejectValidate && v != 0 {
		return fmt.Errorf("invalid:%d", v)
	}
	return nil
}

func (s *recordingStore) SaveImage(_ context.Context, in attachments.SaveImage) (attachments.ImageRef, error) {
	v := first(in)
	s.calls = append(s.calls, fmt.Sprintf("save:%d", v))
	if int(v) == s.rejectSave && v != 0 {
		return attachments.ImageRef{}, fmt.Errorf("write:%d", v)
	}
	return attachments.ImageRef{
		AttachmentID: attachments.AttachmentID(fmt.Sprintf("sha256:%064d", v)),
		MediaType:    in.MediaType, Bytes: len(in.Data), Width: 1, Height: 1, Name: in.Name,
	}, nil
}

func (s *recordingStore) SaveImages(ctx context.Context, in []attachments.SaveImage) ([]attachments.ImageRef, error) {
	s.batches = append(s.batches, in)
	if s.batchErr != nil {
		return nil, s.batchErr
	}
	return attachments.SaveImagesInOrder(ctx, s, in)
}

func (s *recordingStore) ReadImage(context.Context, attachments.ImageRef) (attachments.StoredImage, error) {
	return attachments.StoredImage{}, errors.New("not used")
}

func (s *recordingStore) ReadImageRequest(ctx context.Context, _ attachments.ImageRef, _ attachments.ImageRequestPolicy) (attachments.RequestImage, error) {
	return attachments.UnsupportedRequest(ctx)
}

func img(v byte, mt attachments.MediaType) attachments.SaveImage {
	return attachments.SaveImage{Data: []byte{v}, MediaType: mt, Name: fmt.Sprintf("%d.png", v)}
}

// Reference: "validates the complete batch before saving in input order".
func TestSaveImagesInOrderValidatesAllThenSaves(t *testing.T) {
	s := &recordingStore{}
	refs, err := s.SaveImages(context.Background(), []attachments.SaveImage{img(1, "image/png"), img(2, "image/png")})
	require.NoError(t, err)
	assert.Equal(t, []string{"validate:1", "validate:2", "save:1", "save:2"}, s.calls)
	require.Len(t, refs, 2)
	assert.Equal(t, "1.png", refs[0].Name)
	assert.Equal(t, "2.png", refs[1].Name)
}

// Reference: "rejects count, aggregate bytes, and deployment media types before validation".
func TestCheckBatchOrderAndEquality(t *testing.T) {
	s := &recordingStore{}
	ctx := context.Background()
	_, err := s.SaveImages(ctx, []attachments.SaveImage{img(1, "image/png"), img(2, "image/png"), img(3, "image/png")})
	assert.True(t, errors.Is(err, &attachments.Error{Kind: attachments.CodeTooManyImages, Message: attachments.MsgTooManyImages}), err)
	_, err = s.SaveImages(ctx, []attachments.SaveImage{
		{Data: []byte{1, 2, 3}, MediaType: "image/png"}, {Data: []byte{4, 5, 6}, MediaType: "image/png"},
	})
	assert.True(t, errors.Is(err, &attachments.Error{Kind: attachments.CodeImagesTooLarge, Message: attachments.MsgImagesTooLarge}), err)
	_, err = s.SaveImages(ctx, []attachments.SaveImage{img(1, "image/jpeg")})
	assert.EqualError(t, err, "Image type image/jpeg is not accepted by this deployment.")
	assert.Equal(t, attachments.CodeUnsupportedImageType, attachments.CodeOf(err))
	assert.Empty(t, s.calls)

	// Count is checked before bytes, bytes before media types.
	err = attachments.CheckBatch(testLimits, []attachments.SaveImage{
		{Data: make([]byte, 9), MediaType: "image/gif"}, img(1, "image/gif"), img(2, "image/gif"),
	})
	assert.Equal(t, attachments.CodeTooManyImages, attachments.CodeOf(err))
	err = attachments.CheckBatch(testLimits, []attachments.SaveImage{{Data: make([]byte, 9), MediaType: "image/gif"}})
	assert.Equal(t, attachments.CodeImagesTooLarge, attachments.CodeOf(err))
	// Equality passes for both numeric limits; the first bad type is named.
	assert.NoError(t, attachments.CheckBatch(testLimits, []attachments.SaveImage{
		{Data: make([]byte, 2), MediaType: "image/png"}, {Data: make([]byte, 3), MediaType: "image/png"},
	}))
	err = attachments.CheckBatch(testLimits, []attachments.SaveImage{img(1, "image/png"), img(2, "image/webp")})
	assert.EqualError(t, err, "Image type image/webp is not accepted by this deployment.")
	assert.NoError(t, attachments.CheckBatch(testLimits, nil))
}

// Reference: "starts no writes when any member fails validation".
func TestSaveImagesInOrderValidationFailureWritesNothing(t *testing.T) {
	s := &recordingStore{rejectValidate: 2}
	refs, err := s.SaveImages(context.Background(), []attachments.SaveImage{img(1, "image/png"), img(2, "image/png")})
	assert.EqualError(t, err, "invalid:2")
	assert.Nil(t, refs)
	assert.Equal(t, []string{"validate:1", "validate:2"}, s.calls)
}

// Reference: "returns no partial references when storage fails after an earlier commit".
func TestSaveImagesInOrderSaveFailureReturnsNoRefs(t *testing.T) {
	s := &recordingStore{rejectSave: 2}
	refs, err := s.SaveImages(context.Background(), []attachments.SaveImage{img(1, "image/png"), img(2, "image/png")})
	assert.EqualError(t, err, "write:2")
	assert.Nil(t, refs)
	assert.Equal(t, []string{"validate:1", "validate:2", "save:1", "save:2"}, s.calls)
}

func TestSaveImagesInOrderEmptyBatch(t *testing.T) {
	s := &recordingStore{}
	refs, err := s.SaveImages(context.Background(), nil)
	require.NoError(t, err)
	assert.NotNil(t, refs)
	assert.Empty(t, refs)
}

// Reference: "reports unsupported request projection while preserving cancellation".
func TestUnsupportedRequestKeepsCancellation(t *testing.T) {
	_, err := attachments.UnsupportedRequest(context.Background())
	assert.True(t, errors.Is(err, &attachments.Error{Kind: attachments.CodeProjectionUnsupported, Message: attachments.MsgProjectionUnsupported}), err)

	reason := errors.New("cancel unsupported projection")
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(reason)
	_, err = attachments.UnsupportedRequest(ctx)
	assert.Same(t, reason, err)
}

func TestImageRefJSONShape(t *testing.T) {
	ref := attachments.ImageRef{AttachmentID: "sha256:00", MediaType: "image/png", Bytes: 7, Width: 2, Height: 1}
	b, err := json.Marshal(ref)
	require.NoError(t, err)
	assert.JSONEq(t, `{"attachmentId":"sha256:00","mediaType":"image/png","bytes":7,"width":2,"height":1}`, string(b))
	ref.Name = "a.png"
	ref.OriginalDimensions = &attachments.Dimensions{Width: 4, Height: 2}
	b, err = json.Marshal(ref)
	require.NoError(t, err)
	assert.Equal(t, `{"attachmentId":"sha256:00","mediaType":"image/png","bytes":7,"width":2,"height":1,"name":"a.png","originalDimensions":{"width":4,"height":2}}`, string(b))
}

var fakePlugin = kernel.Define[struct{}]("fake-attachments", func(kc *kernel.Context, _ struct{}) error {
	_, err := attachments.Service.Provide(kc, &recordingStore{})
	return err
})

func TestServiceKeyProvideDuplicateDispose(t *testing.T) {
	assert.Equal(t, "attachments", attachments.Service.Name())
	k := kernel.New(kernel.WithLogger(zaptest.NewLogger(t)))
	t.Cleanup(func() { _ = k.Close(context.Background()) })
	f, err := k.Root().Load(fakePlugin, nil)
	require.NoError(t, err)
	s, ok := attachments.Service.Get(k.Root())
	require.True(t, ok)
	assert.Equal(t, 4, s.ImageLimits().MaxImageBytes)

	f2, err := k.Root().Load(fakePlugin, nil)
	if err == nil {
		assert.Error(t, f2.Err(), "a second provider fails")
	}
	require.NoError(t, f.Dispose())
	_, ok = attachments.Service.Get(k.Root())
	assert.False(t, ok)
}
