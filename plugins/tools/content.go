package tools

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Content block types.
const (
	ContentText  = "text"
	ContentImage = "image"
)

// Content is one model-facing content block: {"type":"text","text"} or
// {"type":"image","mediaType","data"} (data is base64).
type Content struct {
	Type      string
	Text      string
	MediaType string
	Data      string
}

// TextContent returns a text block.
func TextContent(text string) Content { return Content{Type: ContentText, Text: text} }

// ImageContent returns an image block; data is base64-encoded bytes.
func ImageContent(mediaType, data string) Content {
	return Content{Type: ContentImage, MediaType: mediaType, Data: data}
}

// MarshalJSON encodes the block with exactly the fields of its type.
func (c Content) MarshalJSON() ([]byte, error) {
	switch c.Type {
	case ContentImage:
		return json.Marshal(struct {
			Type      string `json:"type"`
			MediaType string `json:"mediaType"`
			Data      string `json:"data"`
		}{c.Type, c.MediaType, c.Data})
	case ContentText:
		return json.Marshal(struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}{c.Type, c.Text})
	}
	return nil, fmt.Errorf("tools: unknown content type %q", c.Type)
}

// UnmarshalJSON decodes a text or image block.
func (c *Content) UnmarshalJSON(data []byte) error {
	var raw struct {
		Type      string `json:"type"`
		Text      string `json:"text"`
		MediaType string `json:"mediaType"`
		Data      string `json:"data"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	*c = Content(raw)
	return nil
}

// ErrorInfo describes a failed call. Message is the text without the
// "Error: " envelope. Name and Code are set together, only when the failure
// carried a code (errors.As found a Coded error); they are "" otherwise.
type ErrorInfo struct {
	Message string
	Name    string
	Code    string
}

// HasCode reports whether the failure carried structured {name, code} info.
func (e *ErrorInfo) HasCode() bool { return e != nil && e.Code != "" }

// Result is the outcome of one call. Execute never returns anything else:
// every failure is a Result with IsError set, exactly one text block
// "Error: <message>" (unless a post-execute policy supplied feedback), and
// Error filled. On success Value is the canonical value the body returned
// (validated against the output schema; treat it as read-only) and Meta the
// presentation meta (top-level calls only; nil when the tool declares none
// or the call set Call.SkipMeta).
type Result struct {
	Content []Content
	IsError bool
	Value   any
	Meta    any
	Error   *ErrorInfo

	canon *Exec // the dispatch that produced this canonical result
}

// Text returns the text blocks joined with "\n".
func (r Result) Text() string {
	parts := make([]string, 0, len(r.Content))
	for _, c := range r.Content {
		if c.Type == ContentText {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// Code returns the structured error code, or "".
func (r Result) Code() string {
	if r.Error == nil {
		return ""
	}
	return r.Error.Code
}

// ErrorResult converts err into the failure envelope: one text block
// "Error: <message>" and ErrorInfo with {name, code} when err's chain holds a
// Coded error.
func ErrorResult(err error) Result {
	msg := "<nil error>"
	if err != nil {
		msg = err.Error()
	}
	info := &ErrorInfo{Message: msg}
	if name, code, ok := infoOf(err); ok {
		info.Name, info.Code = name, code
	}
	return Result{Content: []Content{TextContent("Error: " + msg)}, IsError: true, Error: info}
}

func abortedResult() Result {
	return ErrorResult(NewError(NameAbortError, CodeAborted, "tool call aborted", nil))
}

func abortedBeforeDispatchResult() Result {
	return ErrorResult(NewError(NameAbortError, CodeAbortedBeforeDispatch, "tool call aborted before dispatch", nil))
}

// denialResult is a policy denial: the reason as message, no code.
func denialResult(reason string) Result {
	return Result{Content: []Content{TextContent("Error: " + reason)}, IsError: true, Error: &ErrorInfo{Message: reason}}
}

func cloneResult(r Result) Result {
	if r.Content != nil {
		r.Content = append([]Content(nil), r.Content...)
	}
	if r.Error != nil {
		e := *r.Error
		r.Error = &e
	}
	return r
}
