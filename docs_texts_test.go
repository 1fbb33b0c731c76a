package cordon_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/texts"
	"github.com/cordon-dev/cordon/plugins/tools/filetool"
)

// The pages of docs/ quote each tool's description and guidance as its texts file writes it
// (docs/texts.md "Changing a text"), so a text and the page that shows it change together. A
// description's values are its defaults; a page may wrap a quote across lines.
func TestDocsQuoteEachDescriptionAndGuidance(t *testing.T) {
	pages, err := filepath.Glob("docs/*.md")
	require.NoError(t, err)
	var all strings.Builder
	for _, p := range pages {
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		all.Write(b)
	}
	docs := strings.Join(strings.Fields(all.String()), " ")
	files, err := filepath.Glob("plugins/*/texts.json")
	require.NoError(t, err)
	more, err := filepath.Glob("plugins/*/*/texts.json")
	require.NoError(t, err)
	files = append(files, more...)
	require.NotEmpty(t, files)
	defaults := map[string][]string{ // the values a description is shown with
		"glob.description":        {"max", "100"},
		"grep.description":        {"max", "250"},
		"apply_patch.description": {"path_rule", filetool.PathRule},
	}
	quoted := 0
	for _, f := range files {
		set, err := texts.Load(f)
		require.NoError(t, err)
		for _, key := range set.Keys() {
			if !strings.HasSuffix(key, ".description") && !strings.Contains(key, ".guidance") {
				continue
			}
			text, err := set.Render(key, defaults[key]...)
			require.NoError(t, err, "%s %s", f, key)
			assert.Contains(t, docs, strings.Join(strings.Fields(text), " "), "docs/ does not quote %s of %s", key, f)
			quoted++
		}
	}
	assert.GreaterOrEqual(t, quoted, 16, "every tool's description, and the guidance sections")
}
