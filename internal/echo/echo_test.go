package echo_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/echo"
)

func TestString(t *testing.T) {
	require.Equal(t, "abc", echo.String("abc", 3))
	require.Equal(t, "ab[cut: 2 more bytes]", echo.String("abcd", 2))
	require.Equal(t, "a[cut: 3 more bytes]", echo.String("aé€"[:4], 2)) // no half character
}
