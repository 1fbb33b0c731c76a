package fs_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/cordon-dev/cordon/plugins/fs"
)

func TestNamesDirectory(t *testing.T) {
	for path, want := range map[string]bool{
		"d/": true, "d//": true, "/": true, ".": true, "..": true, "d/.": true, "d/..": true, "a/./": true,
		"d": false, "a/b": false, ".d": false, "d.": false, "d/..x": false, "...": false, "": false, "d/.hidden": false,
	} {
		assert.Equal(t, want, fs.NamesDirectory(path), "%q", path)
	}
}
