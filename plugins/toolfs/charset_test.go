package toolfs_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/text/encoding/unicode"

	"github.com/cordon-dev/cordon/internal/confint"
	"github.com/cordon-dev/cordon/plugins/toolfs"
)

// The byte cap counts what the model receives: a UTF-16 file (twice its UTF-8 bytes) shows the
// lines its decoded text fits, whole or streamed, with the charset line in the envelope.
func TestReadCapsCountDecodedText(t *testing.T) {
	u16, err := unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM).NewEncoder().String("aaaa\nbbbb\ncccc")
	require.NoError(t, err)
	for _, streamMin := range []confint.Int{toolfs.DefaultConfig().ReadStreamMinSize, 1} {
		cfg := toolfs.DefaultConfig()
		cfg.ReadMaxBytes, cfg.ReadStreamMinSize = 9, streamMin
		e := newEnv(t, envOptions{config: &cfg})
		e.writeFile(t, "u.txt", "\xFF\xFE"+u16)
		r := e.call("read", map[string]any{"file_path": "u.txt"})
		require.False(t, r.IsError, r.Text())
		require.Equal(t, "<path>"+e.path("u.txt")+"</path>\n<type>file</type>\n<charset>utf-16le</charset>\n<content>\n"+
			"1: aaaa\n2: bbbb\n\n"+capped(1, 2)+"\n</content>", r.Text())
	}
}
