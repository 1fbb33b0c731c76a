package tools

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
)

// ArgsMismatches reports every disagreement between def's Parameters, the hand-written schema the
// model sees, and the struct its arguments decode into (the tool's In), one sentence each (the
// properties by name, then the fields in order); nil when they agree or In is not a struct. They
// agree when:
//
//   - every top-level property names a field (by the name DecodeArgs matches), and every field is
//     a property, except those named in unadvertised (fields the tool reads but this schema does
//     not show, such as the sandbox's escalation arguments under a filesystem that never confines);
//   - each field can hold every value its property's type admits (string, number or integer,
//     boolean, array, object; each branch of a oneOf); json.RawMessage and interface fields hold
//     anything;
//   - a required property's field is not nilable, and an optional property's field is (a pointer,
//     slice, map, interface or json.RawMessage), so that an absent argument is told from a zero one.
func ArgsMismatches(def Definition, unadvertised ...string) []string {
	if def.body == nil {
		return []string{fmt.Sprintf("tool %q has no body", def.Name)}
	}
	t := def.body.argsType()
	if t.Kind() != reflect.Struct {
		return nil
	}
	var schema struct {
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	params := def.Parameters
	if params == nil {
		params = json.RawMessage(`{"type":"object","properties":{}}`)
	}
	if err := json.Unmarshal(params, &schema); err != nil {
		return []string{fmt.Sprintf("tool %q: parameters: %v", def.Name, err)}
	}
	fields := map[string]reflect.StructField{}
	var order []string
	for i := range t.NumField() {
		if name, ok := argName(t.Field(i)); ok {
			fields[name] = t.Field(i)
			order = append(order, name)
		}
	}
	var out []string
	props := map[string]bool{}
	for _, name := range slices.Sorted(maps.Keys(schema.Properties)) {
		props[name] = true
		f, ok := fields[name]
		if !ok {
			out = append(out, fmt.Sprintf("tool %q: property %q has no field in %s", def.Name, name, t))
			continue
		}
		if !holds(f.Type, schema.Properties[name]) {
			out = append(out, fmt.Sprintf("tool %q: property %q is %s, which field %s (%s) cannot hold", def.Name, name, schema.Properties[name], f.Name, f.Type))
		}
		switch required := slices.Contains(schema.Required, name); {
		case required && nilable(f.Type):
			out = append(out, fmt.Sprintf("tool %q: property %q is required, but field %s (%s) is nilable", def.Name, name, f.Name, f.Type))
		case !required && !nilable(f.Type):
			out = append(out, fmt.Sprintf("tool %q: property %q is optional, but field %s (%s) cannot tell it absent", def.Name, name, f.Name, f.Type))
		}
	}
	for _, r := range schema.Required {
		if !props[r] {
			out = append(out, fmt.Sprintf("tool %q: required %q is not a property", def.Name, r))
		}
	}
	for _, name := range order {
		if !props[name] && !slices.Contains(unadvertised, name) {
			out = append(out, fmt.Sprintf("tool %q: field %s (%q) is not a property of the schema", def.Name, fields[name].Name, name))
		}
	}
	return out
}

var rawMessage = reflect.TypeFor[json.RawMessage]()

// nilable reports whether a field of type t stays nil when its key is absent.
func nilable(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
		return true
	}
	return false
}

// holds reports whether a field of type t can hold every value the schema node s admits.
func holds(t reflect.Type, s json.RawMessage) bool {
	if t == rawMessage || t.Kind() == reflect.Interface {
		return true
	}
	var node struct {
		Type  string            `json:"type"`
		OneOf []json.RawMessage `json:"oneOf"`
		Items json.RawMessage   `json:"items"`
	}
	if json.Unmarshal(s, &node) != nil {
		return false
	}
	if len(node.OneOf) > 0 {
		for _, b := range node.OneOf {
			if !holds(t, b) {
				return false
			}
		}
		return true
	}
	if node.Type == "null" {
		return nilable(t)
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch node.Type {
	case "string":
		return t.Kind() == reflect.String
	case "number":
		return t.Kind() == reflect.Float64 || t.Kind() == reflect.Float32
	case "integer":
		return t.Kind() >= reflect.Int && t.Kind() <= reflect.Float64
	case "boolean":
		return t.Kind() == reflect.Bool
	case "array":
		return (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) && (node.Items == nil || holds(t.Elem(), node.Items))
	case "object":
		return t.Kind() == reflect.Struct || (t.Kind() == reflect.Map && t.Key().Kind() == reflect.String)
	}
	return false // no type: only json.RawMessage or an interface holds anything
}
