package toolfs_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNearMissRefusals(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.writeFile(t, "n.go", "func f() {\n\tif err != nil {\n\t\treturn err\n\t}\n}\n")
	requireOK(t, e.call("read", args{"file_path": "n.go"}))
	r := e.call("edit", args{"file_path": "n.go", "old_string": "  if err != nil {\n    return err", "new_string": "x", "replace_all": true})
	require.True(t, r.IsError)
	assert.Equal(t, "FS_EDIT_NOT_FOUND", r.Code())
	assert.Equal(t, `Error: old_string was not found in "`+e.path("n.go")+`"`+"\n"+
		"The closest text is at lines 2-3; old_string differs there in indentation:\n"+
		"2: \tif err != nil {\n3: \t\treturn err\n"+
		`line 2 is "\tif err != nil {"; old_string has "  if err != nil {"`+"\n"+
		`line 3 is "\t\treturn err"; old_string has "    return err"`, r.Text(), "replace_all gets the same help")

	r = e.call("edit", args{"file_path": "n.go", "old_string": "nothing like it", "new_string": "x"})
	assert.Equal(t, `Error: old_string was not found in "`+e.path("n.go")+`"`, r.Text(), "no place: the first line alone")
	assert.Equal(t, "func f() {\n\tif err != nil {\n\t\treturn err\n\t}\n}\n", e.readFile(t, "n.go"))
}

func TestAmbiguousListsAreBounded(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.writeFile(t, "many.txt", strings.Repeat("x\n", 25)+"x x\n")
	requireOK(t, e.call("read", args{"file_path": "many.txt"}))
	r := e.call("edit", args{"file_path": "many.txt", "old_string": "x", "new_string": "y"})
	require.True(t, r.IsError)
	assert.Equal(t, "FS_AMBIGUOUS_EDIT", r.Code())
	assert.Equal(t, `Error: old_string matched 27 times in "`+e.path("many.txt")+`"; provide a more specific old_string or set replace_all to true`+"\n"+
		matchesAt(golden("edit.next.matches_at.more", "list", "1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20", "n", "7"), true), r.Text())
}
