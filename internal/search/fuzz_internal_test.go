package search

import "testing"

// FuzzIgnoreRules: any ignore file parses and matches any path without panicking, and a rule
// naming a plain file name excludes exactly that name.
func FuzzIgnoreRules(f *testing.F) {
	for _, s := range []string{"*.log\n!keep.log\n", "build/\n", "a/**/b\n", "[!a-c]x\n", "\\#x \\ \n", "[[:alpha:]\n", "**\n"} {
		f.Add(s, "a/b/keep.log", false)
	}
	f.Fuzz(func(t *testing.T, data, rel string, isDir bool) {
		l := parseRules([]byte(data))
		_ = l.match(rel, isDir)
		if name := "plain" + "name"; data == name {
			if l.match("x/"+name, false) != excluded {
				t.Fatal("a plain name did not exclude itself")
			}
		}
	})
}
