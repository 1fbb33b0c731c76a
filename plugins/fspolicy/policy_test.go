package fspolicy_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fspolicy"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// session is a test owner: distinct pointers are distinct owners.
type session struct{ id string }

// actor carries an owner the way a tool execution context does.
type actor struct{ s *session }

func (a actor) SessionKey() any {
	if a.s == nil {
		return nil
	}
	return a.s
}

var target = fs.Target{Key: "/real/a.txt", DisplayPath: "/ws/a.txt"}

type harness struct {
	k  *kernel.Kernel
	kc *kernel.Context
}

func newHarness(t *testing.T) *harness {
	k := kernel.New(kernel.WithLogger(zaptest.NewLogger(t)))
	t.Cleanup(func() { _ = k.Close(context.Background()) })
	return &harness{k: k, kc: k.Root()}
}

func (h *harness) load(t *testing.T) *kernel.Fiber {
	t.Helper()
	f, err := h.kc.Load(fspolicy.Plugin, nil)
	require.NoError(t, err)
	require.Equal(t, kernel.Active, f.State(), "mounts immediately in an empty context: %v", f.Err())
	return f
}

// writeIntent runs fs/write-intent with the tool's default (nil = unconditional).
func (h *harness) writeIntent(t *testing.T, a any) (*fs.WriteIntent, bool) {
	t.Helper()
	innerCalled := false
	got, err := fs.WriteIntentEvent.Run(context.Background(), h.kc, fs.IntentArgs{Target: target, Actor: a},
		func() (*fs.WriteIntent, error) { innerCalled = true; return nil, nil })
	require.NoError(t, err, "the write decider never fails")
	return got, innerCalled
}

func (h *harness) editIntent(t *testing.T, a any) (*fs.EditGuard, error, bool) {
	t.Helper()
	innerCalled := false
	got, err := fs.EditIntentEvent.Run(context.Background(), h.kc, fs.IntentArgs{Target: target, Actor: a},
		func() (*fs.EditGuard, error) { innerCalled = true; return nil, nil })
	return got, err, innerCalled
}

func (h *harness) observe(t *testing.T, a any, obs fs.Observation) {
	t.Helper()
	require.NoError(t, fs.ObservedEvent.Emit(context.Background(), h.kc, fs.ObservedArgs{Target: target, Observation: obs, Actor: a}))
}

func TestDecisionTables(t *testing.T) {
	h := newHarness(t)
	h.load(t)
	unseen := actor{&session{"unseen"}}
	absent := actor{&session{"absent"}}
	present := actor{&session{"present"}}
	h.observe(t, absent, fs.Absent())
	h.observe(t, present, fs.Present("v1"))

	cases := []struct {
		name      string
		actor     any
		write     *fs.WriteIntent
		edit      *fs.EditGuard
		editCode  fs.Code
		editError string
	}{
		{"no actor", nil, fs.CreateIfAbsent(), nil, fs.CodeNotObserved, `edit requires reading "/ws/a.txt" first`},
		{"actor without owner method", struct{}{}, fs.CreateIfAbsent(), nil, fs.CodeNotObserved, `edit requires reading "/ws/a.txt" first`},
		{"owner method returning nil", actor{}, fs.CreateIfAbsent(), nil, fs.CodeNotObserved, `edit requires reading "/ws/a.txt" first`},
		{"typed nil tools exec", (*tools.Exec)(nil), fs.CreateIfAbsent(), nil, fs.CodeNotObserved, `edit requires reading "/ws/a.txt" first`},
		{"tools exec without session", &tools.Exec{}, fs.CreateIfAbsent(), nil, fs.CodeNotObserved, `edit requires reading "/ws/a.txt" first`},
		{"unseen", unseen, fs.CreateIfAbsent(), nil, fs.CodeNotObserved, `edit requires reading "/ws/a.txt" first`},
		{"absent", absent, fs.CreateIfAbsent(), nil, fs.CodeNotFound, `cannot edit "/ws/a.txt": not found`},
		{"present", present, fs.ReplaceIfVersion("v1"), &fs.EditGuard{Version: "v1"}, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, inner := h.writeIntent(t, c.actor)
			assert.Equal(t, c.write, w)
			assert.False(t, inner, "the policy never calls next")

			g, err, inner := h.editIntent(t, c.actor)
			assert.False(t, inner, "the policy never calls next")
			if c.editCode == "" {
				require.NoError(t, err)
				assert.Equal(t, c.edit, g)
				return
			}
			assert.Nil(t, g)
			var fe *fs.Error
			require.ErrorAs(t, err, &fe)
			assert.Equal(t, c.editCode, fe.Kind)
			assert.Equal(t, c.editError, fe.Message)
		})
	}
}

func TestLastObservationWinsWithoutOrdering(t *testing.T) {
	h := newHarness(t)
	h.load(t)
	a := actor{&session{"a"}}
	h.observe(t, a, fs.Present("v2"))
	h.observe(t, a, fs.Present("v1")) // older, emitted later: accepted
	g, err, _ := h.editIntent(t, a)
	require.NoError(t, err)
	assert.Equal(t, &fs.EditGuard{Version: "v1"}, g)

	h.observe(t, a, fs.Absent())
	w, _ := h.writeIntent(t, a)
	assert.Equal(t, fs.CreateIfAbsent(), w, "absent after present: guarded create")
	_, err, _ = h.editIntent(t, a)
	assert.ErrorIs(t, err, fs.ErrNotFound)

	h.observe(t, a, fs.Present("v3"))
	w, _ = h.writeIntent(t, a)
	assert.Equal(t, fs.ReplaceIfVersion("v3"), w)
}

func TestOwnersAreIsolatedByIdentity(t *testing.T) {
	h := newHarness(t)
	h.load(t)
	a := actor{&session{"same-id"}}
	b := actor{&session{"same-id"}} // same description, different object
	h.observe(t, a, fs.Present("v1"))

	w, _ := h.writeIntent(t, b)
	assert.Equal(t, fs.CreateIfAbsent(), w)
	_, err, _ := h.editIntent(t, b)
	assert.ErrorIs(t, err, fs.ErrNotObserved)

	h.observe(t, nil, fs.Present("v9")) // no owner: records nothing
	_, err, _ = h.editIntent(t, nil)
	assert.ErrorIs(t, err, fs.ErrNotObserved)

	other := fs.Target{Key: "/real/b.txt", DisplayPath: "/ws/b.txt"}
	_, err = fs.EditIntentEvent.Run(context.Background(), h.kc, fs.IntentArgs{Target: other, Actor: a},
		func() (*fs.EditGuard, error) { return nil, nil })
	assert.ErrorIs(t, err, fs.ErrNotObserved, "observations are per target key")
}

func TestToolsExecOwnerIsTheSession(t *testing.T) {
	h := newHarness(t)
	h.load(t)
	s := tools.NewSession("s1")
	first := &tools.Exec{CallID: "1", Session: s}
	second := &tools.Exec{CallID: "2", Session: s}
	h.observe(t, first, fs.Present("v1"))
	g, err, _ := h.editIntent(t, second)
	require.NoError(t, err, "two calls of one session share the owner")
	assert.Equal(t, &fs.EditGuard{Version: "v1"}, g)

	_, err, _ = h.editIntent(t, &tools.Exec{Session: tools.NewSession("s1")})
	assert.ErrorIs(t, err, fs.ErrNotObserved, "another session object with the same id is another owner")
}

func TestLaterDeciderIsNeverReached(t *testing.T) {
	h := newHarness(t)
	h.load(t)
	later, err := h.kc.Load(kernel.Define[struct{}]("later-decider", func(kc *kernel.Context, _ struct{}) error {
		if _, err := fs.WriteIntentEvent.Decide(kc, func(context.Context, fs.IntentArgs) (*fs.WriteIntent, error) {
			return fs.ReplaceIfVersion("later"), nil
		}); err != nil {
			return err
		}
		_, err := fs.EditIntentEvent.Decide(kc, func(context.Context, fs.IntentArgs) (*fs.EditGuard, error) {
			return &fs.EditGuard{Version: "later"}, nil
		})
		return err
	}), nil)
	require.NoError(t, err)
	require.Equal(t, kernel.Active, later.State(), "%v", later.Err())

	w, _ := h.writeIntent(t, actor{&session{"x"}})
	assert.Equal(t, fs.CreateIfAbsent(), w)
	_, err, _ = h.editIntent(t, actor{&session{"x"}})
	assert.ErrorIs(t, err, fs.ErrNotObserved)
}

func TestAbsenceOfPolicyFallsThroughToDefault(t *testing.T) {
	h := newHarness(t)
	w, inner := h.writeIntent(t, actor{&session{"a"}})
	assert.True(t, inner)
	assert.Nil(t, w, "no listener: unconditional write")
	g, err, inner := h.editIntent(t, actor{&session{"a"}})
	require.NoError(t, err)
	assert.True(t, inner)
	assert.Nil(t, g, "no listener: unconditional edit")
	h.observe(t, actor{&session{"a"}}, fs.Present("v1")) // no listener: nothing recorded, no error
}

func TestDisposeDropsStateAndListeners(t *testing.T) {
	h := newHarness(t)
	f := h.load(t)
	a := actor{&session{"a"}}
	h.observe(t, a, fs.Present("v1"))
	g, err, _ := h.editIntent(t, a)
	require.NoError(t, err)
	require.Equal(t, &fs.EditGuard{Version: "v1"}, g)

	require.NoError(t, f.Dispose())
	w, inner := h.writeIntent(t, a)
	assert.True(t, inner, "after disposal the default runs")
	assert.Nil(t, w)
	assert.Zero(t, fs.ObservedEvent.Listeners(h.kc))

	h.load(t)
	_, err, _ = h.editIntent(t, a)
	assert.ErrorIs(t, err, fs.ErrNotObserved, "a fresh instance starts empty even for the same owner")
}

func TestEndSession(t *testing.T) {
	h := newHarness(t)
	kc := h.kc
	p, err := fspolicy.Install(kc)
	require.NoError(t, err)

	s1, s2 := tools.NewSession("s1"), tools.NewSession("s2")
	h.observe(t, &tools.Exec{Session: s1}, fs.Present("v1"))
	h.observe(t, &tools.Exec{Session: s2}, fs.Present("v2"))
	require.Equal(t, 2, p.Owners())

	tools.SessionEnded.EmitContained(context.Background(), kc, s1)
	assert.Equal(t, 1, p.Owners(), "tools/session-ended drops the session's entries")
	_, err, _ = h.editIntent(t, &tools.Exec{Session: s1})
	assert.ErrorIs(t, err, fs.ErrNotObserved)

	p.EndSession(s2)
	assert.Zero(t, p.Owners())
	p.EndSession([]int{1}) // a non-comparable key owns nothing and does not panic
	p.EndSession(nil)
}

func TestRecordAndReset(t *testing.T) {
	p := fspolicy.New()
	a := actor{&session{"a"}}
	p.Record(a, "/k", fs.Present("v"))
	p.Record(nil, "/k", fs.Present("v"))
	p.Record(sliceOwner{}, "/k", fs.Present("v")) // non-comparable key: no owner
	p.Record(panicOwner{}, "/k", fs.Present("v")) // panicking SessionKey: no owner
	assert.Equal(t, 1, p.Owners())
	p.Reset()
	assert.Zero(t, p.Owners())
}

type sliceOwner struct{}

func (sliceOwner) SessionKey() any { return []int{1} }

type panicOwner struct{}

func (panicOwner) SessionKey() any { panic(errors.New("boom")) }

func TestConcurrentOwners(t *testing.T) {
	h := newHarness(t)
	h.load(t)
	done := make(chan struct{})
	for i := 0; i < 8; i++ {
		go func() {
			defer func() { done <- struct{}{} }()
			a := actor{&session{"c"}}
			for j := 0; j < 200; j++ {
				_ = fs.ObservedEvent.Emit(context.Background(), h.kc, fs.ObservedArgs{Target: target, Observation: fs.Present("v"), Actor: a})
				g, err := fs.EditIntentEvent.Run(context.Background(), h.kc, fs.IntentArgs{Target: target, Actor: a},
					func() (*fs.EditGuard, error) { return nil, nil })
				if err != nil || g == nil || g.Version != "v" {
					t.Errorf("owner lost its own observation: %v %v", g, err)
					return
				}
			}
		}()
	}
	for i := 0; i < 8; i++ {
		<-done
	}
}

// Reference: "registers no service API (it is a plugin, not ctx.fsPolicy)"
// and "mounts with no inject": in an empty kernel it mounts, provides no fs
// service and registers exactly one decider per intent event and one
// fs/observed recorder.
func TestRegistersListenersOnly(t *testing.T) {
	h := newHarness(t)
	h.load(t)
	_, ok := fs.Service.Get(h.kc)
	assert.False(t, ok, "the policy is not a filesystem service")
	assert.Equal(t, 1, fs.WriteIntentEvent.Listeners(h.kc))
	assert.Equal(t, 1, fs.EditIntentEvent.Listeners(h.kc))
	assert.Equal(t, 1, fs.ObservedEvent.Listeners(h.kc))
	assert.Equal(t, "fs-observation-policy", fspolicy.ID)
}
