package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"strconv"
)

// parseJSON reads exactly one JSON value with encoding/json's tokenizer into a jval, which keeps
// object key order (first occurrence, last value wins, as JSON.parse does). Numbers outside the
// float64 range and negative zero are not lossless (JSON.stringify would not give them back), nor
// is anything but one JSON value.
func parseJSON(data []byte) (*jval, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := readValue(dec, 0)
	if err != nil {
		return nil, errNotLossless
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errNotLossless
	}
	return v, nil
}

// maxDepth bounds nesting as encoding/json's own decoder does.
const maxDepth = 10000

// readValue reads the next value of dec, depth levels down.
func readValue(dec *json.Decoder, depth int) (*jval, error) {
	if depth > maxDepth {
		return nil, errNotLossless
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
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
	case json.Delim:
		if t == '[' {
			v := &jval{kind: jArray, arr: []*jval{}}
			for dec.More() {
				item, err := readValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				v.arr = append(v.arr, item)
			}
			_, err := dec.Token() // ]
			return v, err
		}
		v := &jval{kind: jObject, obj: map[string]*jval{}}
		for dec.More() {
			key, err := dec.Token()
			if err != nil {
				return nil, err
			}
			item, err := readValue(dec, depth+1)
			if err != nil {
				return nil, err
			}
			k := key.(string)
			if _, seen := v.obj[k]; !seen {
				v.keys = append(v.keys, k)
			}
			v.obj[k] = item
		}
		_, err := dec.Token() // }
		return v, err
	}
	return nil, errNotLossless
}
