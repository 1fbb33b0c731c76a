package toolfs_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// drift is one way a model's old_string drifts from the file: it returns the drifted block, or
// false when it does not apply to the block.
type drift struct {
	name  string
	apply func(lines []string) ([]string, bool)
}

var drifts = []drift{
	{"indentation", func(ls []string) ([]string, bool) {
		out, changed := make([]string, len(ls)), false
		for i, l := range ls {
			t := strings.TrimLeft(l, "\t")
			out[i] = strings.Repeat("    ", len(l)-len(t)) + t
			changed = changed || out[i] != l
		}
		return out, changed
	}},
	{"trailing spaces", func(ls []string) ([]string, bool) {
		out := append([]string(nil), ls...)
		out[0] += "  "
		return out, true
	}},
	{"carriage return", func(ls []string) ([]string, bool) {
		out := append([]string(nil), ls...)
		out[len(out)-1] += "\r"
		return out, true
	}},
	{"curly quotes", func(ls []string) ([]string, bool) {
		for i, l := range ls {
			if a := strings.IndexByte(l, '"'); a >= 0 {
				if b := strings.IndexByte(l[a+1:], '"'); b >= 0 {
					out := append([]string(nil), ls...)
					out[i] = l[:a] + "“" + l[a+1:a+1+b] + "”" + l[a+2+b:]
					return out, true
				}
			}
		}
		return nil, false
	}},
	{"blank line", func(ls []string) ([]string, bool) {
		for i := 1; i < len(ls)-1; i++ {
			if strings.TrimSpace(ls[i]) == "" {
				return append(append([]string(nil), ls[:i]...), ls[i+1:]...), true // a missing blank line
			}
		}
		out := append([]string(nil), ls[:1]...)
		return append(append(out, ""), ls[1:]...), true // an extra blank line
	}},
}

// TestNearMissCorpus makes near-miss edits from the project's own Go sources: each a block of 2-4
// whole lines that occurs once in its file (a correct edit) with one drift applied to old_string.
// None may land; the share whose refusal names the block's lines and shows the file's text there
// must stay high.
func TestNearMissCorpus(t *testing.T) {
	var sources []string
	require.NoError(t, filepath.WalkDir(filepath.Join("..", ".."), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "e2e" || strings.HasPrefix(d.Name(), ".")) && p != filepath.Join("..", "..") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			sources = append(sources, p)
		}
		return nil
	}))
	sort.Strings(sources)
	require.NotEmpty(t, sources)

	e := newEnv(t, envOptions{})
	total, right := 0, 0
	byDrift := map[string][2]int{}
	for fi, src := range sources {
		if total >= 250 {
			break
		}
		b, err := os.ReadFile(src)
		require.NoError(t, err)
		text := string(b)
		lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		name := "f" + strconv.Itoa(fi) + ".go"
		e.writeFile(t, name, text)
		requireOK(t, e.call("read", args{"file_path": name}))
		for start := 5 + fi%7; start+4 < len(lines) && total < 250; start += 61 {
			k := 2 + (start+fi)%3
			block := lines[start : start+k]
			old := strings.Join(block, "\n")
			if strings.TrimSpace(old) == "" || strings.Count(text, old) != 1 {
				continue
			}
			d := drifts[(total+fi)%len(drifts)]
			dl, ok := d.apply(block)
			if !ok {
				continue
			}
			drifted := strings.Join(dl, "\n")
			if strings.Contains(text, strings.ReplaceAll(drifted, "\r\n", "\n")) {
				continue
			}
			total++
			r := e.call("edit", args{"file_path": name, "old_string": drifted, "new_string": "REPLACED"})
			require.True(t, r.IsError, "a near miss was applied (%s, %s:%d)", d.name, src, start+1)
			require.Equal(t, "FS_EDIT_NOT_FOUND", r.Code())
			require.Equal(t, text, e.readFile(t, name), "the file is unchanged")
			first, last := start+1, start+k
			if block[k-1] == "" {
				last-- // old_string ends with the previous line's '\n': that line is its last
			}
			ok = strings.HasPrefix(r.Text(), `Error: old_string was not found in "`+e.path(name)+`"`+"\n") &&
				(strings.Contains(r.Text(), "lines "+strconv.Itoa(first)+"-"+strconv.Itoa(last)) || first == last && strings.Contains(r.Text(), "line "+strconv.Itoa(first)))
			for n := first; n <= last && ok; n++ {
				ok = strings.Contains(r.Text(), "\n"+strconv.Itoa(n)+": "+lines[n-1]+"\n") || strings.HasSuffix(r.Text(), "\n"+strconv.Itoa(n)+": "+lines[n-1])
			}
			c := byDrift[d.name]
			c[1]++
			if ok {
				right++
				c[0]++
			} else if testing.Verbose() {
				t.Logf("missed (%s) %s:%d-%d:\n%s", d.name, src, first, last, r.Text())
			}
			byDrift[d.name] = c
		}
	}
	require.GreaterOrEqual(t, total, 200, "the corpus is large enough")
	share := float64(right) / float64(total)
	t.Logf("near-miss corpus: %d edits, 0 applied, %d (%.1f%%) name the right lines and show the file's text; by drift: %v", total, right, 100*share, byDrift)
	assert.GreaterOrEqual(t, share, 0.95)
}
