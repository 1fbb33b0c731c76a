package argcheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// snapshotTwoPass is Snapshot on JSON text as it was before the parse noted bad text and
// whitespace: Parse, then checkArgsText over the text again, then json.Compact into a copy.
func snapshotTwoPass(data []byte) (json.RawMessage, *Value, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil, ErrNotLossless
	}
	v, err := Parse(data)
	if err != nil {
		return nil, nil, err
	}
	if err := checkArgsText(data); err != nil {
		return nil, nil, err
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, data); err != nil {
		return nil, nil, ErrNotLossless
	}
	return json.RawMessage(buf.Bytes()), v, nil
}

// checkArgsText is the separate pass snapshotTwoPass made: a *TextError for the first string or
// key of data (valid JSON) that is not valid UTF-8 text, else nil; text that is valid UTF-8 and has
// no escape that could be a surrogate is accepted without decoding.
func checkArgsText(data []byte) error {
	if utf8.Valid(data) && !mayEscapeSurrogate(data) {
		return nil
	}
	return findArgsText(data)
}

// mayEscapeSurrogate reports a "\uD800".."\uDFFF"-shaped escape anywhere in
// data (it may sit after an escaped backslash: findArgsText decides).
func mayEscapeSurrogate(data []byte) bool {
	for {
		i := bytes.Index(data, []byte(`\u`))
		if i < 0 {
			return false
		}
		data = data[i+2:]
		if len(data) >= 2 && (data[0] == 'd' || data[0] == 'D') && strings.IndexByte("89abcdefABCDEF", data[1]) >= 0 {
			return true
		}
	}
}

// FuzzSnapshotAgreesWithTwoPass holds Snapshot on JSON text to snapshotTwoPass: the same text, the
// same Value, the same error (its type and message).
func FuzzSnapshotAgreesWithTwoPass(f *testing.F) {
	for _, seed := range []string{
		`{}`, ` {"a" : [1, 2]}` + "\n", `{"a":[1,2.5,-3e2,true,false,null,"x"]}`, `"\u00e9\ud83d\ude00\n\"\\\/"`,
		`{"content":"a\ud800b"}`, `{"content":"\uDC01"}`, `{"content":"\ud800\u0041"}`, `{"content":"\udc00\ud800"}`,
		`{"a":[1,{"b":["ok","\ud800"]}]}`, `{"o":{"\udfff":1}}`, `"\ud800"`, `["\\ud800"]`, "{\"ok\":1,\"k\xff\":2}",
		"{\"content\":\"\xed\xa0\x80\"}", "{\"file_path\":\"x\",\"content\":\"\xe2\x82\"}", "\"\xffa\\n\xc3\"",
		`{"x":-0}`, `1e400`, `{"a":1} {}`, ``, "  ", `{`, `[1,]`, "\t[ ]\r\n", `{"a":1,"a":2}`, "\"\\u00e9\xff\"",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in := bytes.Clone(data)
		raw, v, err := Snapshot(json.RawMessage(data))
		wantRaw, wantV, wantErr := snapshotTwoPass(in)
		if (err == nil) != (wantErr == nil) {
			t.Fatalf("Snapshot(%q) err %v; two passes: %v", data, err, wantErr)
		}
		if err != nil {
			var te, wantTE *TextError
			if err.Error() != wantErr.Error() || errors.As(err, &te) != errors.As(wantErr, &wantTE) ||
				errors.Is(err, ErrNotLossless) != errors.Is(wantErr, ErrNotLossless) {
				t.Fatalf("Snapshot(%q) err %#v; two passes: %#v", data, err, wantErr)
			}
			return
		}
		if !bytes.Equal(raw, wantRaw) || !reflect.DeepEqual(withoutText(v), withoutText(wantV)) {
			t.Fatalf("Snapshot(%q) = %q, %v; two passes: %q, %v", data, raw, toAny(v), wantRaw, toAny(wantV))
		}
		if !bytes.Equal(v.raw, raw) {
			t.Fatalf("Snapshot(%q): the Value's text %q is not the snapshot %q", data, v.raw, raw)
		}
		checkTexts(t, v)
	})
}

// withoutText is a copy of v without the texts of its values.
func withoutText(v *Value) *Value {
	c := *v
	c.raw = nil
	if v.arr != nil {
		c.arr = make([]*Value, len(v.arr))
		for i, item := range v.arr {
			c.arr[i] = withoutText(item)
		}
	}
	if v.obj != nil {
		c.obj = make(map[string]*Value, len(v.obj))
		for k, item := range v.obj {
			c.obj[k] = withoutText(item)
		}
	}
	return &c
}

// checkTexts checks that the text of each value under v is compact and parses to that value.
func checkTexts(t *testing.T, v *Value) {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Compact(&buf, v.raw); err != nil || !bytes.Equal(buf.Bytes(), v.raw) {
		t.Fatalf("text %q is not compact JSON", v.raw)
	}
	w, err := Parse(v.raw)
	if err != nil || !reflect.DeepEqual(withoutText(w), withoutText(v)) {
		t.Fatalf("text %q parses to %v, not the value %v", v.raw, w, toAny(v))
	}
	for _, item := range v.arr {
		checkTexts(t, item)
	}
	for _, item := range v.obj {
		checkTexts(t, item)
	}
}
