package jsonlines

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/cordon-dev/cordon/internal/lines"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/tools/engine"
)

// CodeInvalidRequest is the code of the error line that answers a malformed `run` input line.
const CodeInvalidRequest = "INVALID_REQUEST"

// errorNameRequest is the errorName of an INVALID_REQUEST line.
const errorNameRequest = "RequestError"

// runRequest is one decoded input line of `harness run`.
type runRequest struct {
	ID   json.RawMessage
	Tool string
	Args json.RawMessage
	// Session is the session name; NoSession is true for `"session": null`.
	Session   string
	NoSession bool
	Cwd       *string
	Model     *string
	// EndSession names a session to end (a line {"id": any, "end_session": "s1"}); Tool is then "".
	EndSession string
}

// runResponse is one output line; the field order is the protocol's.
type runResponse struct {
	ID        json.RawMessage `json:"id"`
	Tool      *string         `json:"tool"`
	IsError   bool            `json:"isError"`
	Text      string          `json:"text"`
	Content   []runBlock      `json:"content"`
	Code      *string         `json:"code"`
	ErrorName *string         `json:"errorName"`
	Value     any             `json:"value"`
	Meta      any             `json:"meta"`
}

// runBlock is a content block as the protocol spells it: {"type":"text","text"} (the text key even
// for an empty text) or {"type":"image","mediaType","data"}.
type runBlock struct {
	Type      string  `json:"type"`
	Text      *string `json:"text,omitempty"`
	MediaType *string `json:"mediaType,omitempty"`
	Data      *string `json:"data,omitempty"`
}

func toRunBlocks(bs []tools.Content) []runBlock {
	out := make([]runBlock, len(bs))
	for i := range bs {
		b := &bs[i]
		out[i].Type = b.Type
		if b.Type == "image" {
			out[i].MediaType, out[i].Data = &b.MediaType, &b.Data
			continue
		}
		out[i].Text = &b.Text
	}
	return out
}

// requestError is a malformed input line; its message is what the error line says.
type requestError struct{ msg string }

func (e *requestError) Error() string { return e.msg }

// parseRunLine decodes one input line. The id is recovered whenever the line is a JSON object, so an
// error line can still be matched to its request.
func parseRunLine(line []byte) (runRequest, error) {
	var req runRequest
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(line, &fields); err != nil || fields == nil {
		return req, &requestError{"invalid request: expected one JSON object per line"}
	}
	req.ID = validUTF8(fields["id"])
	if raw, ok := fields["end_session"]; ok {
		if _, hasTool := fields["tool"]; hasTool || json.Unmarshal(raw, &req.EndSession) != nil || req.EndSession == "" {
			return req, &requestError{`invalid request: "end_session" must be a non-empty string, on a line without "tool"`}
		}
		return req, nil
	}
	tool, ok := fields["tool"]
	if !ok || json.Unmarshal(tool, &req.Tool) != nil || req.Tool == "" {
		return req, &requestError{`invalid request: "tool" must be a non-empty string`}
	}
	req.Args = fields["args"]
	if len(req.Args) == 0 || string(req.Args) == "null" {
		req.Args = json.RawMessage("{}")
	}
	req.Session = "default"
	if s, ok := fields["session"]; ok {
		if string(s) == "null" {
			req.NoSession = true
		} else if json.Unmarshal(s, &req.Session) != nil || req.Session == "" {
			return req, &requestError{`invalid request: "session" must be a non-empty string or null`}
		}
	}
	if c, ok := fields["cwd"]; ok {
		var cwd string
		if json.Unmarshal(c, &cwd) != nil || !filepath.IsAbs(cwd) {
			return req, &requestError{`invalid request: "cwd" must be an absolute path`}
		}
		req.Cwd = &cwd
	}
	if m, ok := fields["model"]; ok {
		var model string
		if json.Unmarshal(m, &model) != nil || model == "" {
			return req, &requestError{`invalid request: "model" must be a non-empty string`}
		}
		req.Model = &model
	}
	if (req.Cwd != nil || req.Model != nil) && req.NoSession {
		return req, &requestError{`invalid request: "cwd" and "model" need a session`}
	}
	return req, nil
}

// runner executes the `run` protocol over one engine.
type runner struct {
	eng        engine.Engine
	defaultCwd *string
	client     string // the client every session records (--client), "" for none
	limits     runLimits
	sessions   map[string]*runSession
}

// runLimits bound what a run holds for its client.
type runLimits struct {
	maxLine     int           // longest input line accepted
	idle        time.Duration // a session without calls for this long is ended
	maxSessions int           // at this many sessions, a new one ends the least recently used
	drain       time.Duration // once ctx ends, how long the call in flight may take to answer
}

// defaultRunLimits are serve's line limit, the session bounds of the HTTP transport and its drain
// bound.
var defaultRunLimits = runLimits{maxLine: lines.DefaultMaxLine, idle: DefaultSessionIdle, maxSessions: DefaultMaxSessions, drain: drainTimeout}

// Defaults of the run protocol's session bounds (--session-idle, --max-sessions).
const (
	DefaultSessionIdle = 30 * time.Minute
	DefaultMaxSessions = 1024
)

// drainTimeout is how long the call in flight may take to answer once the run ends.
const drainTimeout = 10 * time.Second

// runSession is a named session and when it was last used.
type runSession struct {
	s    engine.Session
	used time.Time
}

func newRunner(eng engine.Engine, defaultCwd *string) *runner {
	return &runner{eng: eng, defaultCwd: defaultCwd, limits: defaultRunLimits, sessions: map[string]*runSession{}}
}

// serve reads input lines until EOF or ctx ends, writing and flushing one output line per input line,
// in order (a line longer than the limit is answered with an error line and skipped). Every session
// it opened is ended before it returns. When ctx ends while a read is blocked, serve returns at once
// and the reading goroutine ends with the next read from in.
func (r *runner) serve(ctx context.Context, in io.Reader, out io.Writer) error {
	defer r.close()
	bw := bufio.NewWriter(out)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	next := make(chan inputLine)
	stop := make(chan struct{})
	defer close(stop)
	go readLines(lines.NewReader(in, r.limits.maxLine), next, stop)
	for {
		var l inputLine
		select {
		case <-ctx.Done():
			return ctx.Err()
		case l = <-next:
		}
		var resp *runResponse
		switch {
		case errors.Is(l.err, lines.ErrTooLong):
			line := invalidLine(runRequest{}, &requestError{fmt.Sprintf(
				"invalid request: the line is longer than %d bytes (the run protocol's limit); it was skipped", r.limits.maxLine)})
			resp = &line
		case l.err == nil: // every line is answered, a blank one with an error line
			line, ok := r.handle(ctx, bytes.TrimRight(l.line, "\r"))
			if !ok {
				return ctx.Err() // the call outlived the drain bound: it is abandoned, unanswered
			}
			resp = &line
		}
		if l.done != nil {
			close(l.done) // the line buffer is the reader's again
		}
		if resp != nil {
			err := enc.Encode(resp)
			if unencodable(err) { // nothing was written: the value or meta has no JSON form
				err = enc.Encode(invalidOutput(*resp))
			}
			if err != nil {
				return fmt.Errorf("run: write result: %w", err)
			}
			if err := bw.Flush(); err != nil {
				return fmt.Errorf("run: write result: %w", err)
			}
		}
		if errors.Is(l.err, io.EOF) {
			return nil
		}
		if l.err != nil && !errors.Is(l.err, lines.ErrTooLong) {
			return fmt.Errorf("run: read input: %w", l.err)
		}
	}
}

// inputLine is one line read from the input (valid until done is closed), or the read error that
// ended it.
type inputLine struct {
	line []byte
	err  error
	done chan struct{}
}

// readLines sends the lines of in until a read fails or stop is closed; each line is handed over
// without a copy and read past only once it is done with.
func readLines(in *lines.Reader, next chan<- inputLine, stop <-chan struct{}) {
	for {
		line, err := in.Next()
		l := inputLine{line: line, err: err}
		if err == nil {
			l.done = make(chan struct{})
		}
		select {
		case next <- l:
		case <-stop:
			return
		}
		if err != nil && !errors.Is(err, lines.ErrTooLong) {
			return
		}
		if l.done != nil {
			select {
			case <-l.done:
			case <-stop:
				return
			}
		}
	}
}

// handle answers one input line; ok is false when ctx ended and the call did not answer within the
// drain bound.
func (r *runner) handle(ctx context.Context, line []byte) (_ runResponse, ok bool) {
	req, err := parseRunLine(line)
	if err != nil {
		return invalidLine(req, err), true
	}
	now := time.Now()
	r.expire(now)
	if req.EndSession != "" {
		return r.endSession(req), true
	}
	var sess engine.Session
	if !req.NoSession {
		sess = r.session(req.Session, now)
		if req.Cwd != nil || req.Model != nil {
			sess.SetHeader(req.Cwd, req.Model)
		}
	}
	out, ok := r.call(ctx, sess, req.Tool, req.Args)
	return toRunResponse(req.ID, req.Tool, out), ok
}

// call runs one tool call on its own goroutine. When ctx ends first (SIGTERM), the call, cancelled
// with it, gets up to the drain bound to answer; one still running then (stuck in a system call,
// or deaf to cancellation) is abandoned, so that no call can keep the process from ending.
func (r *runner) call(ctx context.Context, sess engine.Session, tool string, args json.RawMessage) (tools.Result, bool) {
	done := make(chan tools.Result, 1)
	go func() { done <- r.eng.Call(ctx, sess, tool, args) }()
	select {
	case out := <-done:
		return out, true
	case <-ctx.Done():
	}
	t := time.NewTimer(r.limits.drain)
	defer t.Stop()
	select {
	case out := <-done:
		return out, true
	case <-t.C:
		return tools.Result{}, false
	}
}

// session returns the named session, opening it (with the default cwd) on first use; at the session
// limit the least recently used one is ended first.
func (r *runner) session(name string, now time.Time) engine.Session {
	if rs, ok := r.sessions[name]; ok {
		rs.used = now
		return rs.s
	}
	if len(r.sessions) >= r.limits.maxSessions {
		oldest := ""
		for n, rs := range r.sessions {
			if oldest == "" || rs.used.Before(r.sessions[oldest].used) {
				oldest = n
			}
		}
		r.end(oldest)
	}
	s := r.eng.OpenSession(name)
	if r.defaultCwd != nil {
		s.SetHeader(r.defaultCwd, nil)
	}
	if cr, ok := s.(engine.ClientRecorder); ok && r.client != "" {
		cr.SetClient(r.client, "")
	}
	r.sessions[name] = &runSession{s: s, used: now}
	return s
}

// expire ends the sessions idle for longer than the limit.
func (r *runner) expire(now time.Time) {
	for name, rs := range r.sessions {
		if now.Sub(rs.used) > r.limits.idle {
			r.end(name)
		}
	}
}

func (r *runner) end(name string) {
	if rs, ok := r.sessions[name]; ok {
		rs.s.End()
		delete(r.sessions, name)
	}
}

// endSession answers an end_session line: the session's observations are released; value says
// whether it was open.
func (r *runner) endSession(req runRequest) runResponse {
	_, open := r.sessions[req.EndSession]
	r.end(req.EndSession)
	return runResponse{ID: nullIfEmpty(req.ID), Content: []runBlock{},
		Value: map[string]any{"session": req.EndSession, "ended": open}}
}

func (r *runner) close() {
	for name := range r.sessions {
		r.end(name)
	}
}

// unencodable reports an encoding failure of a value (not of the output stream).
func unencodable(err error) bool {
	var uv *json.UnsupportedValueError
	var ut *json.UnsupportedTypeError
	var me *json.MarshalerError
	return errors.As(err, &uv) || errors.As(err, &ut) || errors.As(err, &me)
}

// invalidOutput is the line of a result whose value or meta JSON cannot encode: the tool's output
// is invalid (INVALID_TOOL_OUTPUT), as the runtime reports a value it cannot render.
func invalidOutput(r runResponse) runResponse {
	tool := ""
	if r.Tool != nil {
		tool = *r.Tool
	}
	return errorLine(r.ID, r.Tool, "Error: tool "+strconv.Quote(tool)+" returned invalid output: value is not lossless JSON",
		tools.CodeInvalidToolOutput, tools.NameToolOutputError)
}

func invalidLine(req runRequest, err error) runResponse {
	var tool *string
	if req.Tool != "" {
		tool = &req.Tool
	}
	return errorLine(nullIfEmpty(req.ID), tool, "Error: "+err.Error(), CodeInvalidRequest, errorNameRequest)
}

// errorLine is a failed call's line: text as its one block, with its code and name.
func errorLine(id json.RawMessage, tool *string, text, code, name string) runResponse {
	return runResponse{ID: id, Tool: tool, IsError: true, Text: text, Content: []runBlock{{Type: "text", Text: &text}},
		Code: &code, ErrorName: &name}
}

// toRunResponse is a result's output line, the one conversion a result takes: the value and meta
// of a success, the code and name of a coded failure.
func toRunResponse(id json.RawMessage, tool string, o tools.Result) runResponse {
	resp := runResponse{
		ID: nullIfEmpty(id), Tool: &tool, IsError: o.IsError, Text: o.Text(), Content: toRunBlocks(o.Content),
	}
	if !o.IsError {
		resp.Value, resp.Meta = o.Value, o.Meta
	}
	if o.Error.HasCode() {
		resp.Code, resp.ErrorName = &o.Error.Code, &o.Error.Name
	}
	return resp
}

// validUTF8 returns the JSON value raw re-encoded with U+FFFD in place of invalid UTF-8 when it has
// any (encoding/json accepts such bytes in strings, but an output line must be UTF-8), otherwise raw
// itself. Numbers keep their spelling.
func validUTF8(raw json.RawMessage) json.RawMessage {
	if utf8.Valid(raw) {
		return raw
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return nil
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

func nullIfEmpty(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("null")
	}
	return raw
}
