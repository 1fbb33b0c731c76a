package search

import (
	"strings"
	"testing"
)

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

// naiveMatch is ruleList.match rule by rule from the last: what the compiled tables must agree
// with.
func naiveMatch(l *ruleList, rel string, isDir bool) decision {
	if l == nil {
		return undecided
	}
	name := rel[strings.LastIndexByte(rel, '/')+1:]
	for i := len(l.rules) - 1; i >= 0; i-- {
		r := &l.rules[i]
		if r.dirOnly && !isDir {
			continue
		}
		subject := rel
		if r.base {
			subject = name
		}
		if r.glob.match(subject) {
			if r.negate {
				return included
			}
			return excluded
		}
	}
	return undecided
}

// FuzzCompiledRulesAgree: the compiled matcher of an ignore file decides as its rules taken one by
// one, last first.
func FuzzCompiledRulesAgree(f *testing.F) {
	f.Add("*.log\n!keep.log\nbuild/\ntmp*\n!tmp1*\n**/x.md\na/b/*.c\n/top\n", "a/b/keep.log", false)
	f.Add("x\nx/\n!x\n*.gz\n*.tar.gz\n!a.tar.gz\n", "d/a.tar.gz", true)
	f.Add("a/b/c*\na/b/\n!a/b/c1\n", "a/b/c1", false)
	f.Fuzz(func(t *testing.T, data, rel string, isDir bool) {
		if rel == "" || strings.HasSuffix(rel, "/") {
			return
		}
		l := parseRules([]byte(data))
		if got, want := l.match(rel, isDir), naiveMatch(l, rel, isDir); got != want {
			t.Fatalf("compiled %v, rule by rule %v", got, want)
		}
	})
}
