package tools

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"

	"github.com/cordon-dev/cordon/internal/argcheck"
)

// ValidateArgs checks args against a parameter schema and returns the
// violations in walk order (empty means valid), with the messages of
// docs/tools.md: `missing required property "<name>"`, `"<name>" must be a string`,
// `"<name>" must be one of [...]`, `"arguments" must be an object`, ... The
// schema must be supported (see Runtime.Register; otherwise the error is
// UNSUPPORTED_SCHEMA); args may be JSON text (json.RawMessage / []byte) or a Go
// value (maps, slices, scalars, structs). The runtime reports a non-empty
// result as `invalid arguments: <v1>; <v2>` with code INVALID_ARGS. The check
// is internal/argcheck's (argcheck.Validate).
func ValidateArgs(schema json.RawMessage, args any) ([]string, error) {
	violations, err := argcheck.Validate(schema, args)
	if err != nil {
		return nil, newSchemaError(err)
	}
	return violations, nil
}

// DecodeArgs decodes tool arguments into dst. When dst points to a struct, the
// top-level keys are matched to the fields' json names exactly (case
// sensitive), unlike encoding/json, so `File_Path` never fills `file_path` and
// unknown keys are ignored, as the parameter root is open.
// Anonymous (embedded) struct fields are not supported. Any other dst is
// decoded with encoding/json.
func DecodeArgs(args json.RawMessage, dst any) error {
	rv := reflect.ValueOf(dst)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return errors.New("tools.DecodeArgs: dst must be a non-nil pointer")
	}
	sv := rv.Elem()
	if sv.Kind() != reflect.Struct {
		return json.Unmarshal(args, dst)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(args, &fields); err != nil {
		return err
	}
	st := sv.Type()
	for i := range st.NumField() {
		f := st.Field(i)
		name, ok := argName(f)
		if !ok {
			continue
		}
		raw, ok := fields[name]
		if !ok {
			continue
		}
		if err := json.Unmarshal(raw, sv.Field(i).Addr().Interface()); err != nil {
			return err
		}
	}
	return nil
}

// argName is the argument key a field of an In struct decodes from: its json name, else its Go
// name; ok is false for a field DecodeArgs never fills (unexported, embedded, or tagged "-").
func argName(f reflect.StructField) (name string, ok bool) {
	if !f.IsExported() || f.Anonymous {
		return "", false
	}
	name = f.Name
	if tag, has := f.Tag.Lookup("json"); has {
		n, _, _ := strings.Cut(tag, ",")
		if n == "-" {
			return "", false
		}
		if n != "" {
			name = n
		}
	}
	return name, true
}
