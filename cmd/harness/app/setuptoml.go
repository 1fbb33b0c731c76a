package app

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// The Codex configuration is TOML. Setup writes one table, [mcp_servers.cordon], with a minimal
// writer: every other byte of the file is kept as it was (comments, order, spacing), and inside
// the table only the transport keys are replaced (command, args, url, http_headers,
// bearer_token_env_var); other keys the user set there (env, startup_timeout_sec, ...) stay.

// tomlKey is one key = value line: the value a string, a []string or a map[string]string.
type tomlKey struct {
	key   string
	value any
}

// tomlTransportKeys are the keys setup owns in its table.
var tomlTransportKeys = []string{"command", "args", "url", "http_headers", "bearer_token_env_var"}

// tomlString is s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\f':
			b.WriteString(`\f`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if r < 0x20 || r == 0x7f {
				fmt.Fprintf(&b, `\u%04X`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

var bareKey = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

func tomlKeyName(k string) string {
	if bareKey.MatchString(k) {
		return k
	}
	return tomlString(k)
}

// tomlValue encodes a string, a []string or a map[string]string (an inline table, keys sorted).
func tomlValue(v any) string {
	switch v := v.(type) {
	case string:
		return tomlString(v)
	case []string:
		parts := make([]string, len(v))
		for i, s := range v {
			parts[i] = tomlString(s)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]string:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = tomlKeyName(k) + " = " + tomlString(v[k])
		}
		return "{ " + strings.Join(parts, ", ") + " }"
	}
	panic(fmt.Sprintf("tomlValue: %T", v))
}

// tomlTable is the header and key lines of setting s (its value a []tomlKey).
func tomlTable(s setting) (header string, lines []string) {
	segs := make([]string, len(s.path))
	for i, p := range s.path {
		segs[i] = tomlKeyName(p)
	}
	for _, kv := range s.value.([]tomlKey) {
		lines = append(lines, tomlKeyName(kv.key)+" = "+tomlValue(kv.value))
	}
	return "[" + strings.Join(segs, ".") + "]", lines
}

// renderTOML is the settings' tables alone.
func renderTOML(settings []setting) ([]byte, error) {
	var b bytes.Buffer
	for i, s := range settings {
		if i > 0 {
			b.WriteByte('\n')
		}
		header, lines := tomlTable(s)
		b.WriteString(header + "\n" + strings.Join(lines, "\n") + "\n")
	}
	return b.Bytes(), nil
}

// tomlLine is one line of a TOML file: its text without the line ending, the ending, and what it
// is (a table header's normalized name, or the key it sets).
type tomlLine struct {
	text, eol string
	header    string // "mcp_servers.cordon" for [mcp_servers.cordon] or [ mcp_servers."cordon" ]; "" otherwise
	key       string // the first key of a key = value line outside multi-line strings
	cont      bool   // inside a multi-line string or array: part of the value above
}

var headerRE = regexp.MustCompile(`^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$`)

// splitTOML splits data into lines, marking headers, keys and continuation lines (multi-line
// strings, arrays and inline tables spread over lines), and whether the file ends inside one.
func splitTOML(data []byte) ([]tomlLine, bool) {
	var lines []tomlLine
	rest := string(data)
	inString := "" // `"""` or `'''` while inside a multi-line string
	depth := 0     // open [ and { of a value spread over lines
	for rest != "" {
		i := strings.IndexByte(rest, '\n')
		var text, eol string
		if i < 0 {
			text, rest = rest, ""
		} else {
			text, eol, rest = rest[:i], "\n", rest[i+1:]
		}
		if strings.HasSuffix(text, "\r") {
			text, eol = text[:len(text)-1], "\r"+eol
		}
		l := tomlLine{text: text, eol: eol, cont: inString != "" || depth > 0}
		if !l.cont {
			if m := headerRE.FindStringSubmatch(text); m != nil {
				l.header = normalizeTOMLKey(m[1])
			} else if k, _, ok := strings.Cut(text, "="); ok && !strings.HasPrefix(strings.TrimSpace(text), "#") {
				l.key = normalizeTOMLKey(k)
			}
		}
		inString, depth = scanTOMLValue(text, inString, depth, l.cont)
		lines = append(lines, l)
	}
	return lines, inString != "" || depth > 0
}

// scanTOMLValue follows multi-line strings and brackets through one line.
func scanTOMLValue(text, inString string, depth int, cont bool) (string, int) {
	if !cont {
		_, v, ok := strings.Cut(text, "=")
		if !ok {
			return "", 0
		}
		text = v
	}
	for i := 0; i < len(text); i++ {
		if inString != "" {
			if strings.HasPrefix(text[i:], inString) {
				i += 2
				inString = ""
			} else if inString == `"""` && text[i] == '\\' {
				i++
			}
			continue
		}
		switch {
		case strings.HasPrefix(text[i:], `"""`), strings.HasPrefix(text[i:], `'''`):
			inString = text[i : i+3]
			i += 2
		case text[i] == '"':
			for i++; i < len(text) && text[i] != '"'; i++ {
				if text[i] == '\\' {
					i++
				}
			}
		case text[i] == '\'':
			for i++; i < len(text) && text[i] != '\''; i++ {
			}
		case text[i] == '[' || text[i] == '{':
			depth++
		case text[i] == ']' || text[i] == '}':
			depth--
		case text[i] == '#':
			return inString, max(depth, 0)
		}
	}
	return inString, max(depth, 0)
}

// normalizeTOMLKey drops the spaces and quotes of a dotted key (a."b" c -> a.b c): enough to
// recognize the tables and keys setup writes.
func normalizeTOMLKey(k string) string {
	parts := strings.Split(strings.TrimSpace(k), ".")
	for i, p := range parts {
		p = strings.TrimSpace(p)
		if len(p) >= 2 && (p[0] == '"' || p[0] == '\'') && p[len(p)-1] == p[0] {
			p = p[1 : len(p)-1]
		}
		parts[i] = p
	}
	return strings.Join(parts, ".")
}

// mergeTOML writes each setting's table into old and reports whether the file changed. A table
// already there keeps its other keys and everything around it; a missing one is appended. A
// definition setup cannot edit safely (the server as an inline table or dotted key) is an error.
func mergeTOML(old []byte, settings []setting) ([]byte, bool, error) {
	doc := old
	for _, s := range settings {
		var err error
		if doc, err = mergeTOMLTable(doc, s); err != nil {
			return nil, false, err
		}
	}
	return doc, !bytes.Equal(doc, old), nil
}

func mergeTOMLTable(old []byte, s setting) ([]byte, error) {
	header, body := tomlTable(s)
	name := strings.Join(s.path, ".")
	parent := strings.Join(s.path[:len(s.path)-1], ".")
	leaf := s.path[len(s.path)-1]
	lines, open := splitTOML(old)
	if open {
		return nil, fmt.Errorf("the file ends inside a string or array: set the server by hand, as the table %s", header)
	}
	eol := "\n"
	if n := bytes.Count(old, []byte("\n")); n > 0 && bytes.Count(old, []byte("\r\n")) == n { // a CRLF file stays one
		eol = "\r\n"
	}
	table, start := "", -1
	for i, l := range lines {
		if l.header != "" {
			table = l.header
			if table == name && strings.HasPrefix(strings.TrimSpace(l.text), "[[") {
				return nil, fmt.Errorf("[[%s]] is an array of tables: set the server by hand", name)
			}
			if table == name && start < 0 {
				start = i
			}
			continue
		}
		full := l.key
		if table != "" && full != "" {
			full = table + "." + full
		}
		inside := table == name || strings.HasPrefix(table, name+".")
		if full != "" && !inside && (full == name || strings.HasPrefix(full, name+".") || full == parent) {
			return nil, fmt.Errorf("%s is defined as %q, not as the table %s: set the server there by hand", leaf, strings.TrimSpace(l.text), header)
		}
	}
	var out bytes.Buffer
	if start < 0 {
		out.Write(old)
		if len(old) > 0 {
			if !bytes.HasSuffix(old, []byte("\n")) {
				out.WriteString(eol)
			}
			out.WriteString(eol)
		}
		out.WriteString(header + eol)
		for _, b := range body {
			out.WriteString(b + eol)
		}
		return out.Bytes(), nil
	}
	// The table's lines run to the next header; its transport keys (with their continuation
	// lines) give way to the new ones, written where the first of them was.
	end := len(lines)
	for i := start + 1; i < len(lines); i++ {
		if lines[i].header != "" {
			end = i
			break
		}
	}
	insert := start + 1
	var kept []tomlLine
	dropping, placed := false, false
	for i := start + 1; i < end; i++ {
		l := lines[i]
		if l.cont && dropping {
			continue
		}
		dropping = l.key != "" && slices.Contains(tomlTransportKeys, l.key)
		if dropping {
			if !placed {
				insert, placed = start+1+len(kept), true
			}
			continue
		}
		kept = append(kept, l)
	}
	for _, l := range lines[:start+1] {
		out.WriteString(l.text + l.eol)
	}
	if !strings.HasSuffix(out.String(), "\n") {
		out.WriteString(eol)
	}
	for i, l := range kept {
		if start+1+i == insert {
			for _, b := range body {
				out.WriteString(b + eol)
			}
		}
		out.WriteString(l.text + l.eol)
	}
	if insert >= start+1+len(kept) {
		// No transport key was there, or it was last: the keys go after the table's last key,
		// before the blank lines that separate it from the next table.
		trail := out.Len()
		for j := len(kept) - 1; j >= 0 && strings.TrimSpace(kept[j].text) == "" && end < len(lines); j-- {
			trail -= len(kept[j].text) + len(kept[j].eol)
		}
		tail := slices.Clone(out.Bytes()[trail:])
		out.Truncate(trail)
		if out.Len() > 0 && !bytes.HasSuffix(out.Bytes(), []byte("\n")) {
			out.WriteString(eol)
		}
		for _, b := range body {
			out.WriteString(b + eol)
		}
		out.Write(tail)
	}
	for _, l := range lines[end:] {
		out.WriteString(l.text + l.eol)
	}
	return out.Bytes(), nil
}
