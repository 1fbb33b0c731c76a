package mcphost

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cordon-dev/cordon/kernel"
	"github.com/cordon-dev/cordon/mcphost/internal/mcpstdio"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/tools/engine"
)

// protocolVersions are the MCP protocol versions `serve` negotiates. Under 2026-07-28 approvals are
// input requests in the call's result (see inputRound); under the older ones, elicitation requests
// sent during the call.
var protocolVersions = []string{multiRoundTrip, "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// Config configures a host. The zero value is ready to use: a server named "cordon", sessions with
// the filesystem provider's default cwd and no model, content blocks only, and approvals asked of
// the MCP client.
type Config struct {
	// Version is the server's version in its serverInfo.
	Version string
	// Cwd is the cwd header of every agent session the host opens (relative paths in tool
	// arguments resolve against it); nil: the filesystem provider's default.
	Cwd *string
	// Model is the model header of every agent session, "" for none: the expose rules and the
	// result budget keyed on the model then apply.
	Model string
	// Structured lists the tools' output schemas and sends structuredContent = the canonical value;
	// without it results carry the content blocks only (what structuredContent-first clients need).
	Structured bool
	// ClientRoots: take each connection's workspace from its client's MCP roots (roots.go). It
	// needs the server the host builds: with Server set, the embedder's server does not ask.
	ClientRoots ClientRoots
	// Approvals answers the approval prompts no MCP client can be asked (a client without
	// elicitation, or a call that did not arrive over MCP) when the host provides the approval
	// service (see New); nil: such a prompt is unavailable.
	Approvals tools.Approver
	// Server is an MCP server the host serves its tools on, for an embedder that brings its own
	// (its name, instructions and options are the embedder's; the host adds its tools and receiving
	// middleware, and a server that lists protocol versions should include the host's); nil: the
	// host builds one named "cordon", with the tools' guidance as its instructions.
	Server *mcp.Server
	// drain is how long a connection ending with its context waits for its calls (0: drainTimeout).
	drain time.Duration
}

// Host is the MCP front end: one *mcp.Server over an engine, one agent session per connection.
type Host struct {
	eng    engine.Engine
	cfg    Config
	server *mcp.Server
	states *stateBook // request states of input rounds
	roots  *rootsFollower

	mu         sync.Mutex
	conns      map[*mcp.ServerSession]*connection // what the host holds for each connection
	principals map[string]engine.Session          // sessionless requests' sessions, by principal (HTTP, 2026-07-28)
	processID  string                             // the history identity of a sessionless (stdio) connection: newProcessID

	direct atomic.Int64 // tools/calls run outside the SDK (directCalls), for the tests

	watchHTTP sync.Once // installs watchConnections (newHTTPServer)

	toolsMu sync.Mutex                        // serializes syncTools
	listed  atomic.Pointer[map[string]string] // served tool name -> its definition as JSON
	unwatch func()                            // stops following the engine's tool changes

	unapprove kernel.Disposer // withdraws the approval service New provided, or nil
}

// newHost builds the MCP server: the engine's visible tools with their schemas byte for byte,
// annotations, and the guidance text as the server instructions. MCP results never carry the
// presentation meta, and without cfg.structured not the value either, so the calls skip what is not
// sent (see sends).
func newHost(eng engine.Engine, cfg Config) *Host {
	s := engine.SendContent
	if cfg.Structured {
		s = engine.SendValue
	}
	h := &Host{eng: engine.Sending(eng, s), cfg: cfg, states: newStateBook(), processID: newProcessID(),
		conns: map[*mcp.ServerSession]*connection{}, principals: map[string]engine.Session{}, roots: newRootsFollower(cfg.ClientRoots)}
	h.server = cfg.Server
	if h.server == nil {
		opts := &mcp.ServerOptions{
			Instructions:              eng.Instructions(),
			Capabilities:              &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: true}},
			SupportedProtocolVersions: protocolVersions,
		}
		h.roots.hook(opts)
		h.server = mcp.NewServer(&mcp.Implementation{Name: "cordon", Title: "Cordon harness", Version: cfg.Version}, opts)
	}
	h.server.AddReceivingMiddleware(h.wireResults, h.exposeTools)
	if w, ok := eng.(engine.ToolWatcher); ok { // watch first: a change during the first sync is not lost
		h.unwatch = w.WatchTools(h.syncTools)
	}
	h.syncTools()
	return h
}

// syncTools makes the served tool list the engine's visible tools: a tool that went away is removed,
// a new or changed one is added (the SDK then sends notifications/tools/list_changed). The listed
// set is published after the additions and before the removals, so it never names a tool the SDK
// does not serve (directCalls relies on it).
func (h *Host) syncTools() {
	h.toolsMu.Lock()
	defer h.toolsMu.Unlock()
	was := map[string]string{}
	if p := h.listed.Load(); p != nil {
		was = *p
	}
	now := map[string]string{}
	for _, t := range h.eng.Tools() {
		b, _ := json.Marshal(t)
		now[t.Name] = string(b)
		if was[t.Name] != now[t.Name] {
			h.server.AddTool(mcpTool(t, h.cfg.Structured), h.call)
		}
	}
	h.listed.Store(&now)
	var gone []string
	for name := range was {
		if _, ok := now[name]; !ok {
			gone = append(gone, name)
		}
	}
	if len(gone) > 0 {
		h.server.RemoveTools(gone...)
	}
}

// close stops following the engine's tool changes, withdraws the approval service New provided and
// ends the principals' sessions.
func (h *Host) close() {
	if h.unwatch != nil {
		h.unwatch()
	}
	h.mu.Lock()
	unapprove, ps := h.unapprove, h.principals
	h.unapprove, h.principals = nil, map[string]engine.Session{}
	h.mu.Unlock()
	if unapprove != nil {
		_ = unapprove()
	}
	for _, s := range ps {
		s.End()
	}
}

// watchConnections is receiving middleware, installed when the host first serves HTTP
// (newHTTPServer): the first request of a connection with a session id (a Streamable HTTP session)
// starts watching it, so that its agent session ends when the transport ends the connection
// (DELETE, idle timeout, shutdown). Serve ends the connections it serves itself.
func (h *Host) watchConnections(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if ss, ok := req.GetSession().(*mcp.ServerSession); ok && ss != nil && ss.ID() != "" {
			h.mu.Lock()
			c := h.conn(ss)
			seen := c.watched
			c.watched = true
			h.mu.Unlock()
			if !seen {
				go func() {
					_ = ss.Wait()
					h.endSession(ss)
				}()
			}
		}
		return next(ctx, method, req)
	}
}

// callsInFlight counts the calls running on every connection.
func (h *Host) callsInFlight() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, c := range h.conns {
		n += len(c.cancel)
	}
	return n
}

// waitConnections waits up to d for every watched connection to have ended.
func (h *Host) waitConnections(d time.Duration) {
	for deadline := time.Now().Add(d); h.liveCount() > 0 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
}

// liveCount is the number of watched connections not yet closed.
func (h *Host) liveCount() int { return len(h.connections()) }

// connections returns the watched connections not yet closed.
func (h *Host) connections() []*mcp.ServerSession {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []*mcp.ServerSession
	for ss, c := range h.conns {
		if c.watched {
			out = append(out, ss)
		}
	}
	return out
}

// mcpTool converts a tool definition; the schemas are passed as raw JSON so they reach the client as
// written. The output schema is listed only with structured content: a client that sees one expects
// structuredContent in every result.
func mcpTool(t engine.ToolInfo, structured bool) *mcp.Tool {
	tool := &mcp.Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema}
	if structured && len(t.OutputSchema) > 0 {
		tool.OutputSchema = t.OutputSchema
	}
	ann := &mcp.ToolAnnotations{Title: t.Title, ReadOnlyHint: t.ReadOnly, OpenWorldHint: &t.OpenWorld}
	if !t.ReadOnly { // destructive and idempotent mean something only for a tool that writes
		ann.DestructiveHint = &t.Destructive
		ann.IdempotentHint = t.Idempotent
	}
	tool.Annotations = ann
	return tool
}

// serveConn serves one connection over transport until the client goes away or ctx ends, then ends
// the connection's agent session. On a stdio transport (mcpstdio) without a Direct of its own, the
// host runs the plain tools/calls itself (directCalls) once the SDK has the connection.
func (h *Host) serveConn(ctx context.Context, t mcp.Transport) error {
	var connected atomic.Pointer[mcp.ServerSession]
	if st, ok := t.(*mcpstdio.Transport); ok && st.Direct == nil {
		st.Direct = h.directCalls(&connected)
	}
	ss, err := h.server.Connect(ctx, t, nil)
	if err != nil {
		return err
	}
	connected.Store(ss)
	done := make(chan error, 1)
	go func() { done <- ss.Wait() }()
	select {
	case err = <-done:
		// The client went away. Close returns once the transport's direct calls have returned
		// (mcpstdio), so none of them can record the connection again after endSession forgets it.
		_ = ss.Close()
	case <-ctx.Done():
		// The SDK's Close waits for the calls in flight, and a call may be waiting for the client
		// (an approval elicitation the user never answers): cancel them first. A call deaf to its
		// cancellation (stuck in a system call) holds Close: it is given the drain bound, then left.
		h.cancelCalls(ss)
		go func() { _ = ss.Close() }()
		t := time.NewTimer(h.drainBound())
		select {
		case <-done:
		case <-t.C:
		}
		t.Stop()
		err = ctx.Err()
	}
	h.endSession(ss)
	if err != nil && ctx.Err() == nil && isClosedErr(err) {
		return nil // the client went away: a clean end
	}
	return err
}

// drainBound is how long the calls in flight may take to answer once serving ends.
func (h *Host) drainBound() time.Duration {
	if h.cfg.drain > 0 {
		return h.cfg.drain
	}
	return drainTimeout
}

// connection is what the host holds for one MCP connection (a *mcp.ServerSession) from its first
// request until it ends (endSession): its agent session and its calls in flight. The transport
// below (mcpstdio on stdio) keeps the wire side of a call: ids, slots, batches.
type connection struct {
	session engine.Session // opened on the first call (sessionFor); nil before
	seq     uint64
	cancel  map[uint64]context.CancelFunc // the calls in flight
	closing bool                          // the connection is ending: calls are cancelled as they start
	watched bool                          // an HTTP session whose end is watched (watchConnections)
	ended   bool                          // endSession is ending it
}

// conn returns the host's record of a connection, made on first use; h.mu is held.
func (h *Host) conn(ss *mcp.ServerSession) *connection {
	c := h.conns[ss]
	if c == nil {
		c = &connection{cancel: map[uint64]context.CancelFunc{}}
		h.conns[ss] = c
	}
	return c
}

// track registers a call's cancel function under its connection and returns its untrack.
func (h *Host) track(ss *mcp.ServerSession, cancel context.CancelFunc) (untrack func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	c := h.conn(ss)
	if c.closing {
		cancel()
		return func() {}
	}
	c.seq++
	id := c.seq
	c.cancel[id] = cancel
	return func() {
		h.mu.Lock()
		delete(c.cancel, id)
		if c.session == nil && len(c.cancel) == 0 && !c.closing && !c.watched && h.conns[ss] == c {
			delete(h.conns, ss) // a call without a connection session (a principal's) leaves nothing behind
		}
		h.mu.Unlock()
	}
}

// cancelCalls cancels the connection's calls in flight, and any that starts from now on.
func (h *Host) cancelCalls(ss *mcp.ServerSession) {
	h.mu.Lock()
	defer h.mu.Unlock()
	c := h.conn(ss)
	c.closing = true
	for _, cancel := range c.cancel {
		cancel()
	}
}

// sessionFor returns the agent session of a call: its connection's, opened on the connection's first
// call, or for an HTTP request under the sessionless protocol its principal's ("" when
// unauthenticated). The session's ID is its history identity (historyID).
func (h *Host) sessionFor(ss *mcp.ServerSession, extra *mcp.RequestExtra) engine.Session {
	principal := principalOf(extra)
	overHTTP := extra != nil && extra.Header != nil // the SDK gives an HTTP request its header
	h.mu.Lock()
	defer h.mu.Unlock()
	if overHTTP && ss != nil && usesInputRequests(ss) {
		s, ok := h.principals[principal]
		if !ok {
			s = h.open(h.historyID(ss, principal, overHTTP))
			if principal != "" {
				keepObservations(s, principal)
			}
			h.principals[principal] = s
		}
		return s
	}
	c := h.conn(ss)
	if c.session == nil {
		c.session = h.open(h.historyID(ss, principal, overHTTP))
	}
	return c.session
}

// newProcessID is the history identity of a connection whose transport has no session id (stdio):
// "stdio-" and 16 random hex digits, drawn once per Host, so another server, or this one's next
// run, never acts on this one's changes as its own (docs/history.md "Sessions").
func newProcessID() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24+)
	return "stdio-" + hex.EncodeToString(b[:])
}

// open opens an agent session with the host's cwd and model headers.
func (h *Host) open(id string) engine.Session {
	s := h.eng.OpenSession(id)
	var model *string
	if h.cfg.Model != "" {
		model = &h.cfg.Model
	}
	if h.cfg.Cwd != nil || model != nil {
		s.SetHeader(h.cfg.Cwd, model)
	}
	return s
}

// endSession ends the agent session of a connection that ended, then forgets the connection: it
// is counted live (waitConnections) until its session has ended, so a serve that waits for its
// connections returns after every session's end.
func (h *Host) endSession(ss *mcp.ServerSession) {
	h.mu.Lock()
	c := h.conns[ss]
	if c != nil {
		if c.ended {
			h.mu.Unlock()
			return
		}
		c.ended = true
	}
	h.mu.Unlock()
	h.roots.forget(ss)
	if c != nil && c.session != nil {
		c.session.End()
	}
	h.mu.Lock()
	delete(h.conns, ss)
	h.mu.Unlock()
}

// call is the tools/call handler: every outcome, failure included, is a CallToolResult.
func (h *Host) call(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	args := req.Params.Arguments
	if len(args) == 0 || string(args) == "null" { // no arguments, as `run` reads "args": null
		args = json.RawMessage("{}")
	}
	principal := principalOf(req.Extra)
	sess := h.sessionFor(req.Session, req.Extra)
	recordClient(sess, req.ClientInfo())
	h.roots.apply(ctx, req.Session, sess)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer h.track(req.Session, cancel)()
	if usesInputRequests(req.Session) {
		round := newInputRound(h.states, roundOwner(req.Session, principal), req.Params.Name, args, req.Params.InputResponses, req.Params.RequestState, canElicit(req.Session))
		o := h.eng.Call(tools.WithApprovalChannel(withInputRound(ctx, round), true), sess, req.Params.Name, args)
		if round.need != nil {
			return &mcp.CallToolResult{InputRequests: round.need, RequestState: round.state()}, nil
		}
		return toCallToolResult(o), nil
	}
	o := h.eng.Call(tools.WithApprovalChannel(withElicitor(ctx, req.Session), canElicit(req.Session)), sess, req.Params.Name, args)
	return toCallToolResult(o), nil
}

// toCallToolResult maps a tool result onto MCP, the one conversion a result takes: content blocks,
// isError, structuredContent (the canonical value, on success, when the result carries one: only
// with --structured-content) and `_meta.error = {name, code}` on a coded failure.
func toCallToolResult(o tools.Result) *mcp.CallToolResult {
	res := &mcp.CallToolResult{IsError: o.IsError, Content: make([]mcp.Content, 0, len(o.Content))}
	for _, b := range o.Content {
		switch b.Type {
		case "image":
			data, err := base64.StdEncoding.DecodeString(b.Data)
			if err != nil {
				res.Content = append(res.Content, &mcp.TextContent{Text: "[image data unavailable]"})
				continue
			}
			res.Content = append(res.Content, &mcp.ImageContent{Data: data, MIMEType: b.MediaType})
		default:
			res.Content = append(res.Content, &mcp.TextContent{Text: b.Text})
		}
	}
	if !o.IsError && o.Value != nil {
		res.StructuredContent = o.Value
	}
	if o.IsError && o.Error.HasCode() {
		res.Meta = mcp.Meta{"error": metaError{Name: o.Error.Name, Code: o.Error.Code}}
	}
	return res
}

// metaError is `_meta.error`, keys in the order name, code.
type metaError struct {
	Name string `json:"name"`
	Code string `json:"code"`
}

// recordClient records in sess the clientInfo of an MCP call (per request under 2026-07-28, else
// the connection's initialize), which sizes the tools' result budget (docs/host.md "What each
// client shows the model"). Sessions of other engines are left alone.
func recordClient(sess engine.Session, info *mcp.Implementation) {
	if cr, ok := sess.(engine.ClientRecorder); ok && info != nil {
		cr.SetClient(info.Name, info.Version)
	}
}
