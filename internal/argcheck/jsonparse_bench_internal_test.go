package argcheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"slices"
	"strconv"
	"testing"
)

// BenchmarkParseArgs is why Parse is written by hand: the arguments of every call are parsed
// once for the schema check, and encoding/json (its decoder into any, then the conversion; its
// tokenizer is slower still) costs about twice the time and allocations on a call's small object.
func BenchmarkParseArgs(b *testing.B) {
	args := []byte(`{"file_path":"src/main.go","offset":120,"limit":40,"extra":{"a":[1,2,3],"b":"x"}}`)
	b.Run("handwritten", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Parse(args); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := parseJSONStdlib(args); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// parseJSONStdlib is Parse built on encoding/json, for BenchmarkParseArgs (it sorts keys where
// Parse keeps their order).
func parseJSONStdlib(data []byte) (*Value, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, ErrNotLossless
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, ErrNotLossless
	}
	return toJvalStdlib(v)
}

// toJval converts a value encoding/json decoded (with UseNumber).
func toJvalStdlib(v any) (*Value, error) {
	switch t := v.(type) {
	case nil:
		return &Value{kind: jNull}, nil
	case bool:
		return &Value{kind: jBool, b: t}, nil
	case string:
		return &Value{kind: jString, str: t}, nil
	case json.Number:
		f, err := strconv.ParseFloat(string(t), 64)
		if err != nil || math.IsInf(f, 0) || (f == 0 && math.Signbit(f)) {
			return nil, ErrNotLossless
		}
		return &Value{kind: jNumber, num: f}, nil
	case []any:
		out := &Value{kind: jArray, arr: make([]*Value, len(t))}
		for i, item := range t {
			c, err := toJvalStdlib(item)
			if err != nil {
				return nil, err
			}
			out.arr[i] = c
		}
		return out, nil
	case map[string]any:
		out := &Value{kind: jObject, obj: make(map[string]*Value, len(t)), keys: make([]string, 0, len(t))}
		for k, item := range t {
			c, err := toJvalStdlib(item)
			if err != nil {
				return nil, err
			}
			out.keys = append(out.keys, k)
			out.obj[k] = c
		}
		slices.Sort(out.keys)
		return out, nil
	}
	return nil, ErrNotLossless
}
