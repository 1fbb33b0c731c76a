package hostfs

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// A file that holds more than its fstat says (it grew after the probe; a
// /proc file reports 0 bytes) is read no further than the bound plus one
// byte and refused.
func TestReadForEditStopsPastTheBound(t *testing.T) {
	tg := fs.Target{Key: "/proc/self/maps", DisplayPath: "/d/maps"}
	_, err := readForEdit(context.Background(), tg, 16)
	var fe *fs.Error
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, fs.CodeTooLarge, fe.Kind)
	assert.Equal(t, `cannot edit "/d/maps": content exceeds the 16-byte limit`, fe.Message)

	raw, err := readForEdit(context.Background(), tg, 1<<20)
	require.NoError(t, err)
	assert.Greater(t, len(raw), 16, "the file does hold more")
}
