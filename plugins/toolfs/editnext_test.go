package toolfs_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

const nopFile = "package z\n\nfunc NewNop() {}\n\nfunc NewNopCore() {}\n\nvar _ = NewNop\n"

// old_string pasted with read's "N: " prefixes: the refusal says to strip them and where the text
// without them is (docs/tool-fs.md "Near misses").
func TestEditWithReadsLinePrefixesSaysToStripThem(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.writeFile(t, "z.go", nopFile)
	requireOK(t, e.call("read", args{"file_path": "z.go"}))
	requireFailure(t, e.call("edit", args{"file_path": "z.go", "old_string": "3: func NewNop() {}\n4: \n5: func NewNopCore() {}", "new_string": "x"}),
		`Error: old_string was not found in "`+e.path("z.go")+`"
`+golden("edit.next.prefixes", "prefix", "3: ")+`
Without them it is found once, at lines 3-5.`, "FS_EDIT_NOT_FOUND")
	assert.Equal(t, nopFile, e.readFile(t, "z.go"))
	// new_string pasted with the prefixes too: the refusal says to strip both.
	requireFailure(t, e.call("edit", args{"file_path": "z.go", "old_string": "3: func NewNop() {}", "new_string": "3: func NewNop() { x() }"}),
		`Error: old_string was not found in "`+e.path("z.go")+`"
`+golden("edit.next.prefixes.both", "prefix", "3: ")+`
Without them it is found once, at line 3.`, "FS_EDIT_NOT_FOUND")
	// Only new_string has them (the model stripped old_string alone): the edit lands, as sent, and
	// says the prefixes are now in the file.
	r := e.call("edit", args{"file_path": "z.go", "old_string": "func NewNop() {}", "new_string": "3: func NewNop() { x() }"})
	requireOK(t, r)
	assert.Equal(t, edited(e.path("z.go"))+"\n"+golden("edit.success.new_prefixes", "prefix", "3: "), r.Text())
	assert.Contains(t, e.readFile(t, "z.go"), "3: func NewNop() { x() }")
}

// A replace_all success says how many occurrences it replaced, where they are now, and which sat
// inside longer names.
func TestReplaceAllSaysHowManyAndWhere(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.writeFile(t, "z.go", nopFile)
	requireOK(t, e.call("read", args{"file_path": "z.go"}))
	r := e.call("edit", args{"file_path": "z.go", "old_string": "NewNop", "new_string": "NewDiscard", "replace_all": true})
	requireOK(t, r)
	assert.Equal(t, editedAll(e.path("z.go"), "\nReplaced 3 occurrences, at lines 3, 5, 7 of the file now.\n"+
		"1 of them was inside a longer name (NewNopCore): check that this was meant."), r.Text())
	r = e.call("edit", args{"file_path": "z.go", "old_string": "{}\n", "new_string": "{\n}\n", "replace_all": true})
	requireOK(t, r)
	assert.Equal(t, editedAll(e.path("z.go"), "\nReplaced 2 occurrences, at lines 3-4, 6-7 of the file now."), r.Text())
}

// An ambiguity refusal warns against replace_all when the matches are not one name used in

// Each count of the replace_all note and of the prefixed old_string's matches takes its own text:
// one occurrence, several, and several inside longer names.
func TestEditNotesCountTheirMatches(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.writeFile(t, "a.txt", "a x b\n")
	requireOK(t, e.call("read", args{"file_path": "a.txt"}))
	r := e.call("edit", args{"file_path": "a.txt", "old_string": "x", "new_string": "y", "replace_all": true})
	requireOK(t, r)
	assert.Equal(t, editedAll(e.path("a.txt"), "\n"+golden("edit.success.replaced.one", "lines", "line 1")), r.Text())

	e.writeFile(t, "b.txt", "x xx\nax\n")
	requireOK(t, e.call("read", args{"file_path": "b.txt"}))
	r = e.call("edit", args{"file_path": "b.txt", "old_string": "x", "new_string": "z", "replace_all": true})
	requireOK(t, r)
	assert.Equal(t, editedAll(e.path("b.txt"), "\n"+golden("edit.success.replaced.many", "n", "4", "lines", "lines 1-2")+
		"\n"+golden("edit.success.inside_names.many", "n", "3", "names", "xx, ax")), r.Text())

	e.writeFile(t, "c.txt", "a\na\n")
	requireOK(t, e.call("read", args{"file_path": "c.txt"}))
	requireFailure(t, e.call("edit", args{"file_path": "c.txt", "old_string": "1: a", "new_string": "b"}),
		`Error: old_string was not found in "`+e.path("c.txt")+`"`+"\n"+golden("edit.next.prefixes", "prefix", "1: ")+"\n"+
			golden("edit.next.prefixes.found_many", "n", "2", "lines", "lines 1-2"), "FS_EDIT_NOT_FOUND")
}

// several places; for a name it adds nothing.
func TestAmbiguousEditWarnsAgainstReplaceAllForText(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.writeFile(t, "a.go", "func a() {\n\tif x {\n\t}\n\tif y {\n\t}\n}\n")
	requireOK(t, e.call("read", args{"file_path": "a.go"}))
	requireFailure(t, e.call("edit", args{"file_path": "a.go", "old_string": "\t}\n", "new_string": "\t} // end\n"}),
		`Error: old_string matched 2 times in "`+e.path("a.go")+`"; provide a more specific old_string or set replace_all to true
`+matchesAt(golden("edit.next.matches_at.and", "list", "3", "last", "5"), true)+"\n"+golden("edit.next.not_one_name"), "FS_AMBIGUOUS_EDIT")
	e.writeFile(t, "b.go", "x := 1\ny := x\n")
	requireOK(t, e.call("read", args{"file_path": "b.go"}))
	requireFailure(t, e.call("edit", args{"file_path": "b.go", "old_string": "x", "new_string": "z"}),
		`Error: old_string matched 2 times in "`+e.path("b.go")+`"; provide a more specific old_string or set replace_all to true
`+matchesAt(golden("edit.next.matches_at.and", "list", "1", "last", "2"), true), "FS_AMBIGUOUS_EDIT")
}
