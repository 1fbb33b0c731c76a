package tools

import (
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// roundTrip is the reference snapshotValue must equal: encode with
// encoding/json, read back with parseJSON.
func roundTrip(value any) (*jval, error) {
	data, err := json.Marshal(value)
	if err != nil {
		return nil, err
	}
	return parseJSON(data)
}

// jvalEqual compares two values member by member, in key order, with numbers
// compared bit for bit.
func jvalEqual(a, b *jval) bool {
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case jBool:
		return a.b == b.b
	case jNumber:
		return math.Float64bits(a.num) == math.Float64bits(b.num)
	case jString:
		return a.str == b.str
	case jArray:
		if len(a.arr) != len(b.arr) {
			return false
		}
		for i := range a.arr {
			if !jvalEqual(a.arr[i], b.arr[i]) {
				return false
			}
		}
	case jObject:
		if len(a.keys) != len(b.keys) || len(a.obj) != len(b.obj) {
			return false
		}
		for i, k := range a.keys {
			if b.keys[i] != k || !jvalEqual(a.obj[k], b.obj[k]) {
				return false
			}
		}
	}
	return true
}

// requireSameSnapshot checks snapshotValue against the round trip (value or
// error) and returns whether the direct walk handled v.
func requireSameSnapshot(t testing.TB, v any) (direct bool) {
	t.Helper()
	want, wantErr := roundTrip(v)
	got, err := snapshotValue(v)
	if wantErr != nil {
		require.Error(t, err, "%#v", v)
		require.Equal(t, wantErr.Error(), err.Error())
		var wantME, gotME *json.MarshalerError
		require.Equal(t, errors.As(wantErr, &wantME), errors.As(err, &gotME))
	} else {
		require.NoError(t, err, "%#v", v)
		require.True(t, jvalEqual(want, got), "%#v:\nwant %s\n got %s", v, jsStringify(want), jsStringify(got))
	}
	_, walkErr := walkValue(reflect.ValueOf(v), 0)
	return walkErr == nil
}

type snapLine struct {
	Number int    `json:"number"`
	Text   string `json:"text"`
}

type snapPlain struct {
	S     string     `json:"s"`
	P     *string    `json:"p"`
	B     bool       `json:"b,omitempty"`
	I8    int8       `json:"i8"`
	U     uint64     `json:"u"`
	F32   float32    `json:"f32"`
	F64   float64    `json:"f64"`
	Arr   [2]int     `json:"arr"`
	Lines []snapLine `json:"lines"`
	NilSl []int      `json:"nilSl"`
	M     map[string]any
	I     any    `json:"i"`
	Skip  string `json:"-"`
	//lint:ignore SA5008 the "-," tag (a member named "-") is under test
	Dash   string      `json:"-,"`
	Empty  string      `json:",omitempty"`
	EmptyM map[int]int `json:"em,omitempty"`
	Ptr    *snapLine   `json:"ptr"`
	hidden int
}

type (
	snapEmbedded struct {
		snapLine
		X int
	}
	snapStringOpt struct {
		N int `json:"n,string"`
	}
	snapOmitZero struct {
		T time.Time `json:"t,omitzero"`
	}
	snapDup struct {
		A int `json:"X"`
		X int
	}
	snapTagName struct {
		//lint:ignore SA5008 a tag name encoding/json rejects is under test
		A int `json:"a\"b"`
	}
	snapPtrMarshaler struct{ N int }
	snapText         int
	snapTextKey      string
	snapCycle        struct{ Next *snapCycle }
	snapFunc         struct{ F func() }
)

func (*snapPtrMarshaler) MarshalJSON() ([]byte, error) { return []byte(`"custom"`), nil }
func (snapText) MarshalText() ([]byte, error)          { return []byte("text"), nil }
func (snapTextKey) MarshalText() ([]byte, error)       { return []byte("key"), nil }

// snapCase is one snapshot test value and whether the direct walk models it.
type snapCase struct {
	name   string
	value  any
	direct bool
}

// snapshotCases are the values the snapshot tests (and the fast conformance
// check's soundness test) run over.
func snapshotCases() []snapCase {
	str := "p"
	cycle := &snapCycle{}
	cycle.Next = cycle
	deep := any("leaf")
	for range maxWalkDepth + 10 {
		deep = []any{deep}
	}
	plain := snapPlain{
		S: "a\"b\\c\n\t\x01<&>\u2028é", P: &str, I8: -8, U: math.MaxUint64, F32: 0.1, F64: 1e21,
		Arr: [2]int{1, 2}, Lines: []snapLine{{1, "x"}, {2, ""}}, M: map[string]any{"b": 1, "a": []any{nil, true}},
		I: map[string]string{"k": "v"}, Skip: "no", Dash: "dash", hidden: 3,
	}
	return []snapCase{
		{"nil", nil, true},
		{"plain struct", plain, true},
		{"pointer to struct", &plain, true},
		{"edit-like value", struct {
			Path   string `json:"path"`
			Before string `json:"before"`
			After  string `json:"after"`
		}{"/f", strings.Repeat("line\n", 100), strings.Repeat("line\r\n", 100)}, true},
		{"invalid UTF-8", []any{"a\xffb", "\xed\xa0\x80", "é"[:1]}, true},
		{"map keys colliding after U+FFFD", map[string]int{"\xfe": 1, "\xff": 2, "a": 3}, true},
		{"empty collections", []any{[]int{}, map[string]any{}, [0]int{}, struct{}{}}, true},
		{"float32 shortest form", []float32{0.1, 1e-7, 3.4e38, 16777217}, true},
		{"integers", []any{int64(math.MinInt64), uint64(1<<53 + 1), uintptr(7), uint8(255)}, true},
		{"named string type", []snapTextKeyAlias{"x"}, true},
		{"byte slice", []byte("hi"), false},
		{"byte array", [2]byte{1, 2}, true},
		{"embedded field", snapEmbedded{snapLine{1, "x"}, 2}, false},
		{"string option", snapStringOpt{5}, false},
		{"omitzero option", snapOmitZero{}, false},
		{"duplicate names", snapDup{1, 2}, false},
		{"quoted tag name", snapTagName{1}, false},
		{"pointer-receiver marshaler", snapPtrMarshaler{1}, false},
		{"pointer-receiver marshaler by pointer", &snapPtrMarshaler{1}, false},
		{"text marshaler", snapText(1), false},
		{"text marshaler key", map[snapTextKey]int{"a": 1}, false},
		{"int keys", map[int]string{2: "b", 10: "a"}, false},
		{"time", time.Unix(0, 0).UTC(), false},
		{"json.Number", json.Number("1.50"), false},
		{"json.RawMessage", json.RawMessage(` {"a" : 1} `), false},
		{"NaN", math.NaN(), false},
		{"infinity in a struct", []any{snapLine{Number: 1}, math.Inf(1)}, false},
		{"negative zero", []any{1, math.Copysign(0, -1)}, false},
		{"float32 negative zero", float32(math.Copysign(0, -1)), false},
		{"omitempty drops negative zero", struct {
			F float64 `json:"f,omitempty"`
		}{math.Copysign(0, -1)}, true},
		{"cycle", cycle, false},
		{"deep nesting", deep, false},
		{"func field", snapFunc{}, false},
		{"channel", make(chan int), false},
		{"marshaler error", []any{1, marshalFails{}}, false},
	}
}

func TestSnapshotValueMatchesTheRoundTrip(t *testing.T) {
	for _, tc := range snapshotCases() {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.direct, requireSameSnapshot(t, tc.value), "direct walk")
		})
	}
}

type snapTextKeyAlias string

type marshalFails struct{}

func (marshalFails) MarshalJSON() ([]byte, error) { return nil, errors.New("getter exploded") }

// snapFuzzValue is the shape the fuzz target fills: every modeled kind.
type snapFuzzValue struct {
	Path  string             `json:"path"`
	Opt   *string            `json:"opt"`
	Num   int64              `json:"num,omitempty"`
	U     uint32             `json:"u"`
	F     float64            `json:"f"`
	F32   float32            `json:"f32"`
	Flag  bool               `json:"flag"`
	Lines []snapLine         `json:"lines"`
	Meta  map[string]any     `json:"meta"`
	Any   any                `json:"any"`
	Tags  map[string]*string `json:"tags,omitempty"`
}

// FuzzSnapshotValueAgreesWithTheRoundTrip fills every modeled kind from the
// fuzzer's strings and numbers and requires the direct walk (or its fallback)
// to equal encoding/json followed by parseJSON.
func FuzzSnapshotValueAgreesWithTheRoundTrip(f *testing.F) {
	f.Add("/f", "a\nb", int64(-3), 1.5, float32(0.1), uint8(2))
	f.Add("\xff", "\"\\\u2028", int64(0), math.Copysign(0, -1), float32(1e30), uint8(0))
	f.Add("k", "\xed\xa0\x80<>&", int64(math.MaxInt64), math.Inf(-1), float32(math.NaN()), uint8(255))
	f.Add("", "", int64(1<<53+1), 5e-324, float32(1e-45), uint8(7))
	f.Fuzz(func(t *testing.T, s, k string, n int64, fl float64, f32 float32, shape uint8) {
		v := fuzzSnapValue(s, k, n, fl, f32, shape)
		requireSameSnapshot(t, v)
		requireSameSnapshot(t, v.Any)
		requireSameSnapshot(t, []any{s, k, fl, f32, n})
	})
}
