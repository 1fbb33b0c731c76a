package mcphost

import (
	"bytes"
	"encoding/json"
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
	return len(m.method) > 0 && m.method[0] == '"' && keyIs(m.method, name)
}

// isID reports whether a JSON value is a string or a number (what JSON-RPC allows an id to be,
// besides null).
func isID(v []byte) bool {
	return len(v) > 0 && (v[0] == '"' || v[0] == '-' || v[0] >= '0' && v[0] <= '9')
}

// idKey identifies an id for matching: a string by its value, a number by its text (1.5 is not
// 1.50), as on stdio.
func idKey(id []byte) string {
	if id[0] == '"' {
		var s string
		if json.Unmarshal(id, &s) == nil {
			return "s" + s
		}
	}
	return "n" + string(id)
}

// eachMessage calls fn with each object of a body that is one JSON object or an array of them (a
// batch). A body that is neither, or not well formed, yields what was read before the fault: the
// SDK refuses such a body whole.
func eachMessage(b []byte, fn func(m *idMessage)) {
	i := skipWS(b, 0)
	if i < len(b) && b[i] == '[' {
		for i = skipWS(b, i+1); i < len(b) && b[i] != ']'; {
			end := skipValue(b, i)
			if end < 0 {
				return
			}
			if b[i] == '{' {
				readMessage(b, i, fn)
			}
			if i = skipWS(b, end); i < len(b) && b[i] == ',' {
				i = skipWS(b, i+1)
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
	ok := members(b, i, func(key []byte, v span) {
		switch {
		case keyIs(key, "id"):
			m.ids = append(m.ids, v)
		case keyIs(key, "method"):
			m.hasMethod, m.method = true, b[v.s:v.e]
		case keyIs(key, "params"):
			m.params, m.hasParams = v, true
		}
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
	members(b, obj.s, func(k []byte, val span) {
		if keyIs(k, key) {
			v, ok = val, true
		}
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

// keyIs reports whether a JSON string (a member's key, its text) is name.
func keyIs(key []byte, name string) bool {
	if bytes.IndexByte(key, '\\') < 0 {
		return len(key) == len(name)+2 && string(key[1:len(key)-1]) == name
	}
	var s string
	return json.Unmarshal(key, &s) == nil && s == name
}

// members calls fn with the key (JSON text) and value span of each member of the object at b[i],
// and returns the object's end, or -1 when it is not well formed.
func members(b []byte, i int, fn func(key []byte, v span)) int {
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return -1
		}
		ke := skipString(b, i)
		if ke < 0 {
			return -1
		}
		j := skipWS(b, ke)
		if j >= len(b) || b[j] != ':' {
			return -1
		}
		vs := skipWS(b, j+1)
		ve := skipValue(b, vs)
		if ve < 0 {
			return -1
		}
		fn(b[i:ke], span{vs, ve})
		if i = skipWS(b, ve); i >= len(b) {
			return -1
		}
		switch b[i] {
		case ',':
			i = skipWS(b, i+1)
		case '}':
			return i + 1
		default:
			return -1
		}
	}
}

func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the end of the JSON value at b[i], or -1. Containers are matched by their
// brackets, strings skipped whole; what is inside is not checked (the SDK's decoding does that).
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				e := skipString(b, i)
				if e < 0 {
					return -1
				}
				i = e - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return -1
	case ',', ':', '}', ']':
		return -1
	}
	j := i
	for j < len(b) && !delimiter(b[j]) {
		j++
	}
	return j
}

// delimiter reports whether c ends a number or a literal.
func delimiter(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', ',', ':', '{', '}', '[', ']', '"':
		return true
	}
	return false
}

// skipString returns the end of the JSON string at b[i] (after its closing quote), or -1.
func skipString(b []byte, i int) int {
	for j := i + 1; ; {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return -1
		}
		k += j
		n := 0
		for m := k - 1; m > i && b[m] == '\\'; m-- {
			n++
		}
		if n%2 == 0 {
			return k + 1
		}
		j = k + 1
	}
}
