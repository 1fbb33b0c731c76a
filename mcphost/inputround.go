package mcphost

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cordon-dev/cordon/plugins/tools"
)

// The 2026-07-28 protocol forbids server-initiated requests during a call: an approval is asked by
// answering the call with an input request (CallToolResult.InputRequests) and running it again when
// the client retries with the answer (CallToolParams.InputResponses and the RequestState echoed).
// Nothing runs before an approval but checks, so a call that stops at one has done nothing; the
// retry runs it from the start and gets the answers of earlier rounds from the state.

// multiRoundTrip is the first protocol version whose approvals are input requests.
const multiRoundTrip = "2026-07-28"

// usesInputRequests reports whether a connection negotiated a version with input requests.
func usesInputRequests(ss *mcp.ServerSession) bool {
	p := ss.InitializeParams()
	return p != nil && p.ProtocolVersion >= multiRoundTrip
}

// errInputRequired ends a call that stopped at a question the client must answer first.
var errInputRequired = errors.New("the call needs the user's answer first")

type inputRoundKey struct{}

// inputRound is one round of a call on a multi-round-trip connection: the answers it brings (from
// the signed state of earlier rounds and the client's input responses) and the question it stops at.
type inputRound struct {
	states    *stateBook
	owner     string          // who may answer, which the state is signed with (roundOwner),
	tool      string          // with the call's identity: tool name
	args      json.RawMessage // and arguments
	canElicit bool
	responses mcp.InputResponseMap

	prior   roundState // what the verified state says was asked and answered
	asked   []string   // the questions of this round, in order
	answers []tools.ApprovalOutcome
	need    mcp.InputRequestMap // the question the call stopped at, if any
}

// roundState is the payload of RequestState: the questions asked so far and the answers to all but
// the last (which the client's input response carries).
type roundState struct {
	Asked   []string                `json:"q"`
	Answers []tools.ApprovalOutcome `json:"a"`
	Nonce   string                  `json:"n"` // one answer per state: a replayed state is asked again
	Issued  int64                   `json:"t"` // unix seconds; a state expires after stateTTL
}

// stateTTL is how long a question waits for its answer.
const stateTTL = 10 * time.Minute

// stateBook is a server's key for request states and the states whose answers were used.
type stateBook struct {
	key  []byte
	mu   sync.Mutex
	used map[string]time.Time // nonce -> expiry
}

// newStateBook returns a book with a fresh key (one per server process: a restart makes a pending
// question be asked again).
func newStateBook() *stateBook {
	k := make([]byte, 32)
	_, _ = rand.Read(k) // crypto/rand.Read never fails
	return &stateBook{key: k, used: map[string]time.Time{}}
}

// use records a state's answer as used; false when it already was.
func (b *stateBook) use(nonce string, now time.Time) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	for n, exp := range b.used {
		if now.After(exp) {
			delete(b.used, n)
		}
	}
	if _, ok := b.used[nonce]; ok {
		return false
	}
	b.used[nonce] = now.Add(stateTTL)
	return true
}

// newInputRound starts a round of a call (tool and arguments) by owner (roundOwner) that brings the
// client's input responses and the request state it echoed; canElicit says whether the client can
// be asked. A state issued to another owner, or for another call, counts for nothing.
func newInputRound(book *stateBook, owner, tool string, args json.RawMessage, responses mcp.InputResponseMap, state string, canElicit bool) *inputRound {
	r := &inputRound{states: book, owner: owner, tool: tool, args: args, responses: responses, canElicit: canElicit}
	if st, ok := r.verify(state); ok {
		r.prior = st
	}
	return r
}

// roundOwner is whom the request states of a call are issued to: its principal (the token's name,
// "" without authentication) and its connection's session id ("" under the sessionless protocol,
// where the principal is the agent). One principal cannot answer another's approval with its state.
func roundOwner(ss *mcp.ServerSession, principal string) string {
	return roundOwnerOf(principal, ss.ID())
}

// roundOwnerOf is roundOwner by principal and session id.
func roundOwnerOf(principal, session string) string {
	return strconv.Quote(principal) + " " + strconv.Quote(session)
}

// canElicit reports whether a connection's client declared the elicitation capability.
func canElicit(ss *mcp.ServerSession) bool {
	p := ss.InitializeParams()
	return p != nil && p.Capabilities != nil && p.Capabilities.Elicitation != nil
}

func withInputRound(ctx context.Context, r *inputRound) context.Context {
	return context.WithValue(ctx, inputRoundKey{}, r)
}

func inputRoundFrom(ctx context.Context) *inputRound {
	r, _ := ctx.Value(inputRoundKey{}).(*inputRound)
	return r
}

// inputKey names the n-th question (0-based) of a call.
func inputKey(n int) string { return "approval-" + strconv.Itoa(n+1) }

// ask answers the call's next question from this round's answers, or records it as the input the
// call needs and stops the call (errInputRequired).
func (r *inputRound) ask(req tools.ApprovalRequest) (tools.ApprovalOutcome, error) {
	n, msg := len(r.asked), ApprovalPrompt(req)
	r.asked = append(r.asked, msg)
	if n < len(r.prior.Asked) && r.prior.Asked[n] == msg {
		if n < len(r.prior.Answers) {
			r.answers = append(r.answers, r.prior.Answers[n])
			return r.prior.Answers[n], nil
		}
		if res, ok := r.responses[inputKey(n)].(*mcp.ElicitResult); ok && n == len(r.prior.Answers) && r.states.use(r.prior.Nonce, time.Now()) {
			out := elicitOutcome(res)
			r.answers = append(r.answers, out)
			return out, nil
		}
	}
	if !r.canElicit {
		r.answers = append(r.answers, tools.Unavailable)
		return tools.Unavailable, nil
	}
	r.need = mcp.InputRequestMap{inputKey(n): &mcp.ElicitParams{Message: msg, RequestedSchema: approvalSchema}}
	return "", errInputRequired
}

// state is the signed RequestState of a round that stopped at a question.
func (r *inputRound) state() string {
	var nonce [16]byte
	_, _ = rand.Read(nonce[:])
	payload, _ := json.Marshal(roundState{Asked: r.asked, Answers: r.answers,
		Nonce: b64(nonce[:]), Issued: time.Now().Unix()})
	enc := b64(payload)
	return enc + "." + b64(r.sign(enc))
}

// verify checks a RequestState against this call and returns its payload.
func (r *inputRound) verify(state string) (roundState, bool) {
	var st roundState
	enc, sig, ok := strings.Cut(state, ".")
	if !ok {
		return st, false
	}
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil || !hmac.Equal(got, r.sign(enc)) {
		return st, false
	}
	payload, err := base64.RawURLEncoding.DecodeString(enc)
	if err != nil || json.Unmarshal(payload, &st) != nil || len(st.Answers) >= len(st.Asked)+1 ||
		time.Since(time.Unix(st.Issued, 0)) > stateTTL {
		return roundState{}, false
	}
	return st, true
}

func (r *inputRound) sign(enc string) []byte {
	m := hmac.New(sha256.New, r.states.key)
	for _, field := range [][]byte{[]byte(r.owner), []byte(r.tool), r.args, []byte(enc)} {
		m.Write(binary.BigEndian.AppendUint64(nil, uint64(len(field)))) // length-prefixed: no field bleeds into the next
		m.Write(field)
	}
	return m.Sum(nil)
}

// elicitOutcome maps the client's answer to the approval form: accept with allow-once grants,
// any other accept or a decline rejects, anything else cancels.
func elicitOutcome(res *mcp.ElicitResult) tools.ApprovalOutcome {
	switch res.Action {
	case "accept":
		if d, _ := res.Content["decision"].(string); d == approveAllowOnce {
			return tools.AllowedOnce
		}
		return tools.Rejected
	case "decline":
		return tools.Rejected
	}
	return tools.Cancelled
}

func b64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }
