package mcphost

import (
	"bytes"

	"github.com/cordon-dev/cordon/internal/jsonscan"
)

// span is b[s:e] of a body.
type span struct{ s, e int }

// idMessage is what the id rewriting reads of one JSON-RPC message of a POST body: the spans of
// its "id" members (a key given twice is given twice; the decoder keeps the last), its method, and
// the span of its params.
type idMessage struct {
	ids    []span
	method []byte // its JSON text
	params span
	hasMethod,
	hasParams bool
	data []byte
}

// call reports whether the message is a call whose id the SDK reads: a request with a string or
// number id.
func (m *idMessage) call() bool {
	return m.hasMethod && len(m.ids) > 0 && isID(m.data[m.ids[len(m.ids)-1].s:m.ids[len(m.ids)-1].e])
}

// is reports whether the message's method is name (a request's method is a string).
func (m *idMessage) is(name string) bool {
	return len(m.method) > 0 && m.method[0] == '"' && jsonscan.KeyIs(m.method, name)
}

// isID reports whether a JSON value is a string or a number (what JSON-RPC allows an id to be,
// besides null).
func isID(v []byte) bool {
	return len(v) > 0 && (v[0] == '"' || v[0] == '-' || v[0] >= '0' && v[0] <= '9')
}

// eachMessage calls fn with each object of a body that is one JSON object or an array of them (a
// batch). A body that is neither, or not well formed, yields what was read before the fault: the
// SDK refuses such a body whole.
func eachMessage(b []byte, fn func(m *idMessage)) {
	i := jsonscan.SkipSpace(b, 0)
	if i < len(b) && b[i] == '[' {
		for i = jsonscan.SkipSpace(b, i+1); i < len(b) && b[i] != ']'; {
			end := jsonscan.SkipValue(b, i)
			if end < 0 {
				return
			}
			if b[i] == '{' {
				readMessage(b, i, fn)
			}
			if i = jsonscan.SkipSpace(b, end); i < len(b) && b[i] == ',' {
				i = jsonscan.SkipSpace(b, i+1)
			}
		}
		return
	}
	if i < len(b) && b[i] == '{' {
		readMessage(b, i, fn)
	}
}

func readMessage(b []byte, i int, fn func(m *idMessage)) {
	m := &idMessage{data: b}
	ok := jsonscan.Members(b, i, func(key []byte, vs, ve int) bool {
		switch v := (span{vs, ve}); {
		case jsonscan.KeyIs(key, "id"):
			m.ids = append(m.ids, v)
		case jsonscan.KeyIs(key, "method"):
			m.hasMethod, m.method = true, b[v.s:v.e]
		case jsonscan.KeyIs(key, "params"):
			m.params, m.hasParams = v, true
		}
		return true
	})
	if ok >= 0 {
		fn(m)
	}
}

// memberSpan returns the span of obj's member key (obj is a span of b; the last if given twice).
func memberSpan(b []byte, obj span, key string) (v span, ok bool) {
	if obj.e <= obj.s || b[obj.s] != '{' {
		return span{}, false
	}
	jsonscan.Members(b, obj.s, func(k []byte, vs, ve int) bool {
		if jsonscan.KeyIs(k, key) {
			v, ok = span{vs, ve}, true
		}
		return true
	})
	return v, ok
}

// progressToken returns the span of params._meta.progressToken, when it is a string or a number.
func progressToken(b []byte, m *idMessage) (span, bool) {
	if !m.hasParams || !bytes.Contains(b[m.params.s:m.params.e], []byte(`progressToken`)) {
		return span{}, false
	}
	meta, ok := memberSpan(b, m.params, "_meta")
	if !ok {
		return span{}, false
	}
	t, ok := memberSpan(b, meta, "progressToken")
	return t, ok && isID(b[t.s:t.e])
}
