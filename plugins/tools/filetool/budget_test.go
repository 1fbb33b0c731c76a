package filetool_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/tools/filetool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBudget(t *testing.T) {
	tb, err := filetool.NewBudget("p", filetool.DefaultBudget, filetool.KnownBudgets[int64]())
	require.NoError(t, err)
	assert.Equal(t, 36000, tb.For(""))
	assert.Equal(t, 36000, tb.For("opencode"))
	assert.Equal(t, 48000, tb.For("claude-code"))
	var zero filetool.Budget
	assert.Equal(t, filetool.DefaultBudget, zero.For("x"))
	for _, tc := range []struct {
		def  int64
		by   map[string]int64
		want string
	}{
		{0, nil, "p: resultBudget must be a positive integer"},
		{-5, nil, "p: resultBudget must be a positive integer"},
		{1, map[string]int64{"a": 0}, `p: resultBudgetByClient["a"] must be a positive integer`},
		{1, map[string]int64{"": 9}, "p: resultBudgetByClient keys must be non-empty client names"},
	} {
		_, err := filetool.NewBudget("p", tc.def, tc.by)
		require.EqualError(t, err, tc.want)
	}
}

func TestCutLines(t *testing.T) {
	s := "first line\nsecond\nthird line"
	assert.Equal(t, s, filetool.CutLines(s, len(s)))
	assert.Equal(t, "first line\nsecond", filetool.CutLines(s, len(s)-1))
	assert.Equal(t, "first line\nsecond", filetool.CutLines(s, len("first line\nsecond")))
	assert.Equal(t, "first line", filetool.CutLines(s, len("first line\nsecond")-1))
	assert.Equal(t, "first line", filetool.CutLines(s, 3), "the first line is never cut")
	assert.Equal(t, "one long line", filetool.CutLines("one long line", 3))
}

func TestErrorKeepsTheChain(t *testing.T) {
	guidance := strings.Repeat("g", 50)
	orig := fs.NewError(fs.CodeEditNotFound, "old_string was not found in \"/p\"\n"+guidance+"\n"+guidance, nil)
	assert.Same(t, error(orig), filetool.FitError(orig, 1000), "an error that fits is returned as is")
	cut := filetool.FitError(orig, len("Error: ")+len(orig.Error())-1)
	assert.Equal(t, "old_string was not found in \"/p\"\n"+guidance, cut.Error())
	assert.True(t, errors.Is(cut, fs.ErrEditNotFound))
	var fe *fs.Error
	require.True(t, errors.As(cut, &fe))
	assert.Equal(t, "old_string was not found in \"/p\"", filetool.FitError(orig, 10).Error())
	assert.Nil(t, filetool.FitError(nil, 10))
}
