package jsonlines

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRunProtocolLines(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{
			name: "success with value, meta, text and image blocks",
			in:   `{"id":1,"tool":"echo","args":{"x":"y"}}`,
			want: `{"id":1,"tool":"echo","isError":false,"text":"a\nb","content":[{"type":"text","text":"a"},{"type":"image","mediaType":"image/png","data":"AAE="},{"type":"text","text":"b"}],"code":null,"errorName":null,"value":{"x":"y"},"meta":{"m":1}}`,
		},
		{
			name: "coded failure",
			in:   `{"id":"s","tool":"fail"}`,
			want: `{"id":"s","tool":"fail","isError":true,"text":"Error: boom","content":[{"type":"text","text":"Error: boom"}],"code":"FS_BOOM","errorName":"FsError","value":null,"meta":null}`,
		},
		{
			name: "uncoded failure",
			in:   `{"id":{"k":[1]},"tool":"nope"}`,
			want: `{"id":{"k":[1]},"tool":"nope","isError":true,"text":"Error: unknown tool nope","content":[{"type":"text","text":"Error: unknown tool nope"}],"code":null,"errorName":null,"value":null,"meta":null}`,
		},
		{
			name: "not JSON",
			in:   `{"id":1,"tool":`,
			want: `{"id":null,"tool":null,"isError":true,"text":"Error: invalid request: expected one JSON object per line","content":[{"type":"text","text":"Error: invalid request: expected one JSON object per line"}],"code":"INVALID_REQUEST","errorName":"RequestError","value":null,"meta":null}`,
		},
		{
			name: "missing tool keeps the id",
			in:   `{"id":7,"args":{}}`,
			want: `{"id":7,"tool":null,"isError":true,"text":"Error: invalid request: \"tool\" must be a non-empty string","content":[{"type":"text","text":"Error: invalid request: \"tool\" must be a non-empty string"}],"code":"INVALID_REQUEST","errorName":"RequestError","value":null,"meta":null}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			require.NoError(t, newRunner(newFakeEngine(), nil).serve(context.Background(), strings.NewReader(tt.in+"\n"), &out))
			assert.Equal(t, tt.want+"\n", out.String())
		})
	}
}

func TestRunMalformedLines(t *testing.T) {
	tests := []struct{ line, msg string }{
		{``, "expected one JSON object per line"},
		{`[]`, "expected one JSON object per line"},
		{`null`, "expected one JSON object per line"},
		{`{"tool":""}`, `"tool" must be a non-empty string`},
		{`{"tool":3}`, `"tool" must be a non-empty string`},
		{`{"tool":"echo","session":3}`, `"session" must be a non-empty string or null`},
		{`{"tool":"echo","session":""}`, `"session" must be a non-empty string or null`},
		{`{"tool":"echo","cwd":"rel/dir"}`, `"cwd" must be an absolute path`},
		{`{"tool":"echo","cwd":5}`, `"cwd" must be an absolute path`},
		{`{"tool":"echo","model":""}`, `"model" must be a non-empty string`},
		{`{"tool":"echo","session":null,"cwd":"/x"}`, `"cwd" and "model" need a session`},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			eng := newFakeEngine()
			var out bytes.Buffer
			in := tt.line + "\n" + `{"id":2,"tool":"echo"}` + "\n"
			require.NoError(t, newRunner(eng, nil).serve(context.Background(), strings.NewReader(in), &out))
			lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
			require.Len(t, lines, 2, "one result line per input line, and the run goes on")
			var first runResponse
			require.NoError(t, json.Unmarshal([]byte(lines[0]), &first))
			assert.True(t, first.IsError)
			require.NotNil(t, first.Code)
			assert.Equal(t, CodeInvalidRequest, *first.Code)
			assert.Equal(t, "Error: invalid request: "+tt.msg, first.Text)
			assert.Contains(t, lines[1], `"id":2,"tool":"echo","isError":false`)
			assert.Len(t, eng.Calls(), 1, "the malformed line never reaches the engine")
		})
	}
}

func TestRunSessions(t *testing.T) {
	eng := newFakeEngine()
	in := strings.Join([]string{
		`{"id":1,"tool":"echo"}`,
		`{"id":2,"tool":"echo","session":"s1","cwd":"/p","model":"m1"}`,
		`{"id":3,"tool":"echo","session":"s1"}`,
		`{"id":4,"tool":"echo","session":null}`,
		`{"id":5,"tool":"echo","session":"default","model":"m2"}`,
		`{"id":6,"tool":"echo","args":null}`,
	}, "\n") // no trailing newline: the last line still counts
	var out bytes.Buffer
	def := "/work"
	require.NoError(t, newRunner(eng, &def).serve(context.Background(), strings.NewReader(in), &out))
	assert.Equal(t, 6, strings.Count(out.String(), "\n"))
	assert.Equal(t, []fakeCall{
		{Session: "default", Tool: "echo", Args: "{}", Cwd: "/work"},
		{Session: "s1", Tool: "echo", Args: "{}", Cwd: "/p", Model: "m1"},
		{Session: "s1", Tool: "echo", Args: "{}", Cwd: "/p", Model: "m1"},
		{Tool: "echo", Args: "{}"},
		{Session: "default", Tool: "echo", Args: "{}", Cwd: "/work", Model: "m2"},
		{Session: "default", Tool: "echo", Args: "{}", Cwd: "/work", Model: "m2"},
	}, eng.Calls())
	assert.Equal(t, []string{"default", "s1"}, eng.Opened())
	assert.ElementsMatch(t, []string{"default", "s1"}, eng.Ended(), "every session ends at EOF")
}

// flushWriter fails the test if a result is not written before the next input line is read.
type lockstep struct {
	lines chan string
	out   chan string
	buf   string
}

func (l *lockstep) Read(p []byte) (int, error) {
	if l.buf == "" {
		line, ok := <-l.lines
		if !ok {
			return 0, io.EOF
		}
		l.buf = line
	}
	n := copy(p, l.buf)
	l.buf = l.buf[n:]
	return n, nil
}

func (l *lockstep) Write(p []byte) (int, error) {
	l.out <- string(p)
	return len(p), nil
}

func TestRunFlushesEachLine(t *testing.T) {
	l := &lockstep{lines: make(chan string), out: make(chan string, 8)}
	done := make(chan error, 1)
	go func() { done <- newRunner(newFakeEngine(), nil).serve(context.Background(), l, l) }()
	for i := range 3 {
		l.lines <- `{"id":` + string(rune('0'+i)) + `,"tool":"echo"}` + "\n"
		got := <-l.out // answered before the next line is sent
		assert.Contains(t, got, `"id":`+string(rune('0'+i)))
	}
	close(l.lines)
	require.NoError(t, <-done)
}

// blockingReader never returns until closed.
type blockingReader struct{ done chan struct{} }

func (b *blockingReader) Read([]byte) (int, error) {
	<-b.done
	return 0, io.EOF
}

func TestRunEndsWhenContextEnds(t *testing.T) {
	eng := newFakeEngine()
	ctx, cancel := context.WithCancel(context.Background())
	r := &blockingReader{done: make(chan struct{})}
	defer close(r.done)
	done := make(chan error, 1)
	runner := newRunner(eng, nil)
	go func() {
		done <- runner.serve(ctx, io.MultiReader(strings.NewReader(`{"tool":"echo"}`+"\n"), r), io.Discard)
	}()
	require.Eventually(t, func() bool {
		return len(eng.Calls()) == 1
	}, 5*time.Second, time.Millisecond)
	cancel()
	select {
	case err := <-done:
		assert.ErrorIs(t, err, context.Canceled)
	case <-time.After(5 * time.Second):
		t.Fatal("serve did not return after the context ended")
	}
	assert.Equal(t, []string{"default"}, eng.Ended(), "sessions end on the way out")
}

// end_session ends a named session: its observations are released (the next write of a file it
// read is refused again), and a later call under the name starts a new session.
func TestRunEndSession(t *testing.T) {
	eng := newFakeEngine()
	var out bytes.Buffer
	in := `{"id":1,"tool":"echo","session":"s1"}` + "\n" +
		`{"id":2,"end_session":"s1"}` + "\n" +
		`{"id":3,"end_session":"never"}` + "\n" +
		`{"id":4,"end_session":"s1","tool":"echo"}` + "\n" +
		`{"id":5,"tool":"echo","session":"s1"}` + "\n"
	require.NoError(t, newRunner(eng, nil).serve(context.Background(), strings.NewReader(in), &out))
	got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	require.Len(t, got, 5)
	assert.Equal(t, `{"id":2,"tool":null,"isError":false,"text":"","content":[],"code":null,"errorName":null,"value":{"ended":true,"session":"s1"},"meta":null}`, got[1])
	assert.Contains(t, got[2], `"value":{"ended":false,"session":"never"}`)
	assert.Contains(t, got[3], `"code":"INVALID_REQUEST"`)
	assert.Equal(t, []string{"s1", "s1"}, eng.Opened(), "a call after end_session opens a new session")
	assert.Equal(t, []string{"s1", "s1"}, eng.Ended(), "ended on request, and the new one at EOF")
}

// Sessions are bounded: one idle past the limit is ended, and at the session limit a new one ends
// the least recently used.
func TestRunBoundsSessions(t *testing.T) {
	eng := newFakeEngine()
	r := newRunner(eng, nil)
	r.limits.maxSessions = 2
	var out bytes.Buffer
	in := `{"id":1,"tool":"echo","session":"a"}` + "\n" + `{"id":2,"tool":"echo","session":"b"}` + "\n" +
		`{"id":3,"tool":"echo","session":"a"}` + "\n" + `{"id":4,"tool":"echo","session":"c"}` + "\n"
	require.NoError(t, r.serve(context.Background(), strings.NewReader(in), &out))
	require.Len(t, eng.Ended(), 3)
	assert.Equal(t, "b", eng.Ended()[0], "b, the least recently used, ends first")

	eng = newFakeEngine()
	r = newRunner(eng, nil)
	r.limits.idle = time.Nanosecond
	out.Reset()
	in = `{"id":1,"tool":"echo","session":"a"}` + "\n" + `{"id":2,"tool":"echo","session":"b"}` + "\n"
	require.NoError(t, r.serve(context.Background(), strings.NewReader(in), &out))
	require.NotEmpty(t, eng.Ended())
	assert.Equal(t, "a", eng.Ended()[0], "a went idle before b's call")
}

// A line longer than the limit is answered with an error line and skipped; the run goes on.
func TestRunRefusesOverlongLines(t *testing.T) {
	eng := newFakeEngine()
	r := newRunner(eng, nil)
	r.limits.maxLine = 64
	var out bytes.Buffer
	in := `{"id":1,"tool":"echo","args":{"x":"` + strings.Repeat("y", 100) + `"}}` + "\n" + `{"id":2,"tool":"echo"}` + "\n"
	require.NoError(t, r.serve(context.Background(), strings.NewReader(in), &out))
	got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	require.Len(t, got, 2)
	assert.Equal(t, `{"id":null,"tool":null,"isError":true,"text":"Error: invalid request: the line is longer than 64 bytes (the run protocol's limit); it was skipped","content":[{"type":"text","text":"Error: invalid request: the line is longer than 64 bytes (the run protocol's limit); it was skipped"}],"code":"INVALID_REQUEST","errorName":"RequestError","value":null,"meta":null}`, got[0])
	assert.Contains(t, got[1], `"id":2`)
	assert.Len(t, eng.Calls(), 1)
}
