package tools_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/cordon-dev/cordon/internal/argcheck"
	"github.com/cordon-dev/cordon/plugins/tools"
	"github.com/cordon-dev/cordon/plugins/tools/toolstest"
)

// decodeArgsTwoPass is DecodeArgs as it was before it decoded from the parsed arguments: the
// arguments into a map of members, then each field from its member, both with encoding/json.
func decodeArgsTwoPass(args json.RawMessage, dst any) error {
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
		name, ok := tools.ArgName(f)
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

type (
	fuzzGrep struct {
		Pattern string  `json:"pattern"`
		Path    *string `json:"path"`
		Include *string `json:"include"`
	}
	fuzzPatch struct {
		Input         *string         `json:"input"`
		Permissions   json.RawMessage `json:"sandbox_permissions"`
		Justification json.RawMessage `json:"justification"`
	}
	fuzzImage struct {
		FilePath string `json:"file_path"`
	}
	fuzzName  string
	fuzzOther struct {
		N       int         `json:"n"`
		I8      int8        `json:"i8"`
		U       uint        `json:"u"`
		F32     float32     `json:"f32"`
		B       bool        `json:"b"`
		P       *int        `json:"p"`
		PP      **string    `json:"pp"`
		Tags    []string    `json:"tags"`
		Names   []fuzzName  `json:"names"`
		Name    fuzzName    `json:"name"`
		Any     any         `json:"any"`
		Num     json.Number `json:"num"`
		Nested  struct{ X string }
		Map     map[string]int `json:"map"`
		Skipped string         `json:"-"`
		Plain   string
	}
)

// fuzzKeys and fuzzValues are what FuzzDecodeArgsAgreesWithTwoPass builds objects of: the
// fields' keys, case variants and unknown keys; values of every JSON type, numbers written as
// integers, fractions, exponents, out of range, with escapes, non-ASCII, invalid UTF-8 and lone
// surrogates.
var (
	fuzzKeys = []string{"file_path", "offset", "limit", "old_string", "new_string", "replace_all", "sandbox_permissions",
		"justification", "pattern", "path", "include", "input", "n", "i8", "u", "f32", "b", "p", "pp", "tags", "names",
		"name", "any", "num", "Nested", "map", "Skipped", "Plain", "File_Path", "OFFSET", "x", "plain", "n\\u0061me"}
	fuzzValues = []string{`"a"`, `"é\n\u00e9\"\\"`, `""`, "\"\xff\"", `"\ud800"`, `"1"`, `0`, `1`, `-3`, `120`, `1.5`,
		`1e2`, `-0`, `1e400`, `1e-400`, `300`, `9007199254740993`, `-9007199254740992`, `3.4e39`, `true`, `false`,
		`null`, `[]`, `["a","b"]`, `["a",1]`, `[null]`, `["a",null]`, `{}`, `{"X":"y"}`, `{"x":"y"}`, `{"a":1}`,
		`{"a":1.5}`, `[1,{"b":[true]}]`, ` [ "a" , "b" ] `, `{ "X" : "y" }`}
	fuzzShapes = []func() any{
		func() any { return new(toolstest.ReadArgs) }, func() any { return new(toolstest.EditArgs) }, func() any { return new(fuzzGrep) },
		func() any { return new(fuzzPatch) }, func() any { return new(fuzzImage) }, func() any { return new(fuzzOther) },
		func() any { return new(map[string]any) },
	}
)

// fuzzObject builds a JSON object from b: two bytes a member (key, value), maybe spaced.
func fuzzObject(b []byte) string {
	var sb strings.Builder
	sep := ","
	if len(b)%2 == 1 {
		sep = " , "
	}
	sb.WriteString("{")
	for i := 0; i+1 < len(b); i += 2 {
		if i > 0 {
			sb.WriteString(sep)
		}
		sb.WriteString(`"` + fuzzKeys[int(b[i])%len(fuzzKeys)] + `":` + fuzzValues[int(b[i+1])%len(fuzzValues)])
	}
	sb.WriteString("}")
	return sb.String()
}

// FuzzDecodeArgsAgreesWithTwoPass holds DecodeArgs, and the runtime's decode of the snapshot's
// parsed arguments, to decodeArgsTwoPass on the shapes of the tools' arguments: the same fields
// and the same error, for objects built of members (members) and for any text (raw).
func FuzzDecodeArgsAgreesWithTwoPass(f *testing.F) {
	f.Add(uint8(0), []byte{0, 0, 1, 10, 2, 9}, "")
	f.Add(uint8(1), []byte{0, 1, 3, 2, 4, 3, 5, 19, 6, 27, 7, 21}, `{"file_path":"a","File_Path":"b"}`)
	f.Add(uint8(5), []byte{12, 10, 13, 14, 14, 7, 15, 17, 16, 1, 17, 13, 18, 1, 19, 24, 20, 23, 21, 0}, `[]`)
	f.Add(uint8(5), []byte{22, 28, 23, 7, 23, 2, 24, 28, 25, 30, 26, 0, 27, 0, 12, 11, 12, 16, 13, 6}, `null`)
	f.Add(uint8(3), []byte{11, 0, 11, 21, 7, 34, 6, 33}, `{"input":1e400}`)
	f.Add(uint8(6), []byte{28, 0}, ` {"x" : [1, 2]} `)
	f.Fuzz(func(t *testing.T, shape uint8, members []byte, raw string) {
		newDst := fuzzShapes[int(shape)%len(fuzzShapes)]
		for _, text := range []string{fuzzObject(members), raw} {
			want, got := newDst(), newDst()
			wantErr, err := decodeArgsTwoPass(json.RawMessage(text), want), tools.DecodeArgs(json.RawMessage(text), got)
			agree(t, "DecodeArgs("+text+")", want, got, wantErr, err)
			snap, v, serr := argcheck.Snapshot(json.RawMessage(text))
			if serr != nil {
				continue
			}
			want, got = newDst(), newDst()
			wantErr, err = decodeArgsTwoPass(snap, want), tools.DecodeParsedArgs(snap, v, got, nil)
			agree(t, "decodeArgs(snapshot of "+text+")", want, got, wantErr, err)
		}
	})
}

func agree(t *testing.T, what string, want, got any, wantErr, err error) {
	t.Helper()
	if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
		t.Fatalf("%s: error %v; two passes: %v", what, err, wantErr)
	}
	if !reflect.DeepEqual(want, got) {
		t.Fatalf("%s = %#v; two passes: %#v", what, got, want)
	}
}
