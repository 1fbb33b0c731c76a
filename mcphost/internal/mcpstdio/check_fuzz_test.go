package mcpstdio

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzCheck: any line is either rejected (with an id that is null or a valid JSON id) or yields
// messages whose ids are the line's own valid JSON ids; nothing panics.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{`{oops`, `42`, `[]`, `{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`[{"jsonrpc":"2.0","id":"a","method":"x","params":{}},{"jsonrpc":"2.0","id":2,"result":{}}]`,
		`{"jsonrpc":"2.0","id":1e400,"method":"m","params":[1,"\"]"]}`, strings.Repeat("[", 50)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		b := []byte(line)
		if len(b) == 0 {
			return
		}
		elems, isBatch, r := checkFrame(b, 20)
		if r != nil {
			checkRejection(t, r)
			return
		}
		if !isBatch {
			elems = []json.RawMessage{b}
		}
		for _, e := range elems {
			m, r := parseMessage(e)
			if r != nil {
				checkRejection(t, r)
				continue
			}
			if m.kind != kindNotification && (!validID(m.id) || !json.Valid(m.id)) {
				t.Fatalf("message id %q", m.id)
			}
		}
	})
}

func checkRejection(t *testing.T, r *rejection) {
	if r.id != nil && (!validID(r.id) || !json.Valid(r.id)) {
		t.Fatalf("rejection id %q", r.id)
	}
	if r.code != -32700 && r.code != -32600 {
		t.Fatalf("code %d", r.code)
	}
}

// nestedDeeper agrees with a decoder's view of depth on valid JSON.
func TestNestedDeeper(t *testing.T) {
	for _, tc := range []struct {
		s    string
		max  int
		want bool
	}{
		{`[[1]]`, 2, false}, {`[[[1]]]`, 2, true}, {`{"a":"[[[["}`, 1, false},
		{`{"a":"\\"}`, 1, false}, {`{"a":"\\\"[[["}`, 1, false}, {`["\"", [[0]]]`, 2, true},
	} {
		if got := nestedDeeper([]byte(tc.s), tc.max); got != tc.want {
			t.Errorf("nestedDeeper(%s, %d) = %v", tc.s, tc.max, got)
		}
	}
}
