package search_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cordon-dev/cordon/internal/search"
)

func TestGrepLinesEndingsAndUTF8(t *testing.T) {
	root := tree(t, map[string]string{
		"crlf.txt": "alpha\r\nbeta alpha\r\nalpha$\r\n",
		"bad.txt":  "ok alpha\n\xff\xfe alpha\n",
		"last.txt": "no newline alpha",
	})
	got := grep(t, search.GrepQuery{Root: root}, `alpha$`)
	slices.SortFunc(got, func(a, b hit) int { return strings.Compare(a.Rel+string(rune(a.Line)), b.Rel+string(rune(b.Line))) })
	want := []hit{
		{"bad.txt", 1, "ok alpha", false, true},
		{"bad.txt", 2, "", false, false},
		{"crlf.txt", 1, "alpha", false, true},
		{"crlf.txt", 2, "beta alpha", false, true},
		{"last.txt", 1, "no newline alpha", false, true},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
	// The terminator is not part of the line: \r and \n in a pattern match nothing.
	for _, p := range []string{`\r`, `a\nb`, `alpha\r`} {
		if got := grep(t, search.GrepQuery{Root: root}, p); len(got) != 0 {
			t.Errorf("%q matched %+v", p, got)
		}
	}
}

func TestGrepBinaryBlocks(t *testing.T) {
	head := make([]byte, 70000)
	for i := range head {
		head[i] = 'x'
		if i%100 == 99 {
			head[i] = '\n'
		}
	}
	early := append([]byte("match at zero\n"), head[14:]...)
	early[70000-5] = 0 // NUL in the second block: the first block still counts
	late := bytes.Clone(head)
	copy(late[69000:], "\nmatch late\n")
	late[69990] = 0 // same block as the match: nothing from it counts
	root := tree(t, map[string]string{
		"spec.txt":  "match one\nmatch two\nmatch th\x00ree\n",
		"early.bin": string(early),
		"late.bin":  string(late),
	})
	got := grep(t, search.GrepQuery{Root: root}, "match")
	want := []hit{{"early.bin", 1, "match at zero", false, true}}
	if !slices.Equal(got, want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
}

func TestGrepLongLineIsStreamed(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 100 MiB")
	}
	root := tree(t, nil)
	path := filepath.Join(root, "long.txt")
	f, err := os.Create(path)
	mustNoErr(t, err)
	line := bytes.Repeat([]byte("é"), 50<<20) // 100 MiB of two-byte runes
	_, err = f.Write(append(append([]byte("start "), line...), []byte(" needle\r\nnext needle\n")...))
	mustNoErr(t, err)
	mustNoErr(t, f.Close())
	for _, pattern := range []string{"needle", `^start é+`, `ne+dle$`} {
		got := grep(t, search.GrepQuery{Root: path, File: true, MaxLineBytes: 11}, pattern)
		want := []hit{{"", 1, "start éé", true, true}, {"", 2, "next needle", false, true}}
		if pattern == `^start é+` {
			want = want[:1]
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%q: got %+v, want %+v", pattern, got, want)
		}
	}
	if got := grep(t, search.GrepQuery{Root: path, File: true}, "absent"); len(got) != 0 {
		t.Fatalf("got %+v", got)
	}
}

func TestGrepCutsOnUTF8Boundary(t *testing.T) {
	root := tree(t, map[string]string{"a.txt": "aéaéaéaé\n"})
	got := grep(t, search.GrepQuery{Root: root, MaxLineBytes: 7}, "a")
	want := []hit{{"a.txt", 1, "aéaéa", true, true}}
	if !slices.Equal(got, want) {
		t.Fatalf("got %+v", got)
	}
}

func TestNewestFirstAndDeterministic(t *testing.T) {
	root := tree(t, map[string]string{"old.go": "hit\n", "new.go": "hit\nhit\n", "b/tie.go": "hit\n", "a/tie.go": "hit\n"})
	touch(t, root, "old.go", 0)
	touch(t, root, "new.go", 30)
	touch(t, root, "a/tie.go", 10)
	touch(t, root, "b/tie.go", 10)
	found, err := search.Files(context.Background(), root, nil, search.Options{})
	mustNoErr(t, err)
	var rels []string
	for _, f := range found.Files {
		rels = append(rels, f.Rel)
	}
	if want := []string{"new.go", "a/tie.go", "b/tie.go", "old.go"}; !slices.Equal(rels, want) {
		t.Fatalf("files %q, want %q", rels, want)
	}
	for i := 0; i < 20; i++ {
		got := grep(t, search.GrepQuery{Root: root}, "hit")
		want := []hit{{"new.go", 1, "hit", false, true}, {"new.go", 2, "hit", false, true}, {"a/tie.go", 1, "hit", false, true}, {"b/tie.go", 1, "hit", false, true}, {"old.go", 1, "hit", false, true}}
		if !slices.Equal(got, want) {
			t.Fatalf("got %+v", got)
		}
	}
}

func TestManyFilesKeepOrderUnderParallelism(t *testing.T) {
	files := map[string]string{}
	for i := 0; i < 300; i++ {
		name := filepath.Join(string(rune('a'+i%7)), strings.Repeat("f", 1+i%5)+string(rune('A'+i%26))+".txt")
		files[name] = strings.Repeat("line\nmatch here\n", 1+i%40)
	}
	root := tree(t, files)
	first := grep(t, search.GrepQuery{Root: root}, "match")
	for i := 0; i < 5; i++ {
		if got := grep(t, search.GrepQuery{Root: root}, "match"); !slices.Equal(got, first) {
			t.Fatal("two searches disagree")
		}
	}
	total := 0
	for i := 0; i < 300; i++ {
		total += 1 + i%40
	}
	if len(first) > total || len(first) == 0 {
		t.Fatalf("%d hits for at most %d", len(first), total)
	}
}

func TestWalkSkipsVCSAndKeepsHidden(t *testing.T) {
	isolate(t)
	root := tree(t, map[string]string{
		".git/config": "x", ".hg/x": "x", ".svn/x": "x", ".bzr/x": "x", ".jj/x": "x", ".sl/x": "x",
		"sub/.git": "gitdir: elsewhere", ".hidden/a.go": "x", ".env": "x", "a.go": "x",
	})
	if got, want := files(t, root, "", search.Options{}), []string{".env", ".hidden/a.go", "a.go"}; !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	if got := files(t, filepath.Join(root, ".git"), "", search.Options{IncludeIgnored: true}); len(got) != 0 {
		t.Fatalf("a root inside .git listed %q", got)
	}
}

func TestIgnorePrecedenceAndExplicitRoot(t *testing.T) {
	isolate(t)
	root := tree(t, map[string]string{
		".git/":          "",
		".gitignore":     "*.log\nbuild/\n!keep.log\n",
		".ignore":        "!b.log\n",
		"sub/.gitignore": "local.txt\n", "sub/local.txt": "x", "local.txt": "x",
		"a.log": "x", "b.log": "x", "keep.log": "x", "build/out.o": "x", "build/keep.log": "x",
		"sub/.ignore": "*.md\n", "sub/x.md": "x", "x.md": "x",
	})
	want := []string{".gitignore", ".ignore", "b.log", "keep.log", "local.txt", "sub/.gitignore", "sub/.ignore", "x.md"}
	if got := files(t, root, "", search.Options{}); !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	// An explicitly named ignored directory is searched; rules still apply inside it.
	if got := files(t, filepath.Join(root, "build"), "", search.Options{}); !slices.Equal(got, []string{"keep.log", "out.o"}) {
		t.Fatalf("explicit root: %q", got)
	}
	all := files(t, root, "", search.Options{IncludeIgnored: true})
	if !slices.Contains(all, "build/out.o") || !slices.Contains(all, "a.log") {
		t.Fatalf("includeIgnored: %q", all)
	}
	// .gitignore outside a git work tree is not read; .ignore is.
	plain := tree(t, map[string]string{".gitignore": "*.log\n", ".ignore": "*.md\n", "a.log": "x", "a.md": "x"})
	if got := files(t, plain, "", search.Options{}); !slices.Equal(got, []string{".gitignore", ".ignore", "a.log"}) {
		t.Fatalf("outside git: %q", got)
	}
	// Rules of the directories above the root apply.
	if got := files(t, filepath.Join(root, "sub"), "", search.Options{}); !slices.Equal(got, []string{".gitignore", ".ignore"}) {
		t.Fatalf("below the top: %q", got)
	}
}

func TestGlobalExcludesFile(t *testing.T) {
	home := isolate(t)
	mustNoErr(t, os.WriteFile(filepath.Join(home, "my-excludes"), []byte("*.swp\n"), 0o644))
	mustNoErr(t, os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[core]\n\texcludesFile = ~/my-excludes ; comment\n"), 0o644))
	root := tree(t, map[string]string{".git/": "", "a.swp": "x", "a.go": "x", ".git/info/exclude": "a.go\n", "b.go": "x"})
	if got := files(t, root, "", search.Options{}); !slices.Equal(got, []string{"b.go"}) {
		t.Fatalf("got %q", got)
	}
}

func TestSpecialFilesNeverBlockAndLinksAreNotFollowed(t *testing.T) {
	root := tree(t, map[string]string{"a.txt": "hit\n", "dir/b.txt": "hit\n"})
	mustNoErr(t, syscall.Mkfifo(filepath.Join(root, "fifo.txt"), 0o644))
	mustNoErr(t, os.Symlink(root, filepath.Join(root, "dir", "loop")))
	mustNoErr(t, os.Symlink("self", filepath.Join(root, "self")))
	mustNoErr(t, os.Symlink("a.txt", filepath.Join(root, "link.txt")))
	mustNoErr(t, os.Symlink("/etc/passwd", filepath.Join(root, "out.txt")))
	done := make(chan []string, 1)
	go func() { done <- files(t, root, "", search.Options{}) }()
	select {
	case got := <-done:
		if want := []string{"a.txt", "dir/b.txt", "link.txt", "out.txt"}; !slices.Equal(got, want) {
			t.Fatalf("got %q, want %q", got, want)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the walk blocked")
	}
	got := grep(t, search.GrepQuery{Root: root}, "hit|root")
	if want := []hit{{"a.txt", 1, "hit", false, true}, {"dir/b.txt", 1, "hit", false, true}}; !slices.Equal(sortHits(got), want) {
		t.Fatalf("grep read through links or the FIFO: %+v", got)
	}
}

func sortHits(h []hit) []hit {
	slices.SortFunc(h, func(a, b hit) int { return strings.Compare(a.Rel, b.Rel) })
	return h
}

func TestMaxVisitedStopsDeterministically(t *testing.T) {
	root := tree(t, map[string]string{"a/1": "", "a/2": "", "b/3": "", "c": "", "d": ""})
	for i := 0; i < 10; i++ {
		found, err := search.Files(context.Background(), root, nil, search.Options{MaxVisited: 6})
		mustNoErr(t, err)
		var rels []string
		for _, f := range found.Files {
			rels = append(rels, f.Rel)
		}
		slices.Sort(rels)
		// Level one lists a, b, c, d (4); level two a/1, a/2 (2 more): b/3 is past the limit.
		if !found.Stopped || !slices.Equal(rels, []string{"a/1", "a/2", "c", "d"}) {
			t.Fatalf("stopped %v, files %q", found.Stopped, rels)
		}
	}
}

func TestCancellation(t *testing.T) {
	root := tree(t, map[string]string{"a.txt": "hit\n"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m, _ := search.CompileMatcher("hit")
	_, err := search.Grep(ctx, search.GrepQuery{Root: root, Matcher: m, MaxLineBytes: 10}, func(search.LineMatch) error { return nil })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	if _, err := search.Files(ctx, root, nil, search.Options{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("files err = %v", err)
	}
}

func TestEmitErrorStopsTheSearch(t *testing.T) {
	files := map[string]string{}
	for i := 0; i < 50; i++ {
		files[strings.Repeat("x", i+1)] = "hit\nhit\n"
	}
	root := tree(t, files)
	m, _ := search.CompileMatcher("hit")
	boom := errors.New("boom")
	calls := 0
	_, err := search.Grep(context.Background(), search.GrepQuery{Root: root, Matcher: m, MaxLineBytes: 10}, func(search.LineMatch) error {
		calls++
		return boom
	})
	if !errors.Is(err, boom) || calls != 1 {
		t.Fatalf("err %v after %d calls", err, calls)
	}
}

func TestMatcherAgreesWithRegexp(t *testing.T) {
	lines := []string{"func NewReader(r io.Reader)", "NEWREADER", "newreader", "Reader", "Writer", "KELVIN \u212a", "task TASK ta\u017fk",
		"colour color", "x = 12345", "", "\xff\xfe bad", "foo_bar(", "ba", "bar baz", "ö ä", "tİ"}
	for _, p := range []string{"func NewReader", "(?i)newreader", "Reader|Writer", `func \w+Reader\(`, `(?i)task`, `(?i)k`,
		"colou?r", `[0-9]{5,}`, `^$`, `\xff`, "\ufffd", `[a-z]+_[a-z]+\(`, "ba[rz]", "(?i)ö", "(?i)ti", `\bbar\b`, "x*"} {
		m, err := search.CompileMatcher(p)
		mustNoErr(t, err)
		re := regexp.MustCompile(p)
		for _, l := range lines {
			if got, want := m.MatchLine([]byte(l)), re.MatchString(l); got != want {
				t.Errorf("%q on %q: %v, regexp says %v", p, l, got, want)
			}
		}
	}
}
