package fshistory_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/fshistory/history"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// A call of a tool that may change files runs with its actor (session, tool) and the call's lock
// budget; a call of a read-only tool publishes nothing and is left untagged (no actor, no budget).
func TestActorTagsOnlyCallsThatMayChangeFiles(t *testing.T) {
	e := newEnv(t, false, nil)
	type seen struct {
		actor  history.Actor
		budget bool
	}
	got := map[string]seen{}
	for _, ro := range []bool{true, false} {
		name := map[bool]string{true: "probe_ro", false: "probe_rw"}[ro]
		_, err := e.rt.Register(e.root, tools.Tool[struct{}, string]{Name: name, Description: "probe",
			Parameters:  []byte(`{"type":"object","properties":{},"additionalProperties":false}`),
			Annotations: tools.Annotations{ReadOnly: ro},
			Execute: func(ctx context.Context, _ struct{}, _ *tools.Exec) (string, error) {
				got[name] = seen{history.ActorOf(ctx), history.LockBudgetOf(ctx) != nil}
				return "ok", nil
			},
			Render: func(struct{}, string) []tools.Content { return []tools.Content{tools.TextContent("ok")} },
		}.Definition())
		require.NoError(t, err)
	}
	s := tools.NewSession("s1")
	e.ok(t, s, "probe_ro", args{})
	e.ok(t, s, "probe_rw", args{})
	assert.Equal(t, seen{}, got["probe_ro"])
	assert.Equal(t, "probe_rw", got["probe_rw"].actor.Tool)
	assert.Equal(t, "s1", got["probe_rw"].actor.Session)
	assert.True(t, got["probe_rw"].budget)
}
