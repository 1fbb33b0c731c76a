package loader

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// Entry is one row of a composition: which catalog module to load, under which id, with which
// config. Entry order is composition order (the rank of the entry's listeners).
type Entry struct {
	// ID is the stable identity of the entry. When empty, Apply and Dump use the name, or name#n
	// for the n-th id-less entry of that name (skipping ids taken by other entries).
	ID string
	// Name is the catalog id of the module.
	Name string
	// Config is the raw YAML config, decoded strictly into the module's NewConfig value. The zero
	// Node (no config key) and null both mean "defaults".
	Config yaml.Node
	// Disabled keeps the entry in the composition without loading it.
	Disabled bool
}

// entryKeys are the accepted keys of an entry, in dump order.
var entryKeys = []string{"id", "name", "disabled", "config"}

// document is the top level of a composition file.
type document struct {
	Plugins []yaml.Node `yaml:"plugins"`
}

// Parse decodes a composition (a mapping with a single `plugins:` list) strictly: unknown keys at
// the top level or in an entry are errors. Empty input is an empty composition. Errors about one
// entry are *EntryError values, joined with errors.Join when there are several.
func Parse(data []byte) ([]Entry, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var doc document
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, fmt.Errorf("composition: %w", translate(err, nil, "composition", []string{"plugins"}))
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, errors.New("composition: more than one YAML document")
	}
	entries := make([]Entry, 0, len(doc.Plugins))
	var errs []error
	for i := range doc.Plugins {
		e, err := parseEntry(i, &doc.Plugins[i])
		if err != nil {
			errs = append(errs, err)
			continue
		}
		entries = append(entries, e)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return entries, nil
}

// parseEntry walks one entry mapping by hand so that every error names the entry.
func parseEntry(i int, n *yaml.Node) (Entry, error) {
	n = deref(n)
	var e Entry
	if n.Kind != yaml.MappingNode {
		return e, &EntryError{Index: i, Err: &SyntaxError{Line: n.Line, Msg: "an entry must be a mapping"}}
	}
	// First pass: id and name, so that later errors can name the entry.
	for k := 0; k+1 < len(n.Content); k += 2 {
		v := deref(n.Content[k+1])
		if v.Kind != yaml.ScalarNode {
			continue
		}
		switch n.Content[k].Value {
		case "id":
			e.ID = v.Value
		case "name":
			e.Name = v.Value
		}
	}
	var errs []error
	seen := map[string]bool{}
	for k := 0; k+1 < len(n.Content); k += 2 {
		key, val := deref(n.Content[k]), n.Content[k+1]
		if seen[key.Value] {
			errs = append(errs, &SyntaxError{Line: key.Line, Msg: fmt.Sprintf("key %q given twice", key.Value)})
			continue
		}
		seen[key.Value] = true
		switch key.Value {
		case "id", "name":
			if v := deref(val); v.Kind != yaml.ScalarNode || v.Tag == "!!null" || v.Value == "" {
				errs = append(errs, &SyntaxError{Line: v.Line, Msg: key.Value + " must be a non-empty string"})
			}
		case "config":
			e.Config = *val
		case "disabled":
			if err := val.Decode(&e.Disabled); err != nil {
				errs = append(errs, &SyntaxError{Line: val.Line, Msg: "disabled must be true or false"})
			}
		default:
			errs = append(errs, &UnknownKeyError{Key: key.Value, Line: key.Line, In: "entry", Known: entryKeys})
		}
	}
	if !seen["name"] {
		errs = append(errs, &SyntaxError{Line: n.Line, Msg: ErrNoName.Error()})
	}
	if len(errs) > 0 {
		return e, &EntryError{Index: i, ID: e.ID, Name: e.Name, Err: errors.Join(errs...)}
	}
	return e, nil
}

// deref follows an alias node to its anchor.
func deref(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

var (
	unknownFieldRe = regexp.MustCompile(`^line (\d+): field (.+) not found in type (.+)$`)
	lineRe         = regexp.MustCompile(`^line (\d+): (.*)$`)
)

// translate turns a yaml.TypeError into UnknownKeyError and SyntaxError values. lines maps a line of
// the decoded text to a line of the original source (nil: identity). in names the target when the
// message does not (top level); known lists the accepted keys for that case.
func translate(err error, lines map[int]int, in string, known []string) error {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		return err
	}
	mapLine := func(s string) int {
		n, _ := strconv.Atoi(s)
		if lines == nil {
			return n
		}
		return lines[n]
	}
	errs := make([]error, 0, len(te.Errors))
	for _, msg := range te.Errors {
		if m := unknownFieldRe.FindStringSubmatch(msg); m != nil {
			u := &UnknownKeyError{Key: m[2], Line: mapLine(m[1]), In: m[3]}
			if in != "" {
				u.In, u.Known = in, known
			}
			errs = append(errs, u)
			continue
		}
		if m := lineRe.FindStringSubmatch(msg); m != nil {
			errs = append(errs, &SyntaxError{Line: mapLine(m[1]), Msg: m[2]})
			continue
		}
		errs = append(errs, &SyntaxError{Msg: msg})
	}
	return errors.Join(errs...)
}
