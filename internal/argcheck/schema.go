package argcheck

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/cordon-dev/cordon/internal/texts"
)

// Schema is a compiled schema (Compile), one node of the enforced JSON Schema
// subset: one scalar type or oneOf, object properties / required / boolean
// additionalProperties, array items, scalar enum / const, and annotations.
type Schema struct {
	typ      string // "" when the node has no type (oneOf or unconstrained)
	oneOf    []*Schema
	propKeys []string
	props    map[string]*Schema
	required []string
	closed   bool // additionalProperties: false
	items    *Schema
	enum     []*Value
	hasEnum  bool
	constV   *Value
	hasConst bool
}

var schemaTypes = []string{"object", "array", "string", "number", "integer", "boolean", "null"}

var constraintKeywords = map[string]bool{
	"type": true, "oneOf": true, "properties": true, "required": true,
	"additionalProperties": true, "items": true, "enum": true, "const": true,
}

var annotationKeywords = map[string]bool{"description": true, "title": true, "default": true, "examples": true}

var oneOfSiblings = []string{"properties", "required", "additionalProperties", "items", "enum", "const"}

var scalarTypes = []string{"string", "number", "integer", "boolean", "null"}

// SchemaError is Compile's refusal of a schema outside the subset: every
// violation, in walk order, with the messages of docs/tools.md.
type SchemaError struct {
	Violations []string
}

// Error returns `unsupported JSON schema: <v1>; <v2>`.
func (e *SchemaError) Error() string {
	return "unsupported JSON schema: " + strings.Join(e.Violations, "; ")
}

// Compile parses and checks a raw schema; the error is a *SchemaError.
// objectRoot additionally requires type "object" at the root (tool
// parameters).
func Compile(raw json.RawMessage, objectRoot bool) (*Schema, error) {
	v, err := Parse(raw)
	if err != nil {
		return nil, &SchemaError{Violations: []string{"schema must be lossless JSON"}}
	}
	var violations []string
	node := checkSchema(v, "schema", &violations)
	if len(violations) == 0 && objectRoot && node.typ != "object" {
		violations = append(violations, `schema.type must be "object" (tool parameters are object-rooted)`)
	}
	if len(violations) > 0 {
		return nil, &SchemaError{Violations: violations}
	}
	return node, nil
}

func scalarMatches(typ string, v *Value) bool {
	switch typ {
	case "string":
		return v.kind == jString
	case "number":
		return isJSONNumber(v)
	case "integer":
		return isJSONNumber(v) && texts.IsInteger(v.num)
	case "boolean":
		return v.kind == jBool
	case "null":
		return v.kind == jNull
	}
	return false
}

// checkSchema compiles v, appending every violation of the subset in walk
// order (docs/tools.md "The schema subset" lists the messages).
func checkSchema(v *Value, path string, violations *[]string) *Schema {
	add := func(s string) { *violations = append(*violations, s) }
	node := &Schema{}
	if v.kind != jObject {
		add(path + " must be a schema object")
		return node
	}
	for _, key := range v.keys {
		if constraintKeywords[key] || annotationKeywords[key] {
			continue
		}
		add(path + "." + key + " is not a supported keyword (subset: type/oneOf/properties/required/additionalProperties/items/enum/const + annotations)")
	}
	if d, ok := v.obj["description"]; ok && d.kind != jString {
		add(path + ".description must be a string")
	}
	if t, ok := v.obj["title"]; ok && t.kind != jString {
		add(path + ".title must be a string")
	}
	typ, hasType := v.obj["type"]
	oneOf, hasOneOf := v.obj["oneOf"]
	if hasType && hasOneOf {
		add(path + " cannot declare both type and oneOf")
		return node
	}
	if !hasType && !hasOneOf {
		for _, key := range oneOfSiblings {
			if _, ok := v.obj[key]; ok {
				add(path + "." + key + " requires type or oneOf")
			}
		}
		return node
	}
	if hasOneOf {
		if oneOf.kind != jArray || len(oneOf.arr) < 2 {
			add(path + ".oneOf must be an array of at least two schemas")
		} else {
			for i, branch := range oneOf.arr {
				node.oneOf = append(node.oneOf, checkSchema(branch, path+".oneOf["+itoa(i)+"]", violations))
			}
		}
		for _, key := range oneOfSiblings {
			if _, ok := v.obj[key]; ok {
				add(path + "." + key + " is not supported beside oneOf")
			}
		}
		return node
	}
	if typ.kind != jString || !slices.Contains(schemaTypes, typ.str) {
		if typ.kind == jArray {
			add(path + ".type must be a single type string (type arrays are not supported)")
		} else {
			add(path + ".type must be one of " + strings.Join(schemaTypes, "/"))
		}
		return node
	}
	node.typ = typ.str
	allowedFor := []struct {
		key   string
		types []string
	}{
		{"properties", []string{"object"}},
		{"required", []string{"object"}},
		{"additionalProperties", []string{"object"}},
		{"items", []string{"array"}},
		{"enum", scalarTypes},
		{"const", scalarTypes},
	}
	for _, a := range allowedFor {
		if _, ok := v.obj[a.key]; ok && !slices.Contains(a.types, node.typ) {
			add(path + "." + a.key + ` is not supported on type "` + node.typ + `"`)
		}
	}
	switch node.typ {
	case "object":
		node.props = map[string]*Schema{}
		props, hasProps := v.obj["properties"]
		if hasProps {
			if props.kind != jObject {
				add(path + ".properties must be an object of schemas")
			} else {
				for _, key := range props.keys {
					node.propKeys = append(node.propKeys, key)
					node.props[key] = checkSchema(props.obj[key], path+".properties."+key, violations)
				}
			}
		}
		if req, ok := v.obj["required"]; ok {
			valid := req.kind == jArray
			if valid {
				for _, e := range req.arr {
					if e.kind != jString {
						valid = false
					}
				}
			}
			if !valid {
				add(path + ".required must be an array of strings")
			} else {
				for _, e := range req.arr {
					if _, declared := node.props[e.str]; !declared {
						add(path + `.required names "` + e.str + `" which is not in properties`)
					}
					node.required = append(node.required, e.str)
				}
			}
		}
		if ap, ok := v.obj["additionalProperties"]; ok {
			if ap.kind != jBool {
				add(path + ".additionalProperties must be a boolean")
			} else {
				node.closed = !ap.b
			}
		}
	case "array":
		if items, ok := v.obj["items"]; ok {
			node.items = checkSchema(items, path+".items", violations)
		}
	default:
		enum, hasEnum := v.obj["enum"]
		enumValid := hasEnum && enum.kind == jArray && len(enum.arr) > 0
		if enumValid {
			for _, e := range enum.arr {
				if !scalarMatches(node.typ, e) {
					enumValid = false
				}
			}
		}
		if hasEnum && !enumValid {
			add(path + ".enum must be a non-empty array of " + node.typ + " values")
		}
		if enumValid {
			node.hasEnum, node.enum = true, enum.arr
		}
		if c, ok := v.obj["const"]; ok {
			switch {
			case !scalarMatches(node.typ, c):
				add(path + ".const must be a " + node.typ + " value")
			case enumValid && !slices.ContainsFunc(enum.arr, func(e *Value) bool { return scalarEqual(e, c) }):
				add(path + ".const must be one of " + path + ".enum when both are declared")
			default:
				node.hasConst, node.constV = true, c
			}
		}
	}
	return node
}

func itoa(i int) string {
	return texts.Number(float64(i))
}
