package app

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// jsonObject is a JSON object that keeps its keys in the file's order; a value is a nested
// *jsonObject or the raw text of anything else.
type jsonObject struct {
	keys []string
	vals map[string]any // *jsonObject or json.RawMessage
}

// parseJSONObject reads a JSON object, keeping key order; comments (JSONC) and trailing text are
// refused, as is anything but an object.
func parseJSONObject(data []byte) (*jsonObject, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	obj, err := decodeObject(dec)
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(data[dec.InputOffset():])) > 0 {
		return nil, errors.New("text after the JSON object")
	}
	return obj, nil
}

func decodeObject(dec *json.Decoder) (*jsonObject, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("not a JSON object")
	}
	obj := &jsonObject{vals: map[string]any{}}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		var v any = raw
		if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '{' {
			sub, err := decodeObject(json.NewDecoder(bytes.NewReader(t)))
			if err != nil {
				return nil, err
			}
			v = sub
		}
		if _, dup := obj.vals[key]; !dup {
			obj.keys = append(obj.keys, key)
		}
		obj.vals[key] = v
	}
	if _, err := dec.Token(); err != nil { // '}'
		return nil, err
	}
	return obj, nil
}

// set puts v under key, appending the key when new.
func (o *jsonObject) set(key string, v any) {
	if _, ok := o.vals[key]; !ok {
		o.keys = append(o.keys, key)
	}
	o.vals[key] = v
}

// encode writes o indented by two spaces a level.
func (o *jsonObject) encode(b *bytes.Buffer, indent string) error {
	if len(o.keys) == 0 {
		b.WriteString("{}")
		return nil
	}
	b.WriteString("{\n")
	inner := indent + "  "
	for i, k := range o.keys {
		key, err := marshalJSON(k)
		if err != nil {
			return err
		}
		b.WriteString(inner)
		b.Write(key)
		b.WriteString(": ")
		switch v := o.vals[k].(type) {
		case *jsonObject:
			if err := v.encode(b, inner); err != nil {
				return err
			}
		case json.RawMessage:
			if err := json.Indent(b, bytes.TrimSpace(v), inner, "  "); err != nil {
				return err
			}
		}
		if i < len(o.keys)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString(indent + "}")
	return nil
}

// marshalJSON encodes v without HTML escaping (a "<" or "&" in a path stays as written).
func marshalJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// plain is v as encoding/json decodes it (numbers as json.Number), for comparing values.
func plain(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

// mergeJSON sets each setting in the JSON object old (empty: a new object) and returns the
// document and whether it changed. Other keys keep their values and order; a list setting adds
// the values the list lacks. An intermediate key that holds something other than an object is an
// error naming it.
func mergeJSON(old []byte, settings []setting) ([]byte, bool, error) {
	root := &jsonObject{vals: map[string]any{}}
	if len(bytes.TrimSpace(old)) > 0 {
		var err error
		if root, err = parseJSONObject(old); err != nil {
			return nil, false, fmt.Errorf("not a plain JSON object (%v): add the entry by hand (harness setup without --write prints it)", err)
		}
	}
	changed := false
	for _, s := range settings {
		c, err := root.apply(s)
		if err != nil {
			return nil, false, err
		}
		changed = changed || c
	}
	var b bytes.Buffer
	if err := root.encode(&b, ""); err != nil {
		return nil, false, err
	}
	b.WriteByte('\n')
	return b.Bytes(), changed, nil
}

// apply sets one setting and reports whether the value changed.
func (o *jsonObject) apply(s setting) (bool, error) {
	obj := o
	for i, key := range s.path[:len(s.path)-1] {
		switch v := obj.vals[key].(type) {
		case *jsonObject:
			obj = v
		case nil:
			sub := &jsonObject{vals: map[string]any{}}
			obj.set(key, sub)
			obj = sub
		default:
			return false, fmt.Errorf("%s is not an object: add the entry by hand", strings.Join(s.path[:i+1], "."))
		}
	}
	leaf := s.path[len(s.path)-1]
	want, err := marshalJSON(s.value)
	if err != nil {
		return false, err
	}
	cur, present := obj.vals[leaf]
	if !present {
		obj.set(leaf, json.RawMessage(want))
		return true, nil
	}
	if sub, isObj := cur.(*jsonObject); isObj {
		var b bytes.Buffer
		if err := sub.encode(&b, ""); err != nil {
			return false, err
		}
		cur = json.RawMessage(b.Bytes())
	}
	curV, err := plain(cur.(json.RawMessage))
	if err != nil {
		return false, err
	}
	wantV, err := plain(want)
	if err != nil {
		return false, err
	}
	if !s.list {
		if reflect.DeepEqual(curV, wantV) {
			return false, nil
		}
		obj.set(leaf, json.RawMessage(want))
		return true, nil
	}
	have, ok := curV.([]any)
	if !ok {
		return false, fmt.Errorf("%s is not a list: add the entries by hand", strings.Join(s.path, "."))
	}
	added := false
	for _, w := range wantV.([]any) {
		if !containsValue(have, w) {
			have = append(have, w)
			added = true
		}
	}
	if !added {
		return false, nil
	}
	out, err := marshalJSON(have)
	if err != nil {
		return false, err
	}
	obj.set(leaf, json.RawMessage(out))
	return true, nil
}

func containsValue(list []any, v any) bool {
	for _, x := range list {
		if reflect.DeepEqual(x, v) {
			return true
		}
	}
	return false
}
