package attachmentlocal

import (
	"context"
	"image/color"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSmoke(t *testing.T) {
	s := newStore(t)
	ref := save(t, s, png90, "image/png")
	assert.Equal(t, png90ID, string(ref.AttachmentID))
	ref = save(t, s, png69, "image/png")
	assert.Equal(t, png69ID, string(ref.AttachmentID))
	ref = save(t, s, encJPEG(t, photo(4000, 3000), 90), "image/jpeg")
	t.Logf("%+v", ref)
	st, err := s.ReadImage(context.Background(), ref)
	require.NoError(t, err)
	assert.Equal(t, ref.Bytes, len(st.Data))
	ref = save(t, s, encPNG(t, flat(4, 4, color.NRGBA{9, 9, 9, 255})), "image/png")
	t.Logf("%+v", ref)
}
