package invariant_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/plugins/fs"
	"github.com/cordon-dev/cordon/plugins/fs/invariant"
)

func invariantKernel(t *testing.T) *kernel.Context {
	k := kernel.New(kernel.WithLogger(zaptest.NewLogger(t)))
	t.Cleanup(func() { _ = k.Close(context.Background()) })
	f, err := k.Root().Load(invariant.Plugin, nil)
	require.NoError(t, err)
	require.Equal(t, kernel.Active, f.State(), "%v", f.Err())
	return k.Root()
}

// Accepts decision and observation events with
// usable identities.
func TestInvariantAcceptsUsableEvents(t *testing.T) {
	kc := invariantKernel(t)
	ctx := context.Background()
	tg := fs.Target{Key: "file:1", DisplayPath: "file.txt"}
	w, err := fs.WriteIntentEvent.Run(ctx, kc, fs.IntentArgs{Target: tg}, func() (*fs.WriteIntent, error) { return nil, nil })
	require.NoError(t, err)
	assert.Nil(t, w, "the check passes through to the default")
	g, err := fs.EditIntentEvent.Run(ctx, kc, fs.IntentArgs{Target: tg}, func() (*fs.EditGuard, error) { return nil, nil })
	require.NoError(t, err)
	assert.Nil(t, g)
	require.NoError(t, fs.ObservedEvent.Emit(ctx, kc, fs.ObservedArgs{Target: tg, Observation: fs.Present("v1")}))
	require.NoError(t, fs.ObservedEvent.Emit(ctx, kc, fs.ObservedArgs{Target: tg, Observation: fs.Absent()}))
}

// Rejects empty target and version identities.
func TestInvariantRejectsEmptyIdentities(t *testing.T) {
	kc := invariantKernel(t)
	ctx := context.Background()
	tg := fs.Target{Key: "file:1", DisplayPath: "file.txt"}
	cases := []struct {
		args fs.ObservedArgs
		msg  string
	}{
		{fs.ObservedArgs{Target: fs.Target{DisplayPath: "file.txt"}, Observation: fs.Present("v1")}, "filesystem event targetKey must be non-empty"},
		{fs.ObservedArgs{Target: fs.Target{Key: "file:1"}, Observation: fs.Present("v1")}, "filesystem event displayPath must be non-empty"},
		{fs.ObservedArgs{Target: tg, Observation: fs.Present("")}, "fs/observed present version must be non-empty"},
		{fs.ObservedArgs{Target: tg, Observation: fs.Observation{Kind: "unknown"}}, "fs/observed kind must be present or absent"},
	}
	for _, c := range cases {
		err := fs.ObservedEvent.Emit(ctx, kc, c.args)
		require.ErrorIs(t, err, invariant.Err, c.msg)
		assert.ErrorContains(t, err, c.msg)
		assert.Equal(t, c.msg, invariant.CheckObserved(c.args).Error())
	}
	bad := fs.IntentArgs{Target: fs.Target{DisplayPath: "file.txt"}}
	_, err := fs.WriteIntentEvent.Run(ctx, kc, bad, func() (*fs.WriteIntent, error) { return fs.CreateIfAbsent(), nil })
	require.ErrorIs(t, err, invariant.Err)
	_, err = fs.EditIntentEvent.Run(ctx, kc, fs.IntentArgs{Target: fs.Target{Key: "k"}}, func() (*fs.EditGuard, error) { return nil, nil })
	require.EqualError(t, err, "filesystem event displayPath must be non-empty")
}

// The checks run ahead of a decider loaded before them (Prepend), so a
// policy that never calls next cannot hide a malformed payload.
func TestInvariantRunsBeforeAnEarlierDecider(t *testing.T) {
	k := kernel.New(kernel.WithLogger(zaptest.NewLogger(t)))
	t.Cleanup(func() { _ = k.Close(context.Background()) })
	decider := kernel.Define[struct{}]("decider", func(kc *kernel.Context, _ struct{}) error {
		_, err := fs.WriteIntentEvent.Decide(kc, func(context.Context, fs.IntentArgs) (*fs.WriteIntent, error) {
			return fs.CreateIfAbsent(), nil
		})
		return err
	})
	_, err := k.Root().Load(decider, nil)
	require.NoError(t, err)
	_, err = k.Root().Load(invariant.Plugin, nil)
	require.NoError(t, err)
	_, err = fs.WriteIntentEvent.Run(context.Background(), k.Root(), fs.IntentArgs{}, nil)
	require.EqualError(t, err, "filesystem event targetKey must be non-empty")
	w, err := fs.WriteIntentEvent.Run(context.Background(), k.Root(), fs.IntentArgs{Target: fs.Target{Key: "k", DisplayPath: "d"}}, nil)
	require.NoError(t, err)
	assert.Equal(t, fs.CreateIfAbsent(), w, "a valid payload reaches the decider")
}
