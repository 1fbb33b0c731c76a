package argcheck_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/argcheck"
)

func TestSnapshot(t *testing.T) {
	raw, _, err := argcheck.Snapshot(json.RawMessage(" {\"a\" : [1, 2]}\n"))
	require.NoError(t, err)
	require.Equal(t, `{"a":[1,2]}`, string(raw))
	for _, bad := range []any{nil, map[string]any(nil), json.RawMessage(nil), []byte("  "), func() {}} {
		_, _, err := argcheck.Snapshot(bad)
		require.Error(t, err, "%#v", bad)
	}
	raw, _, err = argcheck.Snapshot("plain string")
	require.NoError(t, err, "a Go string is a JSON string value")
	require.Equal(t, `"plain string"`, string(raw))
	raw, _, err = argcheck.Snapshot(map[string]any{"b": json.RawMessage(" [1, 2] "), "a": "x y"})
	require.NoError(t, err)
	require.Equal(t, `{"a":"x y","b":[1,2]}`, string(raw), "encoding/json compacts embedded raw JSON")
}
