package argcheck

import (
	"encoding/json"

	"github.com/cordon-dev/cordon/internal/texts"
)

// pathName names the value at path in a message: quoted verbatim (no escaping), the parameter root
// as "arguments".
func pathName(path string) string {
	if path == "" {
		return `"arguments"`
	}
	return `"` + path + `"`
}

// propertyPath is the path of key in the object at path.
func propertyPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// checkValue returns every violation of v against node, in walk order, with
// the messages of docs/tools.md. path "" is the parameter root ("arguments"); its name in a
// message (pathName) is made only when there is a violation to report. With coerce non-nil, a
// string Coerce takes as a number or a boolean is checked as that value, and *coerce is set.
func checkValue(node *Schema, v *Value, path string, coerce *bool) []string {
	if node.oneOf != nil {
		matches := 0
		for _, branch := range node.oneOf {
			if len(checkValue(branch, v, path, nil)) == 0 {
				matches++
			}
		}
		if matches == 1 {
			return nil
		}
		return []string{pathName(path) + " must match exactly one oneOf branch (matched " + itoa(matches) + ")"}
	}
	if coerce != nil && v.kind == jString && (node.typ == "number" || node.typ == "integer" || node.typ == "boolean") {
		if c := coerced(node, v); c != nil {
			*coerce, v = true, c
		}
	}
	switch node.typ {
	case "":
		return nil
	case "object":
		if v.kind != jObject {
			return []string{pathName(path) + " must be an object"}
		}
		var out []string
		for _, key := range node.required {
			if _, ok := v.obj[key]; !ok {
				out = append(out, `missing required property "`+propertyPath(path, key)+`"`)
			}
		}
		for _, key := range node.propKeys {
			child, ok := v.obj[key]
			if !ok {
				continue
			}
			out = append(out, checkValue(node.props[key], child, propertyPath(path, key), coerce)...)
		}
		if node.closed {
			for _, key := range v.keys {
				if _, declared := node.props[key]; !declared {
					out = append(out, `"`+propertyPath(path, key)+`" is not a declared property (additionalProperties: false)`)
				}
			}
		}
		return out
	case "array":
		if v.kind != jArray {
			return []string{pathName(path) + " must be an array"}
		}
		if node.items == nil {
			return nil
		}
		var out []string
		for i, item := range v.arr {
			out = append(out, checkValue(node.items, item, path+"["+itoa(i)+"]", coerce)...)
		}
		return out
	case "string":
		if v.kind != jString {
			return []string{pathName(path) + " must be a string"}
		}
	case "number":
		if v.kind != jNumber {
			return []string{pathName(path) + " must be a number"}
		}
		if !isJSONNumber(v) {
			return []string{pathName(path) + " must be a finite JSON number"}
		}
	case "integer":
		if !isJSONNumber(v) || !texts.IsInteger(v.num) {
			return []string{pathName(path) + " must be an integer"}
		}
	case "boolean":
		if v.kind != jBool {
			return []string{pathName(path) + " must be a boolean"}
		}
	case "null":
		if v.kind != jNull {
			return []string{pathName(path) + " must be null"}
		}
	}
	return checkScalar(node, v, path)
}

// checkScalar checks v against node's enum and const; the value's name (pathName) is made only for
// a violation.
func checkScalar(node *Schema, v *Value, path string) []string {
	if node.hasEnum {
		found := false
		for _, e := range node.enum {
			if scalarEqual(e, v) {
				found = true
				break
			}
		}
		if !found {
			return []string{pathName(path) + " must be one of " + jsStringify(&Value{kind: jArray, arr: node.enum})}
		}
	}
	if node.hasConst && !scalarEqual(node.constV, v) {
		return []string{pathName(path) + " must be " + jsStringify(node.constV)}
	}
	return nil
}

// Check returns every violation of v against s, in walk order, with the
// messages docs/tools.md lists; nil means v conforms. The
// root is named "arguments".
func (s *Schema) Check(v *Value) []string { return checkValue(s, v, "", nil) }

// CheckAsSent is Coerce and then Check in one walk: the violations of v as Coerce takes it, and,
// when they are none and Coerce replaced a string, the coerced arguments' text and parsed value
// (nil, nil when nothing was coerced: v stands as it is).
func (s *Schema) CheckAsSent(v *Value) (violations []string, text json.RawMessage, cv *Value) {
	coerce := false
	if violations = checkValue(s, v, "", &coerce); len(violations) > 0 || !coerce {
		return violations, nil, nil
	}
	text, _ = s.Coerce(v)
	if cv, err := Parse(text); err == nil {
		return nil, text, cv
	}
	return s.Check(v), nil, nil
}

// Validate compiles schema (any root type) and checks args against it, as
// Check does. args may be JSON text ([]byte, json.RawMessage) or a Go value
// (maps, slices, scalars, structs), which is not held to the lossless gate: a
// non-finite number is reported as a violation. Arguments that are not JSON
// are the one violation `"arguments" must be a lossless JSON value`. The
// error is Compile's.
func Validate(schema json.RawMessage, args any) ([]string, error) {
	node, err := Compile(schema, false)
	if err != nil {
		return nil, err
	}
	var v *Value
	switch a := args.(type) {
	case []byte:
		v, err = Parse(a)
	default:
		v, err = fromGo(args)
	}
	if err != nil {
		return []string{`"arguments" must be a lossless JSON value`}, nil
	}
	return checkValue(node, v, "", nil), nil
}
