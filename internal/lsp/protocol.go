package lsp

import (
	"encoding/json"
	"net/url"
	"path/filepath"
	"strings"
)

// The diagnostic severities.
const (
	SeverityError       = 1
	SeverityWarning     = 2
	SeverityInformation = 3
	SeverityHint        = 4
)

// Position is a zero-based line and UTF-16 character offset.
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// Range is a span of a document.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// Diagnostic is one problem a server reports. Code is a number or a string, kept as given.
type Diagnostic struct {
	Range    Range           `json:"range"`
	Severity int             `json:"severity,omitempty"`
	Code     json.RawMessage `json:"code,omitempty"`
	Source   string          `json:"source,omitempty"`
	Message  string          `json:"message"`
}

// CodeString returns the diagnostic's code as text ("" when it has none).
func (d Diagnostic) CodeString() string {
	var s string
	if json.Unmarshal(d.Code, &s) == nil {
		return s
	}
	return strings.TrimSpace(string(d.Code))
}

// FileEvent is one entry of workspace/didChangeWatchedFiles.
type FileEvent struct {
	URI  string `json:"uri"`
	Type int    `json:"type"`
}

// The FileEvent types.
const (
	FileCreated = 1
	FileChanged = 2
	FileDeleted = 3
)

// URI returns the file URI of an absolute path.
func URI(path string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

// Canonical returns a file URI spelled as URI spells it (servers escape differently: "=" may come
// back as "%3D"), or uri itself when it is not a file URI.
func Canonical(uri string) string {
	if p := Path(uri); p != "" {
		return URI(p)
	}
	return uri
}

// Path returns the local path of a file URI, or "" when uri is not one.
func Path(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return ""
	}
	return filepath.FromSlash(u.Path)
}
