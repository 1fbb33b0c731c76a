package app

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"unicode/utf8"
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

func toRunBlocks(bs []block) []runBlock {
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
	eng        engine
	sessions   map[string]session
	defaultCwd *string
}

func newRunner(eng engine, defaultCwd *string) *runner {
	return &runner{eng: eng, sessions: map[string]session{}, defaultCwd: defaultCwd}
}

// serve reads input lines until EOF or ctx ends, writing and flushing one output line per input line,
// in order. Every session it opened is ended before it returns. When ctx ends while a read is
// blocked, serve returns at once and the reading goroutine ends with the next read from in.
func (r *runner) serve(ctx context.Context, in io.Reader, out io.Writer) error {
	defer r.close()
	bw := bufio.NewWriter(out)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	lines := make(chan inputLine)
	stop := make(chan struct{})
	defer close(stop)
	go readLines(in, lines, stop)
	for {
		var next inputLine
		select {
		case <-ctx.Done():
			return ctx.Err()
		case next = <-lines:
		}
		if len(next.line) > 0 {
			if err := enc.Encode(r.handle(ctx, bytes.TrimRight(next.line, "\r\n"))); err != nil {
				return fmt.Errorf("run: write result: %w", err)
			}
			if err := bw.Flush(); err != nil {
				return fmt.Errorf("run: write result: %w", err)
			}
		}
		if errors.Is(next.err, io.EOF) {
			return nil
		}
		if next.err != nil {
			return fmt.Errorf("run: read input: %w", next.err)
		}
	}
}

// inputLine is one line read from the input (with its newline), or the read error that ended it.
type inputLine struct {
	line []byte
	err  error
}

// readLines sends the lines of in until a read fails or stop is closed.
func readLines(in io.Reader, lines chan<- inputLine, stop <-chan struct{}) {
	br := bufio.NewReaderSize(in, 64<<10)
	for {
		line, err := br.ReadBytes('\n')
		select {
		case lines <- inputLine{line, err}:
		case <-stop:
			return
		}
		if err != nil {
			return
		}
	}
}

// handle answers one input line.
func (r *runner) handle(ctx context.Context, line []byte) runResponse {
	req, err := parseRunLine(line)
	if err != nil {
		return invalidLine(req, err)
	}
	var sess session
	if !req.NoSession {
		sess = r.session(req.Session)
		if req.Cwd != nil || req.Model != nil {
			sess.SetHeader(req.Cwd, req.Model)
		}
	}
	return toRunResponse(req.ID, req.Tool, r.eng.Call(ctx, sess, req.Tool, req.Args))
}

// session returns the named session, opening it (with the default cwd) on first use.
func (r *runner) session(name string) session {
	if s, ok := r.sessions[name]; ok {
		return s
	}
	s := r.eng.OpenSession(name)
	if r.defaultCwd != nil {
		s.SetHeader(r.defaultCwd, nil)
	}
	r.sessions[name] = s
	return s
}

func (r *runner) close() {
	for name, s := range r.sessions {
		s.End()
		delete(r.sessions, name)
	}
}

func invalidLine(req runRequest, err error) runResponse {
	text := "Error: " + err.Error()
	code, name := CodeInvalidRequest, errorNameRequest
	var tool *string
	if req.Tool != "" {
		tool = &req.Tool
	}
	return runResponse{
		ID: nullIfEmpty(req.ID), Tool: tool, IsError: true, Text: text,
		Content: []runBlock{{Type: "text", Text: &text}}, Code: &code, ErrorName: &name,
	}
}

func toRunResponse(id json.RawMessage, tool string, o outcome) runResponse {
	resp := runResponse{
		ID: nullIfEmpty(id), Tool: &tool, IsError: o.IsError, Text: o.text(), Content: toRunBlocks(o.Content),
		Value: o.Value, Meta: o.Meta,
	}
	if o.Code != "" {
		resp.Code = &o.Code
	}
	if o.ErrorName != "" {
		resp.ErrorName = &o.ErrorName
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
