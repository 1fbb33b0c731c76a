package tools

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"sync"

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
// unknown keys are ignored, as the parameter root is open; each field is
// decoded as json.Unmarshal decodes its member (the last of duplicate keys).
// Anonymous (embedded) struct fields are not supported. Any other dst is
// decoded with encoding/json.
func DecodeArgs(args json.RawMessage, dst any) error {
	return decodeArgs(args, nil, dst, nil)
}

// decodeArgs is DecodeArgs with args already parsed into v (nil: not parsed), as the runtime's
// snapshot parses them: the fields are set from v, without another pass over the text. fields are
// the struct's argFields when the caller has them (a tool's body keeps its In's), else nil.
func decodeArgs(args json.RawMessage, v *argcheck.Value, dst any, fields []argcheck.Field) error {
	rv := reflect.ValueOf(dst)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return errors.New("tools.DecodeArgs: dst must be a non-nil pointer")
	}
	sv := rv.Elem()
	if sv.Kind() != reflect.Struct {
		return json.Unmarshal(args, dst)
	}
	if v == nil {
		var err error
		if v, err = argcheck.Parse(args); err != nil {
			return decodeFields(args, sv) // not lossless JSON: encoding/json tells what it makes of it
		}
	}
	if fields == nil {
		fields = argFields(sv.Type())
	}
	if object, err := v.DecodeMembers(sv, fields); object || err != nil {
		return err
	}
	if v.IsNull() {
		return nil // as json.Unmarshal into a map: no member
	}
	return decodeFields(args, sv) // encoding/json's error
}

// decodeFields decodes the members of args (JSON text) into the fields of the struct sv with
// encoding/json: into a map, then each field from its member.
func decodeFields(args json.RawMessage, sv reflect.Value) error {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(args, &fields); err != nil {
		return err
	}
	for _, f := range argFields(sv.Type()) {
		if raw, ok := fields[f.Name]; ok {
			if err := json.Unmarshal(raw, sv.Field(f.Index).Addr().Interface()); err != nil {
				return err
			}
		}
	}
	return nil
}

var argFieldsOf sync.Map // reflect.Type -> []argcheck.Field

// argFields returns the fields DecodeArgs fills of the struct type st, in field order.
func argFields(st reflect.Type) []argcheck.Field {
	if fs, ok := argFieldsOf.Load(st); ok {
		return fs.([]argcheck.Field)
	}
	var fs []argcheck.Field
	for i := range st.NumField() {
		if name, ok := argName(st.Field(i)); ok {
			fs = append(fs, argcheck.FieldOf(st, i, name))
		}
	}
	argFieldsOf.Store(st, fs)
	return fs
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
