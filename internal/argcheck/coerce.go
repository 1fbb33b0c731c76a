package argcheck

import (
	"encoding/json"
	"strings"
)

// Coerce takes arguments as models send them (docs/tools.md "Arguments as models send them"):
// where s expects a number or an integer, a string that is exactly a JSON number (no spaces, no
// sign but a leading '-', lossless: finite, not negative zero) is taken as that number; where it
// expects a boolean, "true" and "false" are taken as true and false. It returns the arguments'
// JSON text with those strings replaced, and ok false (and no text) when none was. Anything else is
// left as it is, for Check to refuse with its own message. A oneOf is left alone (its branches may
// disagree on the type).
func (s *Schema) Coerce(v *Value) (text json.RawMessage, ok bool) {
	if !coercible(s, v) {
		return nil, false
	}
	var sb strings.Builder
	writeCoerced(&sb, s, v)
	return json.RawMessage(sb.String()), true
}

// coerced returns the value a string v stands for where node expects a number, an integer or a
// boolean, or nil.
func coerced(node *Schema, v *Value) *Value {
	if node == nil || node.oneOf != nil || v.kind != jString {
		return nil
	}
	switch node.typ {
	case "number", "integer":
		if v.str == "" || !(v.str[0] == '-' || v.str[0] >= '0' && v.str[0] <= '9') {
			return nil
		}
		last := v.str[len(v.str)-1]
		if last < '0' || last > '9' {
			return nil
		}
		n, err := Parse([]byte(v.str))
		if err != nil || n.kind != jNumber {
			return nil
		}
		return n
	case "boolean":
		switch v.str {
		case "true":
			return &Value{kind: jBool, b: true}
		case "false":
			return &Value{kind: jBool}
		}
	}
	return nil
}

// coercible reports whether Coerce would replace a string of v.
func coercible(node *Schema, v *Value) bool {
	if node == nil || node.oneOf != nil {
		return false
	}
	switch {
	case coerced(node, v) != nil:
		return true
	case node.typ == "object" && v.kind == jObject:
		for _, key := range node.propKeys {
			if child, ok := v.obj[key]; ok && coercible(node.props[key], child) {
				return true
			}
		}
	case node.typ == "array" && v.kind == jArray && node.items != nil:
		for _, item := range v.arr {
			if coercible(node.items, item) {
				return true
			}
		}
	}
	return false
}

// writeCoerced writes v as compact JSON text, with the strings node takes as numbers or booleans
// replaced (numbers keep the text they were sent as).
func writeCoerced(sb *strings.Builder, node *Schema, v *Value) {
	if node != nil && node.oneOf == nil {
		if c := coerced(node, v); c != nil {
			if c.kind == jNumber {
				sb.WriteString(v.str)
			} else {
				writeJSON(sb, nil, c)
			}
			return
		}
	}
	writeJSON(sb, node, v)
}

// writeJSON writes v as compact JSON text, its members and items through writeCoerced under node's
// properties and items (node nil: as they are).
func writeJSON(sb *strings.Builder, node *Schema, v *Value) {
	if node != nil && node.oneOf != nil {
		node = nil
	}
	if v.kind == jNumber && v.raw != nil {
		sb.Write(v.raw)
		return
	}
	writeJSWith(sb, v, func(sb *strings.Builder, key string, item *Value) {
		var child *Schema
		switch {
		case node == nil:
		case node.typ == "array" && v.kind == jArray:
			child = node.items
		case node.typ == "object" && v.kind == jObject:
			child = node.props[key]
		}
		writeCoerced(sb, child, item)
	})
}
