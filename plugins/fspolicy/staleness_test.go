package fspolicy_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/seen"
	"github.com/cordon-dev/cordon/plugins/fspolicy"
)

const text = "one\ntwo\nthree\nfour\n"

func (h *harness) loadRule(t *testing.T, rule fspolicy.Staleness) {
	t.Helper()
	f, err := h.kc.Load(fspolicy.Plugin, fspolicy.Config{Staleness: rule})
	require.NoError(t, err)
	require.NoError(t, f.Err())
}

func TestStalenessConfig(t *testing.T) {
	h := newHarness(t)
	f, err := h.kc.Load(fspolicy.Plugin, fspolicy.Config{Staleness: "mtime"})
	if err == nil {
		err = f.Err()
	}
	require.Error(t, err)
	assert.Contains(t, err.Error(), `fs-observation-policy: staleness must be "version", "content" or "region", not "mtime"`)

	var c fspolicy.Config
	c.Defaults()
	assert.Equal(t, fspolicy.StalenessContent, c.Staleness, "content is the default")
}

func TestRecheckIsCarriedOnlyWhenContentCanDecide(t *testing.T) {
	for _, c := range []struct {
		rule fspolicy.Staleness
		obs  fs.Observation
		want bool
	}{
		{fspolicy.StalenessVersion, fs.PresentSeen("v1", seen.Whole(text)), false},
		{fspolicy.StalenessContent, fs.Present("v1"), false},
		{fspolicy.StalenessContent, fs.PresentSeen("v1", seen.Whole(text)), true},
		{fspolicy.StalenessRegion, fs.PresentSeen("v1", seen.Whole(text)), true},
	} {
		h := newHarness(t)
		h.loadRule(t, c.rule)
		a := actor{&session{"a"}}
		h.observe(t, a, c.obs)
		w, _ := h.writeIntent(t, a)
		g, err, _ := h.editIntent(t, a)
		require.NoError(t, err)
		assert.Equal(t, fs.Version("v1"), w.Version)
		assert.Equal(t, c.want, w.Recheck != nil, "%s %v", c.rule, c.obs.Seen != nil)
		assert.Equal(t, c.want, g.Recheck != nil, "%s %v", c.rule, c.obs.Seen != nil)
	}
}

func TestContentRecheck(t *testing.T) {
	h := newHarness(t)
	h.load(t)
	a := actor{&session{"a"}}
	h.observe(t, a, fs.PresentSeen("v1", seen.Whole(text)))
	w, _ := h.writeIntent(t, a)
	require.NoError(t, w.Recheck.Write("v2", text), "same bytes at another version")
	g, _, _ := h.editIntent(t, a)
	assert.Equal(t, fs.Version("v2"), g.Version, "the observation was refreshed to the new version")

	_, err := g.Recheck.Edit("v3", strings.Replace(text, "four", "FOUR", 1), []fs.LineRange{{First: 1, Last: 1}})
	var fe *fs.Error
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, fs.CodeStaleVersion, fe.Kind)
	assert.Equal(t, `cannot edit "/ws/a.txt": file changed since it was read`, fe.Message, "the first line stays the contract's")
	gd, ok := errors.AsType[*fs.Guidance](err)
	require.True(t, ok)
	assert.Equal(t, "What changed since the read (- as read, + now):\n@@ -2,3 +2,3 @@\n two\n three\n-four\n+FOUR\n"+
		"The lines shown with + count as read: an edit of them can be retried as they are now, without another read.", gd.Text)

	err = w.Recheck.Write("v3", text+"five\n")
	require.ErrorIs(t, err, fs.WriteChanged("/ws/a.txt"))
}

func TestRegionRecheck(t *testing.T) {
	h := newHarness(t)
	h.loadRule(t, fspolicy.StalenessRegion)
	a := actor{&session{"a"}}
	h.observe(t, a, fs.PresentSeen("v1", seen.Whole(text)))
	g, _, _ := h.editIntent(t, a)
	w, _ := h.writeIntent(t, a) // decided from the same read
	now := strings.Replace(text, "four", "FOUR", 1)
	elsewhere, err := g.Recheck.Edit("v2", now, []fs.LineRange{{First: 1, Last: 2}})
	require.NoError(t, err)
	assert.Equal(t, []fs.LineRange{{First: 4, Last: 4}}, elsewhere)
	_, err = g.Recheck.Edit("v2", now, []fs.LineRange{{First: 4, Last: 4}})
	assert.ErrorIs(t, err, fs.ErrStaleVersion, "the touched line changed")
	_, err = g.Recheck.Edit("v2", now, nil)
	assert.ErrorIs(t, err, fs.ErrStaleVersion, "no match over changed seen lines: stale, never a match error")
	assert.ErrorIs(t, w.Recheck.Write("v2", now), fs.ErrStaleVersion, "write is whole-file: content rule")
}

// Under region, a line another process added with the text of a read line is not taken for the
// read one: an edit of either copy is stale, with the diff, rather than landing on a line the model
// never saw with a success text saying the replaced lines had not changed.
func TestRegionRecheckRefusesACopyOfASeenLine(t *testing.T) {
	h := newHarness(t)
	h.loadRule(t, fspolicy.StalenessRegion)
	a := actor{&session{"a"}}
	h.observe(t, a, fs.PresentSeen("v1", seen.Whole(text)))
	g, _, _ := h.editIntent(t, a)
	now := strings.Replace(text, "three\n", "three\nthree\n", 1)
	for _, line := range []int{3, 4} {
		_, err := g.Recheck.Edit("v2", now, []fs.LineRange{{First: line, Last: line}})
		require.ErrorIs(t, err, fs.ErrStaleVersion, "line %d", line)
	}
	elsewhere, err := g.Recheck.Edit("v2", now, []fs.LineRange{{First: 1, Last: 1}})
	require.NoError(t, err)
	assert.Len(t, elsewhere, 1)
}

func TestSeenAccumulatesAtOneVersion(t *testing.T) {
	h := newHarness(t)
	h.load(t)
	a := actor{&session{"a"}}
	h.observe(t, a, fs.PresentSeen("v1", seen.OfText(text, 1, 2)))
	h.observe(t, a, fs.PresentSeen("v1", seen.OfText(text, 3, 2)))
	w, _ := h.writeIntent(t, a)
	require.NoError(t, w.Recheck.Write("v2", text), "two windows of one version cover the file")

	h.observe(t, a, fs.PresentSeen("v3", seen.OfText(text, 1, 2)))
	w, _ = h.writeIntent(t, a)
	err := w.Recheck.Write("v4", text)
	require.ErrorIs(t, err, fs.ErrStaleVersion, "another version replaces what was seen")
	gd, ok := errors.AsType[*fs.Guidance](err)
	require.True(t, ok)
	assert.Equal(t, "Only lines 1-2 of its 4 lines were read, and they are unchanged; the rest may have changed.", gd.Text)
}

func TestOwnerTextIsBounded(t *testing.T) {
	h := newHarness(t)
	h.load(t)
	a := actor{&session{"a"}}
	big := strings.Repeat(strings.Repeat("x", 1023)+"\n", 64) // 64 KiB: kept whole
	n := fspolicy.MaxOwnerText/len(big) + 1
	for i := 0; i < n; i++ {
		tg := fs.Target{Key: fs.TargetKey("/real/" + strconv.Itoa(i)), DisplayPath: "/ws/" + strconv.Itoa(i)}
		require.NoError(t, fs.ObservedEvent.Emit(context.Background(), h.kc, fs.ObservedArgs{Target: tg, Observation: fs.PresentSeen("v", seen.Whole(big)), Actor: a}))
	}
	guide := func(i int) string {
		tg := fs.Target{Key: fs.TargetKey("/real/" + strconv.Itoa(i)), DisplayPath: "/ws/" + strconv.Itoa(i)}
		g, err := fs.EditIntentEvent.Run(context.Background(), h.kc, fs.IntentArgs{Target: tg, Actor: a}, func() (*fs.EditGuard, error) { return nil, nil })
		require.NoError(t, err)
		_, err = g.Recheck.Edit("w", "changed\n", nil)
		gd, ok := errors.AsType[*fs.Guidance](err)
		require.True(t, ok)
		return gd.Text
	}
	assert.Contains(t, guide(0), "-xxxx", "within the bound the text is kept and diffed")
	assert.Contains(t, guide(n-1), "(not shown: too much was read to keep its text)", "beyond it only digests are kept")
}
