package jsonlines

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// FuzzRunLine feeds one arbitrary input line to the run protocol: the runner never fails or
// panics, answers with exactly one JSON line carrying every output field, marks a line that
// parseRunLine refuses as INVALID_REQUEST, and echoes the id of any line that is a JSON object (as
// valid UTF-8).
func FuzzRunLine(f *testing.F) {
	for _, seed := range []string{
		`{"id":1,"tool":"echo","args":{"x":"y"}}`,
		`{"id":"s","tool":"fail","session":null}`,
		`{"id":{"k":[1]},"tool":"nope","cwd":"/tmp","model":"m"}`,
		`{"id":2,"tool":"echo","session":"","cwd":"rel"}`,
		`{"id":3,"tool":"echo","session":null,"cwd":"/abs"}`,
		`{"id":1,"tool":`, `[]`, `null`, `""`, `{}`, `{"tool":7}`, "{\"id\":\"\xff\",\"tool\":\"echo\"}",
	} {
		f.Add([]byte(seed))
	}
	fields := []string{"id", "tool", "isError", "text", "content", "code", "errorName", "value", "meta"}
	f.Fuzz(func(t *testing.T, line []byte) {
		if bytes.ContainsAny(line, "\r\n") {
			t.Skip("one line at a time")
		}
		var out bytes.Buffer
		if err := newRunner(newFakeEngine(), nil).serve(context.Background(), bytes.NewReader(append(line, '\n')), &out); err != nil {
			t.Fatalf("serve: %v", err)
		}
		got := bytes.Split(bytes.TrimSuffix(out.Bytes(), []byte("\n")), []byte("\n"))
		if len(got) != 1 {
			t.Fatalf("want one output line, got %d: %q", len(got), out.String())
		}
		var resp map[string]json.RawMessage
		if err := json.Unmarshal(got[0], &resp); err != nil {
			t.Fatalf("output is not a JSON object: %v: %q", err, got[0])
		}
		for _, k := range fields {
			if _, ok := resp[k]; !ok {
				t.Fatalf("output lacks %q: %s", k, got[0])
			}
		}
		req, perr := parseRunLine(line)
		if perr != nil && string(resp["code"]) != `"INVALID_REQUEST"` {
			t.Fatalf("refused line answered with code %s: %s", resp["code"], got[0])
		}
		if !utf8.Valid(resp["id"]) || !utf8.Valid(resp["tool"]) {
			t.Fatalf("id or tool echoed with invalid UTF-8: %q", got[0])
		}
		if len(req.ID) > 0 && !jsonEqual(req.ID, resp["id"]) {
			t.Fatalf("id %s echoed as %s", req.ID, resp["id"])
		}
	})
}

func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return bytes.Equal(xb, yb)
}
