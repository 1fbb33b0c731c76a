package loader_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/kernel/kerneltest"
	"github.com/cordon-dev/cordon/kernel/loader"
)

// TestApplyReconciles runs one loader through a sequence of compositions and checks exactly which
// instances load and dispose at each step.
func TestApplyReconciles(t *testing.T) {
	l, j := newLoader(t)
	steps := []struct {
		name string
		src  string
		want []string
	}{
		{"initial load in order", `plugins:
  - {id: a, name: greet, config: {greeting: A}}
  - {id: b, name: greet}`,
			[]string{"apply a A", "apply b hello"}},
		{"same composition is a no-op", `plugins:
  - {id: a, name: greet, config: {greeting: A}}
  - {id: b, name: greet}`,
			nil},
		{"style and comments do not count as change", `plugins:
  - id: a # first
    name: greet
    config:
      greeting: "A"
  - id: b
    name: greet
    config: null`,
			nil},
		{"added entry loads, neighbours untouched", `plugins:
  - {id: a, name: greet, config: {greeting: A}}
  - {id: c, name: greet, config: {greeting: C}}
  - {id: b, name: greet}`,
			[]string{"apply c C"}},
		{"changed config restarts only that entry", `plugins:
  - {id: a, name: greet, config: {greeting: A2}}
  - {id: c, name: greet, config: {greeting: C}}
  - {id: b, name: greet}`,
			[]string{"dispose a", "apply a A2"}},
		{"disabled entry disposes", `plugins:
  - {id: a, name: greet, config: {greeting: A2}}
  - {id: c, name: greet, config: {greeting: C}}
  - {id: b, name: greet, disabled: true}`,
			[]string{"dispose b"}},
		{"re-enabled entry loads", `plugins:
  - {id: a, name: greet, config: {greeting: A2}}
  - {id: c, name: greet, config: {greeting: C}}
  - {id: b, name: greet, disabled: false}`,
			[]string{"apply b hello"}},
		{"removed entries dispose, last first", `plugins:
  - {id: b, name: greet}`,
			[]string{"dispose c", "dispose a"}},
		{"same id, other module: dispose then load", `plugins:
  - {id: b, name: bare}`,
			[]string{"dispose b", "apply b"}},
		{"empty composition disposes everything", `plugins: []`,
			nil},
	}
	for _, s := range steps {
		require.NoError(t, l.Apply(t.Context(), parse(t, s.src)), s.name)
		require.Equal(t, s.want, j.Take(), s.name)
	}
	require.Empty(t, l.Status())
}

func TestApplyKeepsFibersOfUnchangedEntries(t *testing.T) {
	l, _ := newLoader(t)
	require.NoError(t, l.Apply(t.Context(), parse(t, "plugins: [{id: a, name: greet}, {id: b, name: greet}]")))
	a, b := l.Fiber("a"), l.Fiber("b")
	require.NoError(t, l.Apply(t.Context(), parse(t, "plugins: [{id: x, name: bare}, {id: a, name: greet}, {id: y, name: bare}, {id: b, name: greet}]")))
	require.Same(t, a, l.Fiber("a"))
	require.Same(t, b, l.Fiber("b"))
	require.Equal(t, "x", l.Fiber("x").Entry())
	require.Nil(t, l.Fiber("nope"))
}

// TestApplyIsTransactional: a failing load or restart undoes every step of the same Apply.
func TestApplyIsTransactional(t *testing.T) {
	const start = `plugins:
  - {id: a, name: greet, config: {greeting: A}}
  - {id: b, name: greet, config: {greeting: B}}`
	tests := []struct {
		name    string
		src     string
		wantErr string
		want    []string
	}{
		{"failing new entry restores the removed one", `plugins:
  - {id: a, name: greet, config: {greeting: A}}
  - {id: c, name: greet, config: {fail: true}}`,
			`entry "c" (greet): greet refused to start`,
			[]string{"dispose b", "fail c", "apply b B"}},
		{"failing restart restores the previous config", `plugins:
  - {id: a, name: greet, config: {greeting: A, fail: true}}
  - {id: b, name: greet, config: {greeting: B}}`,
			`entry "a" (greet): greet refused to start`,
			[]string{"dispose a", "fail a", "apply a A"}},
		{"every step is undone in reverse", `plugins:
  - {id: a, name: greet, config: {greeting: A2}}
  - {id: d, name: greet, config: {greeting: D}}
  - {id: c, name: greet, config: {fail: true}}`,
			`entry "c" (greet): greet refused to start`,
			[]string{"dispose b", "dispose a", "apply a A2", "apply d D", "fail c",
				"dispose d", "dispose a", "apply a A", "apply b B"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, j := newLoader(t)
			require.NoError(t, l.Apply(t.Context(), parse(t, start)))
			before := l.Entries()
			j.Take()
			err := l.Apply(t.Context(), parse(t, tt.src))
			require.EqualError(t, err, tt.wantErr)
			var ee *loader.EntryError
			require.ErrorAs(t, err, &ee)
			require.Equal(t, tt.want, j.Take())
			require.Equal(t, before, l.Entries(), "the applied composition is the previous one")
			for _, s := range l.Status() {
				require.Equal(t, "active", s.State, s.ID)
			}
			require.Len(t, l.Kernel().Fibers(), 2, "failed instances leave no trace")
		})
	}
}

// TestApplyFailsWhenADependentFails: a dependent that fails because of the new composition (its
// provider arrives or changes) fails Apply, and the previous tree comes back, dependent included.
func TestApplyFailsWhenADependentFails(t *testing.T) {
	tests := []struct {
		name    string
		start   string
		next    string
		wantErr string
		want    []string
	}{
		{"provider arrives, dependent fails",
			"plugins: [{name: consumer, config: {fail: true}}]",
			"plugins: [{name: consumer, config: {fail: true}}, {name: provider}]",
			`entry "consumer": consumer refused to start`,
			nil},
		{"provider changes, dependent fails and is restored",
			"plugins: [{name: consumer}, {name: provider}]",
			"plugins: [{name: consumer}, {name: provider, config: {value: poison}}]",
			`entry "consumer": consumer refused service value "poison"`,
			[]string{"consume consumer value"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, j := newLoader(t)
			require.NoError(t, l.Apply(t.Context(), parse(t, tt.start)))
			before := l.Status()
			j.Take()
			require.EqualError(t, l.Apply(t.Context(), parse(t, tt.next)), tt.wantErr)
			require.Equal(t, tt.want, j.Take())
			require.Equal(t, before, l.Status())
		})
	}
}

func TestApplyCancelledContextChangesNothing(t *testing.T) {
	l, j := newLoader(t)
	require.NoError(t, l.Apply(t.Context(), parse(t, "plugins: [{id: a, name: greet}]")))
	j.Take()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	err := l.Apply(ctx, parse(t, "plugins: [{id: b, name: greet}]"))
	require.ErrorIs(t, err, context.Canceled)
	require.Empty(t, j.Take())
	require.NotNil(t, l.Fiber("a"))
}

func TestAuditReportsPendingAndFailed(t *testing.T) {
	l, j := newLoader(t)
	require.NoError(t, l.Apply(t.Context(), parse(t, "plugins: [{name: consumer}, {name: greet, disabled: true}]")))
	err := l.Audit()
	require.EqualError(t, err, "boot audit:\n  entry \"consumer\": pending: missing svc")
	var ae *loader.AuditError
	require.ErrorAs(t, err, &ae)
	require.Len(t, ae.Pending, 1)
	require.Equal(t, []string{"svc"}, ae.Pending[0].Missing)

	require.NoError(t, l.Apply(t.Context(), parse(t, "plugins: [{name: consumer}, {name: provider}]")))
	require.Equal(t, []string{"consume consumer value"}, j.Take(), "the pending entry activated when its service came")
	require.NoError(t, l.Audit())

	// A dependent that fails when a provider arrives from outside the loader: the audit reports it.
	require.NoError(t, l.Apply(t.Context(), parse(t, "plugins: [{name: consumer, config: {fail: true}}]")))
	kerneltest.RequireLoad(t, l.Kernel().Root(), provider, nil)
	err = l.Audit()
	require.EqualError(t, err, "boot audit:\n  entry \"consumer\": failed: consumer refused to start")
	var ee *loader.EntryError
	require.ErrorAs(t, err, &ee)
	require.Equal(t, "consumer", ee.ID)
}

func TestDumpShowsStatePerEntry(t *testing.T) {
	l, _ := newLoader(t)
	require.NoError(t, l.Apply(t.Context(), parse(t, `plugins:
  - name: consumer
  - id: g
    name: greet
    config:
      greeting: hi # comment kept
  - name: greet
    disabled: true
  - name: bare
`)))
	out, err := l.Dump()
	require.NoError(t, err)
	require.Equal(t, `plugins:
  - id: consumer # pending: missing svc
    name: consumer
  - id: g # active
    name: greet
    config:
      greeting: hi # comment kept
  - id: greet # disabled
    name: greet
    disabled: true
  - id: bare # active
    name: bare
`, string(out))
	again, err := loader.Parse(out)
	require.NoError(t, err, "a dump is a valid composition")
	require.Len(t, again, 4)
}

func TestDumpResolvesIDs(t *testing.T) {
	out, err := loader.Dump(parse(t, "plugins: [{name: a}, {name: a, config: {x: [1, 2]}}]"))
	require.NoError(t, err)
	require.Equal(t, "plugins:\n  - id: a\n    name: a\n  - id: a#2\n    name: a\n    config: {x: [1, 2]}\n", string(out))
	out, err = loader.Dump(nil)
	require.NoError(t, err)
	require.Equal(t, "plugins: []\n", string(out))
	_, err = loader.Dump([]loader.Entry{{ID: "x", Name: "a"}, {ID: "x", Name: "b"}})
	require.ErrorIs(t, err, loader.ErrDuplicateID)
}

// TestRemovingThePolicyDegradesGracefully is the graceful-degradation property on a toy seam:
// removing the deciding entry leaves the waterfall to its inner default; adding it back restores
// its decision, ahead of a decider from a later entry, without restarting that entry.
func TestRemovingThePolicyDegradesGracefully(t *testing.T) {
	l, _ := newLoader(t)
	policy := "  - {id: policy, name: decider, config: {answer: policy}}\n"
	late := "  - {id: late, name: decider, config: {answer: late}}\n"
	steps := []struct {
		name string
		src  string
		want string
	}{
		{"policy decides", "plugins:\n" + policy, "policy"},
		{"policy removed: inner default", "plugins: []\n", "default"},
		{"policy back, ahead of a later decider", "plugins:\n" + policy + late, "policy"},
		{"policy removed again: the later decider", "plugins:\n" + late, "late"},
		{"policy inserted before a running decider wins", "plugins:\n" + policy + late, "policy"},
		{"policy disabled", "plugins:\n  - {id: policy, name: decider, disabled: true, config: {answer: policy}}\n" + late, "late"},
		{"policy re-enabled", "plugins:\n" + policy + late, "policy"},
		{"policy restarted with new config keeps its place", "plugins:\n  - {id: policy, name: decider, config: {answer: policy2}}\n" + late, "policy2"},
		{"order swapped: late is first", "plugins:\n" + late + policy, "late"},
	}
	var lateFiber *kernel.Fiber
	for _, s := range steps {
		require.NoError(t, l.Apply(t.Context(), parse(t, s.src)), s.name)
		require.Equal(t, s.want, decide(t, l), s.name)
		if s.name == "policy removed again: the later decider" {
			lateFiber = l.Fiber("late")
		}
		if s.name == "policy inserted before a running decider wins" {
			require.Same(t, lateFiber, l.Fiber("late"), "the later entry was not restarted")
			kerneltest.RequireActive(t, lateFiber)
		}
	}
}

func TestApplyReloadsAnInstanceThatWasDisposedOutsideTheLoader(t *testing.T) {
	l, j := newLoader(t)
	src := "plugins: [{id: a, name: greet}]"
	require.NoError(t, l.Apply(t.Context(), parse(t, src)))
	kerneltest.RequireDispose(t, l.Fiber("a"))
	require.Equal(t, "disposed", l.Status()[0].State)
	require.Error(t, l.Audit(), "a disposed entry is not active")
	require.NoError(t, l.Apply(t.Context(), parse(t, src)))
	require.Equal(t, []string{"apply a hello", "dispose a", "apply a hello"}, j.Take())
	require.NoError(t, l.Audit())
}
