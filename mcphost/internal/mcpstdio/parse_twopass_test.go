package mcpstdio

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// parseMessageUnmarshal is parseMessage as it was before it validated and scanned the members:
// json.Unmarshal into a map of them.
func parseMessageUnmarshal(b []byte) (message, *rejection) {
	var m message
	if len(b) == 0 || b[0] != '{' {
		return m, invalid(nil, "not a JSON-RPC message (expected an object)")
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		if _, ok := errors.AsType[*json.SyntaxError](err); ok {
			return m, parseError("the line is not one JSON value")
		}
		return m, invalid(nil, "not a JSON-RPC message")
	}
	return fromFields(fields)
}

// FuzzParseMessageAgreesWithUnmarshal holds parseMessage to parseMessageUnmarshal: the same
// message or the same rejection, for any line.
func FuzzParseMessageAgreesWithUnmarshal(f *testing.F) {
	for _, s := range []string{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","arguments":{"x":"}\"{"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`, `{"jsonrpc":"2.0","id":"a","result":{}}`,
		`{"jsonrpc":"2.0","id":2,"error":{"code":-1,"message":"m"}}`, `{"jsonrpc":"2.0","id":2,"error":[]}`,
		`{ "jsonrpc" : "2.0" , "id" : 1 , "m\u0065thod" : "ping" , "params" : null }`, `{"jsonrpc":"2.0","id":1,"method":"a","method":1}`,
		`{"jsonrpc":"2.0","id":null,"method":"x"}`, `{"jsonrpc":"2.0","id":1,"method":"x","params":3}`, `{"jsonrpc":"2.0"`,
		`{"jsonrpc":"2.0","id":1,"method":"x"} x`, `{}`, `[]`, `{"id":"\xff","jsonrpc":"2.0","method":"x"}`, "{\"k\xff\":1}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, r := parseMessage(b)
		wm, wr := parseMessageUnmarshal(b)
		if !reflect.DeepEqual(r, wr) || !reflect.DeepEqual(m, wm) {
			t.Fatalf("parseMessage(%q) = %+v, %+v; json.Unmarshal: %+v, %+v", b, m, r, wm, wr)
		}
	})
}

// BenchmarkParseMessage measures the check of a tools/call line with small and 68 KB edit
// arguments (as plugins/tools BenchmarkArgsPath), by parseMessage and by the json.Unmarshal it
// replaced.
func BenchmarkParseMessage(b *testing.B) {
	line := "\tfmt.Println(\"héllo, wörld → ✓\") // \\ a \"quoted\" <tag> & more\n"
	quoted, _ := json.Marshal(line)
	old := strings.Repeat(line, 35000/len(quoted))
	args, _ := json.Marshal(map[string]any{"file_path": "src/main.go", "old_string": old, "new_string": strings.ToUpper(old), "replace_all": true})
	for _, bc := range []struct{ name, args string }{
		{"small", `{"file_path":"src/main.go","offset":120,"limit":40}`},
		{"edit-71KB", string(args)},
	} {
		frame := []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"edit","arguments":` + bc.args + `}}`)
		for _, parse := range []struct {
			name string
			fn   func([]byte) (message, *rejection)
		}{{"members", parseMessage}, {"unmarshal", parseMessageUnmarshal}} {
			b.Run(bc.name+"/"+parse.name, func(b *testing.B) {
				b.SetBytes(int64(len(frame)))
				b.ReportAllocs()
				for b.Loop() {
					if _, r := parse.fn(frame); r != nil {
						b.Fatal(r.msg)
					}
				}
			})
		}
	}
}
