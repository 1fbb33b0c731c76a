package toolfssearch_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/cordon-dev/cordon/internal/confint"
	"github.com/cordon-dev/cordon/kernel/loader"
	"github.com/cordon-dev/cordon/plugins/toolfssearch"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// TestGrepPageFitsTheBudget: 250 matching lines of 2,000 bytes would be 500 KB inline; the page
// stops where the whole text would pass the budget, says how many it shows, and the spill holds
// every match.
func TestGrepPageFitsTheBudget(t *testing.T) {
	e := newEnv(t, nil, nil)
	var b strings.Builder
	for i := range 300 {
		b.WriteString("hit " + strconv.Itoa(i) + " " + strings.Repeat("w", 3000) + "\n")
	}
	e.write(t, "big.txt", b.String(), 0)
	for client, budget := range map[string]int{"": 36000, "claude-code": 48000} {
		e.session.SetHeader(tools.Header{Cwd: e.dir, Client: client})
		r := e.call("grep", map[string]any{"pattern": "hit"})
		require.False(t, r.IsError, r.Text())
		text := r.Text()
		require.LessOrEqual(t, len(text), budget)
		require.Greater(t, len(text), budget-2*2100, "the page is as long as the budget allows")
		v := r.Value.(toolfssearch.GrepValue)
		require.Less(t, len(v.Matches), 250)
		require.True(t, strings.HasPrefix(text, foundOf(len(v.Matches), 300)+"\n\nbig.txt\nLine 1: hit 0 "), text[:80])
		require.Equal(t, toolfssearch.RenderGrep(v), text)
		spilled := readFile(t, spillPathOf(t, text, foundOf(len(v.Matches), 300)))
		require.Equal(t, 300, strings.Count(spilled, "\nLine "))
		require.True(t, strings.HasPrefix(spilled, spillHeader(found(300))+"\n\nbig.txt\nLine 1: hit 0 "))
	}
}

// TestGlobPageFitsTheBudget: 100 paths of about 500 bytes pass the budget; the page shows as
// many as fit with its footer, sampled as before, and the spill holds every path.
func TestGlobPageFitsTheBudget(t *testing.T) {
	for _, sample := range []bool{true, false} {
		e := newEnv(t, cfgWith(func(c *toolfssearch.Config) { c.SampleOverCapGlobResults = sample }), nil)
		deep := strings.Repeat("d", 200) + "/" + strings.Repeat("e", 200)
		for i := range 100 {
			e.write(t, filepath.Join("top"+strconv.Itoa(i%3), deep, "f"+strconv.Itoa(i)+".txt"), "", i)
		}
		r := e.call("glob", map[string]any{"pattern": "*.txt"})
		require.False(t, r.IsError, r.Text())
		text := r.Text()
		require.LessOrEqual(t, len(text), 36000)
		require.Greater(t, len(text), 36000-2*420)
		v := r.Value.(toolfssearch.GlobValue)
		require.Less(t, len(v.Paths), 100)
		require.Equal(t, toolfssearch.RenderGlob(v), text)
		require.Equal(t, sample, v.Sampled, "three top-level entries")
		if sample {
			require.Contains(t, text, "\n\n(Showing "+strconv.Itoa(len(v.Paths))+" of 100 paths, sampled across 3 of the 3 top-level entries")
		} else {
			require.Contains(t, text, "\n\n(Showing "+strconv.Itoa(len(v.Paths))+" of 100 paths. Full result stored at: ")
		}
		spilled := readFile(t, regexp.MustCompile(`stored at: (/[^ ]+\.txt)\.`).FindStringSubmatch(text)[1])
		require.Len(t, strings.Split(spilled, "\n"), 100)
	}
}

// TestGrepSpillIsCapped greps a real 40 MiB file whose every line matches, with spill files capped
// at 1 MiB: the file stays under its cap, ends with a note, and the result says the saved list was
// cut and how many matches it holds.
func TestGrepSpillIsCapped(t *testing.T) {
	const limit = 1 << 20
	e := newEnv(t, cfgWith(func(c *toolfssearch.Config) { c.SpillMaxBytes, c.SpillQuotaBytes = limit, 2*limit }), nil)
	line := "match " + strings.Repeat("m", 93) + "\n"
	f, err := os.Create(filepath.Join(e.dir, "huge.txt"))
	require.NoError(t, err)
	chunk := strings.Repeat(line, 10000)
	for range 40 << 20 / len(chunk) {
		_, err := f.WriteString(chunk)
		require.NoError(t, err)
	}
	require.NoError(t, f.Close())
	total := 40 << 20 / len(chunk) * 10000
	r := e.call("grep", map[string]any{"pattern": "match"})
	require.False(t, r.IsError, r.Text())
	text := r.Text()
	require.LessOrEqual(t, len(text), 36000)
	v := r.Value.(toolfssearch.GrepValue)
	require.Equal(t, total, v.Total)
	require.Equal(t, int64(limit), v.SpillLimit)
	require.Positive(t, v.SpillKept)
	kept := []string{"kept", strconv.Itoa(v.SpillKept), "total", strconv.Itoa(total), "limit", "1048576"}
	want := "(" + golden("grep.spill.stored_first", append(kept, "path", v.SpillPath)...) + ")"
	require.True(t, strings.HasSuffix(text, "\n\n"+want), text[len(text)-400:])
	st, err := os.Stat(v.SpillPath)
	require.NoError(t, err)
	require.LessOrEqual(t, st.Size(), int64(limit))
	spilled := readFile(t, v.SpillPath)
	require.Equal(t, v.SpillKept, strings.Count(spilled, "\nLine "))
	require.True(t, strings.HasSuffix(spilled, "\nLine "+strconv.Itoa(v.SpillKept)+": "+strings.TrimSuffix(line, "\n")+
		"\n\n"+golden("grep.spill.cut", kept...)))

	// The quota: two more spills of 1 MiB under a 2 MiB quota leave the two newest.
	first := v.SpillPath
	r2 := e.call("grep", map[string]any{"pattern": "match"})
	r3 := e.call("grep", map[string]any{"pattern": "match"})
	require.NoFileExists(t, first, "the oldest spill goes first")
	require.FileExists(t, r2.Value.(toolfssearch.GrepValue).SpillPath)
	require.FileExists(t, r3.Value.(toolfssearch.GrepValue).SpillPath)
}

func TestGlobSpillIsCapped(t *testing.T) {
	e := newEnv(t, cfgWith(func(c *toolfssearch.Config) {
		c.GlobMaxResults, c.SpillMaxBytes, c.SpillQuotaBytes, c.SampleOverCapGlobResults = 2, 400, 400, false
	}), nil)
	for i := range 50 {
		e.write(t, "file"+strconv.Itoa(i)+".txt", "", 100-i)
	}
	r := e.call("glob", map[string]any{"pattern": "*.txt"})
	v := r.Value.(toolfssearch.GlobValue)
	require.Positive(t, v.SpillKept)
	require.Less(t, v.SpillKept, 50)
	kept := []string{"kept", strconv.Itoa(v.SpillKept), "total", "50", "limit", "400"}
	require.Contains(t, r.Text(), golden("glob.showing", "shown", "2", "total", "50",
		"recovery", golden("glob.spill.stored_first", append(kept, "path", v.SpillPath)...)))
	spilled := readFile(t, v.SpillPath)
	require.LessOrEqual(t, len(spilled), 400)
	require.True(t, strings.HasPrefix(spilled, "file0.txt\nfile1.txt\n"))
	require.True(t, strings.HasSuffix(spilled, "\n\n"+golden("glob.spill.cut", kept...)))
}

func TestSearchBudgetConfig(t *testing.T) {
	decode := func(src string) (toolfssearch.Config, error) {
		var n yaml.Node
		require.NoError(t, yaml.Unmarshal([]byte(src), &n))
		c, err := loader.DecodeConfig(toolfssearch.Plugin, &n)
		if err != nil {
			return toolfssearch.Config{}, err
		}
		return *c.(*toolfssearch.Config), nil
	}
	c, err := decode("resultBudget: 20000\nresultBudgetByClient: {opencode: 45000}\nspillMaxBytes: 1000\nspillQuotaBytes: 5000")
	require.NoError(t, err)
	require.Equal(t, confint.Int(20000), c.ResultBudget)
	require.Equal(t, map[string]confint.Int{"claude-code": 48000, "opencode": 45000}, c.ResultBudgetByClient, "merged over the built-in entries")
	require.Equal(t, [2]confint.Int{1000, 5000}, [2]confint.Int{c.SpillMaxBytes, c.SpillQuotaBytes})
	for src, want := range map[string]string{
		"resultBudget: 0":                            "tool-fs-search: resultBudget must be a positive integer",
		"resultBudgetByClient: {x: -1}":              `tool-fs-search: resultBudgetByClient["x"] must be a positive integer`,
		"spillMaxBytes: 0":                           "tool-fs-search: spillMaxBytes must be a positive integer",
		"spillQuotaBytes: 0":                         "tool-fs-search: spillQuotaBytes must be a positive integer",
		"spillMaxBytes: 2000\nspillQuotaBytes: 1000": "tool-fs-search: spillQuotaBytes must be at least spillMaxBytes",
	} {
		_, err := decode(src)
		require.EqualError(t, err, want, src)
	}
	for _, src := range []string{"resultBudget: 1.5", "spillMaxBytes: 2.5", "resultBudgetByClient: {x: 1.5}"} {
		_, err := decode(src)
		require.Error(t, err, src)
	}
}
