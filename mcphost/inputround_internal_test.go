package mcphost

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/plugins/tools"
)

var (
	askA = tools.ApprovalRequest{ToolName: "write", Reason: "first question"}
	askB = tools.ApprovalRequest{ToolName: "write", Reason: "second question"}
)

func answer(action, decision string) *mcp.ElicitResult {
	r := &mcp.ElicitResult{Action: action}
	if decision != "" {
		r.Content = map[string]any{"decision": decision}
	}
	return r
}

// A call with two questions takes three rounds; each retry carries the earlier answers in the
// state and the newest in the input responses.
func TestInputRoundsCarryEarlierAnswers(t *testing.T) {
	book := newStateBook()
	args := json.RawMessage(`{"a":1}`)

	r1 := newInputRound(book, "alice", "write", args, nil, "", true)
	_, err := r1.ask(askA)
	require.ErrorIs(t, err, errInputRequired)
	require.Contains(t, r1.need, "approval-1")

	r2 := newInputRound(book, "alice", "write", args, mcp.InputResponseMap{"approval-1": answer("accept", "allow-once")}, r1.state(), true)
	out, err := r2.ask(askA)
	require.NoError(t, err)
	assert.Equal(t, tools.AllowedOnce, out)
	_, err = r2.ask(askB)
	require.ErrorIs(t, err, errInputRequired)
	require.Contains(t, r2.need, "approval-2")

	r3 := newInputRound(book, "alice", "write", args, mcp.InputResponseMap{"approval-2": answer("decline", "")}, r2.state(), true)
	out, err = r3.ask(askA)
	require.NoError(t, err)
	assert.Equal(t, tools.AllowedOnce, out, "the first answer comes from the state")
	out, err = r3.ask(askB)
	require.NoError(t, err)
	assert.Equal(t, tools.Rejected, out)
}

// An answer counts only for the question it was given to, within stateTTL, once.
func TestInputRoundRefusesMismatchedExpiredAndReplayedStates(t *testing.T) {
	book := newStateBook()
	args := json.RawMessage(`{}`)
	grant := mcp.InputResponseMap{"approval-1": answer("accept", "allow-once")}
	r := newInputRound(book, "alice", "write", args, nil, "", true)
	_, _ = r.ask(askA)
	state := r.state()

	other := newInputRound(book, "alice", "write", args, grant, state, true)
	_, err := other.ask(askB)
	assert.ErrorIs(t, err, errInputRequired, "an answer to another question is asked again")

	payload, _ := json.Marshal(roundState{Asked: []string{ApprovalPrompt(askA)}, Nonce: "n",
		Issued: time.Now().Add(-stateTTL - time.Minute).Unix()})
	expired := encodeState(r, payload)
	late := newInputRound(book, "alice", "write", args, grant, expired, true)
	_, err = late.ask(askA)
	assert.ErrorIs(t, err, errInputRequired, "an expired state is asked again")

	once := newInputRound(book, "alice", "write", args, grant, state, true)
	out, err := once.ask(askA)
	require.NoError(t, err)
	assert.Equal(t, tools.AllowedOnce, out)
	replay := newInputRound(book, "alice", "write", args, grant, state, true)
	_, err = replay.ask(askA)
	assert.ErrorIs(t, err, errInputRequired, "a used state is asked again")

	none := newInputRound(book, "alice", "write", args, nil, "", false)
	out, err = none.ask(askA)
	require.NoError(t, err)
	assert.Equal(t, tools.Unavailable, out, "a client that cannot be asked")
}

// encodeState signs payload as r's state.
func encodeState(r *inputRound, payload []byte) string {
	enc := b64(payload)
	return enc + "." + b64(r.sign(enc))
}

// A state is its owner's: another owner's answer with it is asked again and does not use it up;
// its owner's answer still counts.
func TestInputRoundStateIsItsOwners(t *testing.T) {
	book := newStateBook()
	args := json.RawMessage(`{}`)
	grant := mcp.InputResponseMap{"approval-1": answer("accept", "allow-once")}
	r := newInputRound(book, roundOwnerOf("alice", ""), "write", args, nil, "", true)
	_, _ = r.ask(askA)
	state := r.state()

	for _, owner := range []string{roundOwnerOf("bob", ""), roundOwnerOf("alice", "s2"), roundOwnerOf("", "")} {
		other := newInputRound(book, owner, "write", args, grant, state, true)
		_, err := other.ask(askA)
		assert.ErrorIs(t, err, errInputRequired, "%s is asked again", owner)
	}
	own := newInputRound(book, roundOwnerOf("alice", ""), "write", args, grant, state, true)
	out, err := own.ask(askA)
	require.NoError(t, err)
	assert.Equal(t, tools.AllowedOnce, out)
}
