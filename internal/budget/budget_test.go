package budget_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/cordon-dev/cordon/internal/budget"
	"github.com/cordon-dev/cordon/internal/confint"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTable(t *testing.T) {
	tb, err := budget.NewTable("p", budget.Default, budget.Known())
	require.NoError(t, err)
	assert.Equal(t, 36000, tb.For(""))
	assert.Equal(t, 36000, tb.For("opencode"))
	assert.Equal(t, 48000, tb.For("claude-code"))
	var zero budget.Table
	assert.Equal(t, budget.Default, zero.For("x"))
	for _, tc := range []struct {
		def  confint.Int
		by   map[string]confint.Int
		want string
	}{
		{0, nil, "p: resultBudget must be a positive integer"},
		{-5, nil, "p: resultBudget must be a positive integer"},
		{1, map[string]confint.Int{"a": 0}, `p: resultBudgetByClient["a"] must be a positive integer`},
		{1, map[string]confint.Int{"": 9}, "p: resultBudgetByClient keys must be non-empty client names"},
	} {
		_, err := budget.NewTable("p", tc.def, tc.by)
		require.EqualError(t, err, tc.want)
	}
}

func TestCutLines(t *testing.T) {
	s := "first line\nsecond\nthird line"
	assert.Equal(t, s, budget.CutLines(s, len(s)))
	assert.Equal(t, "first line\nsecond", budget.CutLines(s, len(s)-1))
	assert.Equal(t, "first line\nsecond", budget.CutLines(s, len("first line\nsecond")))
	assert.Equal(t, "first line", budget.CutLines(s, len("first line\nsecond")-1))
	assert.Equal(t, "first line", budget.CutLines(s, 3), "the first line is never cut")
	assert.Equal(t, "one long line", budget.CutLines("one long line", 3))
}

func TestErrorKeepsTheChain(t *testing.T) {
	guidance := strings.Repeat("g", 50)
	orig := fs.NewError(fs.CodeEditNotFound, "old_string was not found in \"/p\"\n"+guidance+"\n"+guidance, nil)
	assert.Same(t, error(orig), budget.Error(orig, 1000), "an error that fits is returned as is")
	cut := budget.Error(orig, len("Error: ")+len(orig.Error())-1)
	assert.Equal(t, "old_string was not found in \"/p\"\n"+guidance, cut.Error())
	assert.True(t, errors.Is(cut, fs.ErrEditNotFound))
	var fe *fs.Error
	require.True(t, errors.As(cut, &fe))
	assert.Equal(t, "old_string was not found in \"/p\"", budget.Error(orig, 10).Error())
	assert.Nil(t, budget.Error(nil, 10))
}

func TestEcho(t *testing.T) {
	require.Equal(t, "abc", budget.Echo("abc", 3))
	require.Equal(t, "ab[cut: 2 more bytes]", budget.Echo("abcd", 2))
	require.Equal(t, "a[cut: 3 more bytes]", budget.Echo("aé€"[:4], 2)) // no half character
}
