package tools

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

// BenchmarkParseArgs is why parseJSON is written by hand: the arguments of every call are parsed
// once for the schema check, and encoding/json (its decoder into any, then the conversion; its
// tokenizer is slower still) costs about twice the time and allocations on a call's small object.
func BenchmarkParseArgs(b *testing.B) {
	args := []byte(`{"file_path":"src/main.go","offset":120,"limit":40,"extra":{"a":[1,2,3],"b":"x"}}`)
	b.Run("handwritten", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := parseJSON(args); err != nil {
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

// parseJSONStdlib is parseJSON built on encoding/json, for BenchmarkParseArgs (it sorts keys where
// parseJSON keeps their order).
func parseJSONStdlib(data []byte) (*jval, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, errNotLossless
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errNotLossless
	}
	return toJvalStdlib(v)
}

// toJval converts a value encoding/json decoded (with UseNumber).
func toJvalStdlib(v any) (*jval, error) {
	switch t := v.(type) {
	case nil:
		return &jval{kind: jNull}, nil
	case bool:
		return &jval{kind: jBool, b: t}, nil
	case string:
		return &jval{kind: jString, str: t}, nil
	case json.Number:
		f, err := strconv.ParseFloat(string(t), 64)
		if err != nil || math.IsInf(f, 0) || (f == 0 && math.Signbit(f)) {
			return nil, errNotLossless
		}
		return &jval{kind: jNumber, num: f}, nil
	case []any:
		out := &jval{kind: jArray, arr: make([]*jval, len(t))}
		for i, item := range t {
			c, err := toJvalStdlib(item)
			if err != nil {
				return nil, err
			}
			out.arr[i] = c
		}
		return out, nil
	case map[string]any:
		out := &jval{kind: jObject, obj: make(map[string]*jval, len(t)), keys: make([]string, 0, len(t))}
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
	return nil, errNotLossless
}
