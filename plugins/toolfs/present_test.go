package toolfs_test

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/cordon-dev/cordon/plugins/toolfs"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// viewJSON returns v as JSON text ("null" for a declined view).
func viewJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

func raw(s string) json.RawMessage { return json.RawMessage(s) }

// Tool-owned presentation (pure presentCall).
func TestPresentCall(t *testing.T) {
	cases := []struct {
		name string
		view any
		want string
	}{
		{"read window", toolfs.PresentReadCall(raw(`{"file_path":"src/a.ts","offset":12,"limit":40}`)),
			`{"card":"generic","title":"Read src/a.ts (12 - 51)","kind":"read","locations":[{"path":"src/a.ts","line":12}]}`},
		{"read bare", toolfs.PresentReadCall(raw(`{"file_path":"a.txt"}`)),
			`{"card":"generic","title":"Read a.txt","kind":"read","locations":[{"path":"a.txt","line":1}]}`},
		{"read from line", toolfs.PresentReadCall(raw(`{"file_path":"a.txt","offset":5}`)),
			`{"card":"generic","title":"Read a.txt (from line 5)","kind":"read","locations":[{"path":"a.txt","line":5}]}`},
		{"read limit only", toolfs.PresentReadCall(raw(`{"file_path":"a.txt","limit":10}`)),
			`{"card":"generic","title":"Read a.txt (1 - 10)","kind":"read","locations":[{"path":"a.txt","line":1}]}`},
		{"read zero limit", toolfs.PresentReadCall(raw(`{"file_path":"a.txt","offset":3,"limit":0}`)),
			`{"card":"generic","title":"Read a.txt (from line 3)","kind":"read","locations":[{"path":"a.txt","line":3}]}`},
		{"read invalid args decline", toolfs.PresentReadCall(raw(`{"file_path":7}`)), `null`},
		{"write", toolfs.PresentWriteCall(raw(`{"file_path":"out.txt","content":"hello"}`)),
			`{"card":"diff","title":"Write out.txt","diffs":[{"path":"out.txt","oldText":null,"newText":"hello"}],"locations":[{"path":"out.txt"}]}`},
		{"edit empty old_string", toolfs.PresentEditCall(raw(`{"file_path":"a.txt","old_string":"","new_string":"seed"}`)),
			`{"card":"diff","title":"Edit a.txt","diffs":[{"path":"a.txt","oldText":null,"newText":"seed"}],"locations":[{"path":"a.txt"}]}`},
		{"edit", toolfs.PresentEditCall(raw(`{"file_path":"a.txt","old_string":"x","new_string":"y"}`)),
			`{"card":"diff","title":"Edit a.txt","diffs":[{"path":"a.txt","oldText":"x","newText":"y"}],"locations":[{"path":"a.txt"}]}`},
		{"edit missing new_string declines", toolfs.PresentEditCall(raw(`{"file_path":"a.txt","old_string":"x"}`)), `null`},
	}
	for _, tc := range cases {
		assert.JSONEq(t, tc.want, viewJSON(t, tc.view), tc.name)
	}
}

func text(s string) []tools.Content { return []tools.Content{tools.TextContent(s)} }

// A completed read is presented from its meta; errors and content that is not a single text
// are declined.
func TestPresentReadResult(t *testing.T) {
	meta := map[string]any{"path": "/tmp/a.ts", "offset": 1, "lines": []any{map[string]any{"number": 1, "text": "hello"}}, "totalLines": 1, "lang": "ts"}
	body := "1: hello\n\n" + endOf(1)
	env := envelope("/tmp/a.ts", body)
	a := raw(`{"file_path":"a.ts"}`)
	assert.JSONEq(t, `{"card":"read","path":"/tmp/a.ts","offset":1,"lines":[{"number":1,"text":"hello"}],"totalLines":1,"lang":"ts","content":[{"type":"text","text":`+strconv.Quote(body)+`}]}`,
		viewJSON(t, toolfs.PresentReadResult(a, tools.Result{Content: text(env), Meta: meta})))

	notes := map[string]any{"path": "/tmp/notes", "offset": 1, "lines": []any{map[string]any{"number": 1, "text": "body"}}, "totalLines": 1}
	assert.JSONEq(t, `{"card":"read","path":"/tmp/notes","offset":1,"lines":[{"number":1,"text":"body"}],"totalLines":1,"content":[{"type":"text","text":"body"}]}`,
		viewJSON(t, toolfs.PresentReadResult(raw(`{"file_path":"notes"}`), tools.Result{Content: text("<path>/tmp/notes</path>\n<type>file</type>\n<content>\nbody\n</content>"), Meta: notes})))

	declined := []tools.Result{
		{Content: text("malformed replay"), Meta: meta},
		{Content: text(env)},
		{Content: text(env), Meta: map[string]any{"path": "/tmp/a.ts", "lines": "nope", "totalLines": 1}},
		{Content: text(env), Meta: meta, IsError: true},
		{Content: append(text(env), tools.TextContent("second")), Meta: meta},
		{Content: []tools.Content{tools.ImageContent("image/png", "AA==")}, Meta: meta},
	}
	for i, r := range declined {
		assert.Nil(t, toolfs.PresentReadResult(a, r), "case %d", i)
	}

	// A live result of the tool itself narrows too.
	e := newEnv(t, envOptions{})
	e.writeFile(t, "a.ts", "const x = 1\nconst y = 2")
	r := e.call("read", args{"file_path": "a.ts"})
	requireOK(t, r)
	assert.JSONEq(t, `{"card":"read","path":"`+e.path("a.ts")+`","offset":1,"lines":[{"number":1,"text":"const x = 1"},{"number":2,"text":"const y = 2"}],"totalLines":2,"lang":"ts","content":[{"type":"text","text":"1: const x = 1\n2: const y = 2\n\n`+endOf(2)+`"}]}`,
		viewJSON(t, toolfs.PresentReadResult(raw(`{"file_path":"a.ts"}`), r)))
}

// Result-time contextual diff (meta + presentResult).
func TestPresentMutationResults(t *testing.T) {
	const withContext = "a\nb\nc\nOLD\nd\ne\nf\n"
	const hunk = `[{"path":"a.txt","oldText":"a\nb\nc\nOLD\nd\ne\nf","newText":"a\nb\nc\nNEW\nd\ne\nf"}]`
	e := newEnv(t, envOptions{})
	e.writeFile(t, "a.txt", withContext)
	requireOK(t, e.call("read", args{"file_path": "a.txt"}))
	r := e.call("edit", args{"file_path": "a.txt", "old_string": "OLD", "new_string": "NEW"})
	requireOK(t, r)
	assert.JSONEq(t, `{"card":"diff","title":"Edit a.txt","diffs":`+hunk+`}`,
		viewJSON(t, toolfs.PresentEditResult(raw(`{"file_path":"a.txt","old_string":"OLD","new_string":"NEW"}`), r)))

	e.writeFile(t, "a.txt", withContext)
	requireOK(t, e.call("read", args{"file_path": "a.txt"}))
	r = e.call("write", args{"file_path": "a.txt", "content": "a\nb\nc\nNEW\nd\ne\nf\n"})
	requireOK(t, r)
	assert.JSONEq(t, `{"card":"diff","title":"Write a.txt","diffs":`+hunk+`}`,
		viewJSON(t, toolfs.PresentWriteResult(raw(`{"file_path":"a.txt","content":"x"}`), r)))

	r = e.call("write", args{"file_path": "new.txt", "content": "fresh\n"})
	requireOK(t, r)
	assert.JSONEq(t, `{"card":"diff","title":"Write new.txt","diffs":[{"path":"new.txt","oldText":null,"newText":"fresh\n"}]}`,
		viewJSON(t, toolfs.PresentWriteResult(raw(`{"file_path":"new.txt","content":"fresh\n"}`), r)))

	failed := tools.Result{Content: text("Error: boom"), IsError: true}
	assert.Nil(t, toolfs.PresentEditResult(raw(`{"file_path":"a.txt","old_string":"x","new_string":"y"}`), failed))
	assert.Nil(t, toolfs.PresentWriteResult(raw(`{"file_path":"a.txt","content":"y"}`), failed))

	bad := tools.Result{Content: text("ok"), Meta: map[string]any{"diffs": "nope"}}
	assert.Nil(t, toolfs.PresentEditResult(raw(`{"file_path":"a.txt","old_string":"x","new_string":"y"}`), bad))
	assert.JSONEq(t, `{"card":"diff","title":"Write a.txt","diffs":[{"path":"a.txt","oldText":null,"newText":"y"}]}`,
		viewJSON(t, toolfs.PresentWriteResult(raw(`{"file_path":"a.txt","content":"y"}`), bad)))
}

// DiffsFromMeta (defensive narrowing).
func TestDiffsFromMeta(t *testing.T) {
	good := map[string]any{"diffs": []any{map[string]any{"path": "f.txt", "oldText": "a", "newText": "b"}}}
	assert.JSONEq(t, `[{"path":"f.txt","oldText":"a","newText":"b"}]`, viewJSON(t, toolfs.DiffsFromMeta(good)))
	assert.JSONEq(t, `[{"path":"f.txt","oldText":null,"newText":"x"}]`,
		viewJSON(t, toolfs.DiffsFromMeta(map[string]any{"diffs": []any{map[string]any{"path": "f.txt", "oldText": nil, "newText": "x"}}})))
	assert.JSONEq(t, `[{"path":"f","oldText":"a","newText":"b"}]`,
		viewJSON(t, toolfs.DiffsFromMeta(toolfs.DiffMeta{Diffs: []toolfs.FileDiff{{Path: "f", OldText: sp("a"), NewText: "b"}}})), "a live meta")
	for i, m := range []any{
		nil, "nope", []any{}, map[string]any{}, map[string]any{"diffs": []any{}}, map[string]any{"diffs": "x"},
		map[string]any{"diffs": []any{map[string]any{"path": "f.txt", "oldText": "a"}}},
		map[string]any{"diffs": []any{map[string]any{"path": 1, "oldText": "a", "newText": "b"}}},
		map[string]any{"diffs": []any{map[string]any{"path": "f", "oldText": 5, "newText": "b"}}},
		map[string]any{"diffs": []any{map[string]any{"path": "f", "oldText": "a", "newText": 7}}},
		map[string]any{"diffs": []any{nil}}, map[string]any{"diffs": []any{"x"}}, map[string]any{"diffs": []any{[]any{}}},
		toolfs.DiffMeta{Diffs: []toolfs.FileDiff{}},
	} {
		assert.Nil(t, toolfs.DiffsFromMeta(m), "case %d", i)
	}
}

// ReadMetaFromMeta refuses windows that misnumber or overcount (read-render.ts readMetaFromMeta).
func TestReadMetaFromMeta(t *testing.T) {
	line := func(n any, text any) map[string]any { return map[string]any{"number": n, "text": text} }
	meta := func(offset, total any, lines ...any) map[string]any {
		return map[string]any{"path": "/f", "offset": offset, "totalLines": total, "lines": append([]any{}, lines...)}
	}
	m, ok := toolfs.ReadMetaFromMeta(meta(2, 3, line(2, "b"), line(3, "c")))
	require.True(t, ok)
	assert.Equal(t, toolfs.ReadMeta{Path: "/f", Offset: 2, TotalLines: 3, Lines: []toolfs.Line{{Number: 2, Text: "b"}, {Number: 3, Text: "c"}}}, m)
	_, ok = toolfs.ReadMetaFromMeta(meta(1, 0))
	assert.True(t, ok, "an empty window")
	for i, bad := range []any{
		nil, "x", meta(0, 1), meta(1.5, 2), meta(1, -1), meta(1, 1.5), meta(2, 3, line(1, "a")), meta(1, 3, line(2, "b"), line(2, "b")),
		meta(1, 1, line(2, "b")), meta(1, 3, line(1, 5)), meta(1, 3, line(1.5, "a")), meta(1, 3, "x"),
		map[string]any{"path": "/f", "offset": 1, "totalLines": 1, "lines": []any{}, "lang": 3},
		map[string]any{"path": 1, "offset": 1, "totalLines": 1, "lines": []any{}},
	} {
		_, ok := toolfs.ReadMetaFromMeta(bad)
		assert.False(t, ok, "case %d", i)
	}
}
