package fspolicy_test

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/fs"
)

// durableActor is an actor whose owner outlives the process.
type durableActor struct {
	actor
	name string
}

func (d durableActor) DurableOwner() string { return d.name }

type memoryObservations struct {
	mu sync.Mutex
	m  map[string]fs.Observation
}

func (o *memoryObservations) Observation(owner string, key fs.TargetKey) (fs.Observation, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	obs, ok := o.m[owner+"|"+string(key)]
	return obs, ok
}

func (o *memoryObservations) Observe(owner string, key fs.TargetKey, obs fs.Observation) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.m[owner+"|"+string(key)] = obs
}

// With a durable observation store composed, an actor with a durable owner finds what another
// session (a process before a restart) of the same owner observed; others do not.
func TestDurableOwnersFindKeptObservations(t *testing.T) {
	h := newHarness(t)
	h.load(t)
	store := &memoryObservations{m: map[string]fs.Observation{}}
	_, err := fs.DurableObservationsService.Provide(h.kc, store)
	require.NoError(t, err)

	before := durableActor{actor{&session{"before"}}, "principal:alice"}
	h.observe(t, before, fs.Present("v1"))
	obs, ok := store.Observation("principal:alice", target.Key)
	require.True(t, ok)
	assert.Equal(t, fs.Present("v1"), obs)

	after := durableActor{actor{&session{"after"}}, "principal:alice"}
	got, _ := h.writeIntent(t, after)
	assert.Equal(t, fs.ReplaceIfVersion("v1"), got)
	guard, err, _ := h.editIntent(t, after)
	require.NoError(t, err)
	assert.Equal(t, &fs.EditGuard{Version: "v1"}, guard)

	for _, a := range []any{durableActor{actor{&session{"bob"}}, "principal:bob"}, durableActor{actor{&session{"none"}}, ""}, actor{&session{"plain"}}} {
		got, _ := h.writeIntent(t, a)
		assert.Equal(t, fs.CreateIfAbsent(), got)
	}
}
