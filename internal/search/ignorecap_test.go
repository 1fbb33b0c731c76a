package search_test

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cordon-dev/cordon/internal/search"
)

// TestIgnoreFileCaps: an ignore file is applied up to its first 1 MiB, and its wildcard rules up to
// 32 KiB of patterns; the rules past either cap are left out, the others apply, and the file counts
// as applied in part.
func TestIgnoreFileCaps(t *testing.T) {
	isolate(t)
	var big strings.Builder
	big.WriteString("early.txt\n")
	for i := 0; big.Len() < 1<<20; i++ {
		big.WriteString("never_" + strconv.Itoa(i) + ".txt\n")
	}
	big.WriteString("late.txt\n")
	var wild strings.Builder
	wild.WriteString("w0*.tmp\n")
	for i := 0; wild.Len() < 40<<10; i++ {
		wild.WriteString("*z" + strconv.Itoa(i) + "?q*\n")
	}
	wild.WriteString("w1*.tmp\nplain.txt\n")
	root := tree(t, map[string]string{
		".git/": "", ".gitignore": big.String(), "early.txt": "", "late.txt": "", "kept.txt": "",
		"sub/.gitignore": wild.String(), "sub/w0a.tmp": "", "sub/w1a.tmp": "", "sub/plain.txt": "",
	})
	found, err := search.Files(context.Background(), root, nil, search.Options{})
	mustNoErr(t, err)
	got := rels(found)
	if want := []string{".gitignore", "kept.txt", "late.txt", "sub/.gitignore", "sub/w1a.tmp"}; !slices.Equal(got, want) || found.PartialIgnore != 2 {
		t.Fatalf("files %q, partial %d; want %q, 2", got, found.PartialIgnore, want)
	}
	_, stats, err := grepStats(context.Background(), t, search.GrepQuery{Root: root}, "x")
	mustNoErr(t, err)
	if stats.PartialIgnore != 2 {
		t.Fatalf("grep: partial %d", stats.PartialIgnore)
	}
	if got := files(t, root, "", search.Options{IncludeIgnored: true}); len(got) != 8 {
		t.Fatalf("includeIgnored reads no rules: %q", got)
	}
}
