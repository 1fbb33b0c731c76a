package jstext_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/cordon-dev/cordon/internal/jstext"
)

func TestIsBlankFollowsJavaScriptTrim(t *testing.T) {
	for _, s := range []string{"", " ", "\t\n\v\f\r", "\u00a0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"} {
		assert.True(t, jstext.IsBlank(s), "%q", s)
	}
	for _, s := range []string{"a", " a ", "\u200b", "\u0085", "\u180e", "\x00"} {
		assert.False(t, jstext.IsBlank(s), "%q is not trimmed by JavaScript", s)
	}
}
