package mcphost

import (
	"bytes"
	"crypto/rand"
	"encoding/base32"
	"io"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/cordon-dev/cordon/internal/jsonscan"
)

// httpIDs makes the SDK's streamable handler send every id naming a client request back as the
// client wrote it (the SDK decodes numeric ids into an int64, and re-encodes strings), and keeps
// cancelled calls unanswered (docs/http.md, "Ids and cancellation"). In a POST body each call's id,
// and its _meta progressToken, is replaced by a surrogate: a JSON string unique in the process,
// which the SDK carries unchanged wherever it puts it (the response's id, a subscription id, a
// progress notification). What the handler writes on that POST's response goes out with each
// surrogate replaced by the client's text (idWriter). Per session, the calls in flight are known
// by their ids as sent: a call reusing one is refused, and notifications/cancelled is given the
// call's surrogate and marks the call, whose messages are then not sent. Everything held lives as
// long as the POSTs in flight, whose bodies are bounded (bodyBudget).
type httpIDs struct {
	prefix []byte // `"~` and the process's nonce: how every surrogate's JSON text begins
	seq    atomic.Uint64

	mu       sync.Mutex
	sessions map[idScope]*idSession
}

// idScope is a session as its client names it: the principal and the Mcp-Session-Id.
type idScope struct{ principal, session string }

// idSession is a session's calls in flight, by the idKey of their ids, and the POSTs holding them.
type idSession struct {
	calls map[string]*idCall
	posts int
}

// idCall is a client call in flight.
type idCall struct {
	id        []byte // as the client wrote it
	key       string
	token     []byte // its id's surrogate
	cancelled atomic.Bool
}

// idRef is what one surrogate stands for: the client's JSON text, in the call it belongs to.
type idRef struct {
	raw  []byte
	call *idCall
}

// idPost is one POST's surrogates: refs[i] is the surrogate numbered base+i.
type idPost struct {
	ids   *httpIDs
	base  uint64
	refs  []idRef
	calls []*idCall
	scope idScope // zero: the POST has no session
	sess  *idSession
}

func newHTTPIDs() *httpIDs {
	var nonce [8]byte
	_, _ = rand.Read(nonce[:]) // crypto/rand.Read never fails
	enc := base32.HexEncoding.WithPadding(base32.NoPadding)
	return &httpIDs{prefix: []byte(`"~` + enc.EncodeToString(nonce[:]) + `.`), sessions: map[idScope]*idSession{}}
}

// inFlight is the refusal of a call whose id is that of a call still in flight in its session.
const inFlight = "invalid request: a call with this id is still in flight"

// idEdit replaces body[s:e] with the surrogate numbered ref, or (ref < 0) a cancellation's
// requestId, whose idKey is key, with the surrogate of the call it names.
type idEdit struct {
	s, e int
	ref  int
	key  string
	with []byte // nil: left as written (a cancellation naming no call in flight)
}

// begin rewrites the ids of a POST's body for the SDK (scope: the POST's session, zero for none)
// and returns the POST's surrogates, nil when it has none. A body holding a call whose id is that
// of a call in flight is answered here, with the refusal, and ok is false.
func (ids *httpIDs) begin(w http.ResponseWriter, r *http.Request, scope idScope) (p *idPost, ok bool) {
	body, _ := r.Body.(*bodyBuffer)
	if body == nil || len(body.data) == 0 {
		return nil, true
	}
	data := body.data
	p = &idPost{ids: ids, scope: scope}
	edits := make([]idEdit, 0, 4)
	// What is kept of the body is copied out of it: the body is let go of once the SDK has read it.
	eachMessage(data, func(m *idMessage) {
		switch {
		case m.call():
			id := m.ids[len(m.ids)-1]
			c := &idCall{id: bytes.Clone(data[id.s:id.e]), key: jsonscan.IDKey(data[id.s:id.e])}
			p.calls = append(p.calls, c)
			for _, sp := range m.ids {
				edits = append(edits, idEdit{s: sp.s, e: sp.e, ref: len(p.refs)})
			}
			p.refs = append(p.refs, idRef{raw: c.id, call: c})
			if t, ok := progressToken(data, m); ok {
				edits = append(edits, idEdit{s: t.s, e: t.e, ref: len(p.refs)})
				p.refs = append(p.refs, idRef{raw: bytes.Clone(data[t.s:t.e]), call: c})
			}
		case m.is("notifications/cancelled") && len(m.ids) == 0:
			if t, ok := memberSpan(data, m.params, "requestId"); ok && isID(data[t.s:t.e]) {
				edits = append(edits, idEdit{s: t.s, e: t.e, ref: -1, key: jsonscan.IDKey(data[t.s:t.e])})
			}
		}
	})
	if len(edits) == 0 {
		return nil, true
	}
	n := uint64(len(p.refs))
	p.base = ids.seq.Add(n) - n + 1
	for i := range edits {
		if e := &edits[i]; e.ref >= 0 {
			e.with = p.token(e.ref)
			if c := p.refs[e.ref].call; c.token == nil {
				c.token = e.with // a call's first surrogate is its id's
			}
		}
	}
	if dup := ids.register(p, edits); dup != nil {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write(append(append([]byte(`{"jsonrpc":"2.0","id":`), dup...), `,"error":{"code":-32600,"message":"`+inFlight+`"}}`...))
		return nil, false
	}
	slices.SortFunc(edits, func(a, b idEdit) int { return a.s - b.s })
	parts := make([][]byte, 0, 2*len(edits)+1)
	at, size := 0, 0
	for _, e := range edits {
		if e.with != nil {
			parts = append(parts, data[at:e.s], e.with)
			size += e.s - at + len(e.with)
			at = e.e
		}
	}
	parts = append(parts, data[at:])
	r.Body, r.ContentLength = &partsBody{parts: parts}, int64(size+len(data)-at)
	if len(p.refs) == 0 {
		return nil, true // cancellations only: nothing answers them
	}
	return p, true
}

// token is the JSON text of the i-th surrogate of the POST.
func (p *idPost) token(i int) []byte {
	b := append([]byte(nil), p.ids.prefix...)
	return append(strconv.AppendUint(b, p.base+uint64(i), 10), '"')
}

// register adds the POST's calls to its session's calls in flight and resolves its cancellations,
// unless one of its calls has the id of a call in flight (or of another call of the body): then
// nothing is registered, and the id is returned.
func (ids *httpIDs) register(p *idPost, edits []idEdit) (dup []byte) {
	ids.mu.Lock()
	defer ids.mu.Unlock()
	var sess *idSession
	if p.scope != (idScope{}) {
		sess = ids.sessions[p.scope]
	}
	var seen map[string]bool // the body's calls, when it has several (a batch)
	if len(p.calls) > 1 {
		seen = make(map[string]bool, len(p.calls))
	}
	for _, c := range p.calls {
		if seen[c.key] || sess != nil && sess.calls[c.key] != nil {
			return c.id
		}
		if seen != nil {
			seen[c.key] = true
		}
	}
	for i := range edits {
		if e := &edits[i]; e.ref < 0 && sess != nil {
			if c := sess.calls[e.key]; c != nil {
				c.cancelled.Store(true)
				e.with = c.token
			}
		}
	}
	if p.scope == (idScope{}) || len(p.calls) == 0 {
		return nil
	}
	if sess == nil {
		sess = &idSession{calls: map[string]*idCall{}}
		ids.sessions[p.scope] = sess
	}
	for _, c := range p.calls {
		sess.calls[c.key] = c
	}
	sess.posts++
	p.sess = sess
	return nil
}

// end forgets the POST's calls: once its response has ended, nothing more is sent about them.
func (p *idPost) end() {
	if p.sess == nil {
		return
	}
	ids := p.ids
	ids.mu.Lock()
	defer ids.mu.Unlock()
	for _, c := range p.calls {
		if p.sess.calls[c.key] == c {
			delete(p.sess.calls, c.key)
		}
	}
	if p.sess.posts--; p.sess.posts == 0 {
		delete(ids.sessions, p.scope)
	}
}

// ref returns the surrogate numbered n of the POST, or nil.
func (p *idPost) ref(n uint64) *idRef {
	if n < p.base || n-p.base >= uint64(len(p.refs)) {
		return nil
	}
	return &p.refs[n-p.base]
}

// partsBody is a request body spliced from parts, each let go of once read.
type partsBody struct{ parts [][]byte }

func (b *partsBody) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) && len(b.parts) > 0 {
		c := copy(p[n:], b.parts[0])
		n += c
		if b.parts[0] = b.parts[0][c:]; len(b.parts[0]) == 0 {
			b.parts[0] = nil
			b.parts = b.parts[1:]
		}
	}
	if n == 0 && len(b.parts) == 0 {
		return 0, io.EOF
	}
	return n, nil
}

func (*partsBody) Close() error { return nil }
