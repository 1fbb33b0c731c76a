package toolfs

import (
	"encoding/json"
	"regexp"

	"github.com/cordon-dev/cordon/internal/texts"
	"github.com/cordon-dev/cordon/plugins/tools"
)

// The UI presenters of the three tools (docs/tool-fs.md "For Go hosts and user interfaces"): pure,
// replay-safe functions of the logged arguments and result that a user interface may use to draw a
// call and its result. They never fail: arguments that do not match the tool's parameter schema,
// error results and malformed meta make them decline (nil), and the caller falls back to a generic
// rendering. Nothing in the model-facing path uses them.

// Card kinds of the views.
const (
	CardGeneric = "generic"
	CardDiff    = "diff"
	CardRead    = "read"
)

// Location is a place in a file a UI may follow along to; Line is absent for whole-file views.
type Location struct {
	Path string   `json:"path"`
	Line *float64 `json:"line,omitempty"`
}

// CallView is the view of a pending call: a generic card (read, with Kind "read") or a diff card
// (write and edit, with Diffs).
type CallView struct {
	Card      string     `json:"card"`
	Title     string     `json:"title"`
	Kind      string     `json:"kind,omitempty"`
	Diffs     []FileDiff `json:"diffs,omitempty"`
	Locations []Location `json:"locations"`
}

// ReadResultView is the view of a completed read: the structured window from the meta, plus the
// model-facing text without its envelope as a fallback Content.
type ReadResultView struct {
	Card       string          `json:"card"`
	Path       string          `json:"path"`
	Offset     int             `json:"offset"`
	Lines      []Line          `json:"lines"`
	TotalLines int             `json:"totalLines"`
	Lang       string          `json:"lang,omitempty"`
	Content    []tools.Content `json:"content"`
}

// DiffResultView is the view of a completed write or edit.
type DiffResultView struct {
	Card  string     `json:"card"`
	Title string     `json:"title"`
	Diffs []FileDiff `json:"diffs"`
}

// presentArgs decodes args after checking them against schema; ok is false on any violation.
func presentArgs(schema json.RawMessage, args json.RawMessage, dst any) bool {
	violations, err := tools.ValidateArgs(schema, []byte(args))
	if err != nil || len(violations) > 0 {
		return false
	}
	return json.Unmarshal(args, dst) == nil
}

// PresentReadCall returns the card of a pending read: `Read <file_path>` plus ` (<o> - <o+limit-1>)`
// when a positive limit is given (o = offset, default 1), else ` (from line <offset>)` when only an
// offset is given; the location is the offset line (default 1). It uses the raw arguments, never
// the configured default limit.
func PresentReadCall(args json.RawMessage) *CallView {
	var a struct {
		FilePath string   `json:"file_path"`
		Offset   *float64 `json:"offset"`
		Limit    *float64 `json:"limit"`
	}
	if !presentArgs(readParameters(DefaultReadLimit), args, &a) {
		return nil
	}
	line := 1.0
	if a.Offset != nil {
		line = *a.Offset
	}
	window := ""
	switch {
	case a.Limit != nil && *a.Limit > 0:
		window = " (" + texts.Number(line) + " - " + texts.Number(line+*a.Limit-1) + ")"
	case a.Offset != nil:
		window = " (from line " + texts.Number(*a.Offset) + ")"
	}
	return &CallView{Card: CardGeneric, Title: "Read " + a.FilePath + window, Kind: "read",
		Locations: []Location{{Path: a.FilePath, Line: &line}}}
}

// PresentWriteCall returns the diff card of a pending write: the whole new content against no old
// text (the call cannot know the prior content).
func PresentWriteCall(args json.RawMessage) *CallView {
	var a struct {
		FilePath string `json:"file_path"`
		Content  string `json:"content"`
	}
	if !presentArgs(writeParameters, args, &a) {
		return nil
	}
	return &CallView{Card: CardDiff, Title: "Write " + a.FilePath,
		Diffs: []FileDiff{{Path: a.FilePath, OldText: nil, NewText: a.Content}}, Locations: []Location{{Path: a.FilePath}}}
}

// PresentEditCall returns the diff card of a pending edit: old_string against new_string, with an
// empty old_string shown as no old text.
func PresentEditCall(args json.RawMessage) *CallView {
	var a struct {
		FilePath  string `json:"file_path"`
		OldString string `json:"old_string"`
		NewString string `json:"new_string"`
	}
	if !presentArgs(editParameters, args, &a) {
		return nil
	}
	d := FileDiff{Path: a.FilePath, NewText: a.NewString}
	if a.OldString != "" {
		d.OldText = &a.OldString
	}
	return &CallView{Card: CardDiff, Title: "Edit " + a.FilePath, Diffs: []FileDiff{d}, Locations: []Location{{Path: a.FilePath}}}
}

// readEnvelope matches the model-facing text of a successful read; group 1 is the body.
var readEnvelope = regexp.MustCompile(`(?s)\A<path>[^\n]*</path>\n<type>file</type>\n<content>\n(.*)\n</content>\z`)

// PresentReadResult returns the read card of a completed read, or nil for an error result, a meta
// that ReadMetaFromMeta refuses, or content that is not exactly one text block in the read
// envelope.
func PresentReadResult(args json.RawMessage, r tools.Result) *ReadResultView {
	var a struct{}
	if r.IsError || !presentArgs(readParameters(DefaultReadLimit), args, &a) {
		return nil
	}
	meta, ok := ReadMetaFromMeta(r.Meta)
	if !ok || len(r.Content) != 1 || r.Content[0].Type != tools.ContentText {
		return nil
	}
	m := readEnvelope.FindStringSubmatch(r.Content[0].Text)
	if m == nil {
		return nil
	}
	return &ReadResultView{Card: CardRead, Path: meta.Path, Offset: meta.Offset, Lines: meta.Lines,
		TotalLines: meta.TotalLines, Lang: meta.Lang, Content: []tools.Content{tools.TextContent(m[1])}}
}

// PresentWriteResult returns the diff card of a completed write: the meta's hunks, or the whole
// new content against no old text when the meta has none (a create, an identical overwrite, a
// declined basis, a malformed meta). It declines for an error result.
func PresentWriteResult(args json.RawMessage, r tools.Result) *DiffResultView {
	var a struct {
		FilePath string `json:"file_path"`
		Content  string `json:"content"`
	}
	if r.IsError || !presentArgs(writeParameters, args, &a) {
		return nil
	}
	diffs := DiffsFromMeta(r.Meta)
	if diffs == nil {
		diffs = []FileDiff{{Path: a.FilePath, OldText: nil, NewText: a.Content}}
	}
	return &DiffResultView{Card: CardDiff, Title: "Write " + a.FilePath, Diffs: diffs}
}

// PresentEditResult returns the diff card of a completed edit from the meta's hunks; it declines
// for an error result and when the meta has no valid hunks (an edit has no whole-file fallback).
func PresentEditResult(args json.RawMessage, r tools.Result) *DiffResultView {
	var a struct {
		FilePath string `json:"file_path"`
	}
	if r.IsError || !presentArgs(editParameters, args, &a) {
		return nil
	}
	diffs := DiffsFromMeta(r.Meta)
	if diffs == nil {
		return nil
	}
	return &DiffResultView{Card: CardDiff, Title: "Edit " + a.FilePath, Diffs: diffs}
}

// genericJSON turns a live or replayed meta into plain JSON values (maps, slices, float64,
// string, bool, nil); ok is false when it is not JSON.
func genericJSON(meta any) (any, bool) {
	if meta == nil {
		return nil, false
	}
	b, err := json.Marshal(meta)
	if err != nil {
		return nil, false
	}
	var v any
	if json.Unmarshal(b, &v) != nil {
		return nil, false
	}
	return v, true
}

// DiffsFromMeta narrows a write or edit meta (live or replayed) to its hunks: an object whose
// "diffs" is a non-empty array of objects with a string path, a string-or-null oldText and a
// string newText. Anything else yields nil.
func DiffsFromMeta(meta any) []FileDiff {
	v, ok := genericJSON(meta)
	obj, isObj := v.(map[string]any)
	if !ok || !isObj {
		return nil
	}
	list, _ := obj["diffs"].([]any)
	if len(list) == 0 {
		return nil
	}
	out := make([]FileDiff, 0, len(list))
	for _, item := range list {
		d, _ := item.(map[string]any)
		path, okPath := d["path"].(string)
		newText, okNew := d["newText"].(string)
		old, present := d["oldText"]
		if d == nil || !okPath || !okNew || !present {
			return nil
		}
		fd := FileDiff{Path: path, NewText: newText}
		switch o := old.(type) {
		case nil:
		case string:
			fd.OldText = &o
		default:
			return nil
		}
		out = append(out, fd)
	}
	return out
}

// ReadMetaFromMeta narrows a read meta (live or replayed) to a window: path a string; offset an
// integer >= 1; totalLines an integer >= 0; lines {number: integer >= 1, text: string} objects
// whose numbers strictly increase from offset on and never exceed totalLines; lang, when present,
// a string.
func ReadMetaFromMeta(meta any) (ReadMeta, bool) {
	v, ok := genericJSON(meta)
	obj, isObj := v.(map[string]any)
	if !ok || !isObj {
		return ReadMeta{}, false
	}
	path, okPath := obj["path"].(string)
	offset, okOffset := metaInt(obj["offset"], 1)
	total, okTotal := metaInt(obj["totalLines"], 0)
	list, okLines := obj["lines"].([]any)
	if !okPath || !okOffset || !okTotal || !okLines {
		return ReadMeta{}, false
	}
	m := ReadMeta{Path: path, Offset: offset, TotalLines: total, Lines: make([]Line, 0, len(list))}
	if lang, present := obj["lang"]; present {
		s, isString := lang.(string)
		if !isString {
			return ReadMeta{}, false
		}
		m.Lang = s
	}
	previous := offset - 1
	for _, item := range list {
		l, _ := item.(map[string]any)
		n, okN := metaInt(l["number"], 1)
		text, okText := l["text"].(string)
		if l == nil || !okN || !okText || n <= previous || n > total {
			return ReadMeta{}, false
		}
		previous = n
		m.Lines = append(m.Lines, Line{Number: n, Text: text})
	}
	return m, true
}

// metaInt reads a JSON number that is an integer >= lowest (and small enough for an int).
func metaInt(v any, lowest int) (int, bool) {
	f, ok := v.(float64)
	if !ok || !texts.IsInteger(f) || f < float64(lowest) || f > maxSafeInteger {
		return 0, false
	}
	return int(f), true
}
