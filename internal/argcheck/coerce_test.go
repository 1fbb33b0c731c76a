package argcheck_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/argcheck"
)

const coerceSchema = `{"type":"object","properties":{
 "n":{"type":"number"},"i":{"type":"integer"},"b":{"type":"boolean"},"s":{"type":"string"},
 "o":{"type":"object","properties":{"n":{"type":"number"}}},
 "a":{"type":"array","items":{"type":"integer"}},
 "u":{"oneOf":[{"type":"number"},{"type":"string"}]}}}`

// The coercion table of docs/tools.md "Arguments as models send them": what is taken, and what is
// left for the schema check's own message.
func TestCoerceTable(t *testing.T) {
	s, err := argcheck.Compile(json.RawMessage(coerceSchema), true)
	require.NoError(t, err)
	for _, c := range []struct{ in, want string }{
		{`{"n":"20"}`, `{"n":20}`},
		{`{"n":"-1.5e3"}`, `{"n":-1.5e3}`},
		{`{"n":"0"}`, `{"n":0}`},
		{`{"i":"7"}`, `{"i":7}`},
		{`{"i":"7.5"}`, `{"i":7.5}`}, // a number: the check says "must be an integer"
		{`{"b":"true"}`, `{"b":true}`},
		{`{"b":"false"}`, `{"b":false}`},
		{`{"o":{"n":"3"}}`, `{"o":{"n":3}}`},
		{`{"a":["1",2,"x"]}`, `{"a":[1,2,"x"]}`},
		{`{"s":"20","n":"20"}`, `{"s":"20","n":20}`},
		// Left as sent.
		{`{"n":" 20"}`, ``},
		{`{"n":"20 "}`, ``},
		{`{"n":"+20"}`, ``},
		{`{"n":"020"}`, ``},
		{`{"n":"-0"}`, ``},
		{`{"n":"1e999"}`, ``},
		{`{"n":"0x10"}`, ``},
		{`{"n":"twenty"}`, ``},
		{`{"n":""}`, ``},
		{`{"n":"NaN"}`, ``},
		{`{"b":"True"}`, ``},
		{`{"b":"1"}`, ``},
		{`{"b":"yes"}`, ``},
		{`{"s":"20"}`, ``},
		{`{"u":"20"}`, ``},
		{`{"n":20}`, ``},
	} {
		v, err := argcheck.Parse([]byte(c.in))
		require.NoError(t, err, c.in)
		text, ok := s.Coerce(v)
		if c.want == "" {
			assert.False(t, ok, "%s became %s", c.in, text)
			continue
		}
		require.True(t, ok, c.in)
		assert.Equal(t, c.want, string(text), c.in)
	}
}

// A coerced argument passes the check a sent number passes; one left alone keeps its message.
func TestCoercedArgumentsPassTheCheck(t *testing.T) {
	s, err := argcheck.Compile(json.RawMessage(readSchema), true)
	require.NoError(t, err)
	v, err := argcheck.Parse([]byte(`{"file_path":"a","limit":"20"}`))
	require.NoError(t, err)
	assert.Equal(t, []string{`"limit" must be a number`}, s.Check(v), "Check itself does not coerce")
	text, ok := s.Coerce(v)
	require.True(t, ok)
	cv, err := argcheck.Parse(text)
	require.NoError(t, err)
	assert.Empty(t, s.Check(cv))
}

// FuzzCoerce: whatever the arguments, Coerce never panics, its text is lossless JSON, coercing it
// again changes nothing, and the check of the coerced arguments reports no more violations than
// the check of the arguments sent.
func FuzzCoerce(f *testing.F) {
	for _, s := range []string{`{"n":"20","b":"true"}`, `{"a":["1","x"]}`, `{"o":{"n":"-0"}}`, `{"n":"1e5"}`, `{"i":"9007199254740993"}`} {
		f.Add(s)
	}
	s, err := argcheck.Compile(json.RawMessage(coerceSchema), true)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, in string) {
		v, err := argcheck.Parse([]byte(in))
		if err != nil {
			return
		}
		text, ok := s.Coerce(v)
		if !ok {
			return
		}
		cv, err := argcheck.Parse(text)
		if err != nil {
			t.Fatalf("Coerce(%s) = %s, not lossless JSON: %v", in, text, err)
		}
		if again, ok := s.Coerce(cv); ok {
			t.Fatalf("Coerce(%s) = %s, and again %s", in, text, again)
		}
		if len(s.Check(cv)) > len(s.Check(v)) {
			t.Fatalf("Coerce(%s) = %s: %v, before %v", in, text, s.Check(cv), s.Check(v))
		}
	})
}

// FuzzCheckAsSent: the one walk of CheckAsSent reports what Coerce and then Check report, and
// gives the coerced text and value exactly when Coerce replaced a string and they conform.
func FuzzCheckAsSent(f *testing.F) {
	for _, s := range []string{`{"n":"20","b":"true"}`, `{"a":["1","x"]}`, `{"o":{"n":"-0"}}`, `{"n":"1e5"}`,
		`{"i":"7.5"}`, `{"u":"3","n":"x"}`, `{"s":"20"}`, `{"a":["1",2]}`, `{"n":20}`, `[]`, `{"o":"3"}`, `{"b":"True","i":"7"}`} {
		f.Add(s)
	}
	// coerceSchema's parameters, closed, with a required one, an enum and a const.
	s, err := argcheck.Compile(json.RawMessage(`{"type":"object","required":["n"],"additionalProperties":false,"properties":{
 "n":{"type":"number","enum":[1,2,20]},"i":{"type":"integer"},"b":{"type":"boolean","const":true},"s":{"type":"string"},
 "o":{"type":"object","properties":{"n":{"type":"number"}}},
 "a":{"type":"array","items":{"type":"integer"}},
 "u":{"oneOf":[{"type":"number"},{"type":"string"}]}}}`), true)
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, in string) {
		v, err := argcheck.Parse([]byte(in))
		if err != nil {
			return // not arguments: Snapshot refuses them before the check
		}
		violations, text, cv := s.CheckAsSent(v)
		want, coerced := s.Check(v), v
		wantText, ok := s.Coerce(v)
		if ok {
			coerced, err = argcheck.Parse(wantText)
			require.NoError(t, err)
			want = s.Check(coerced)
		}
		assert.Equal(t, want, violations, "violations of %s", in)
		if !ok || len(want) > 0 {
			assert.Nil(t, text)
			assert.Nil(t, cv)
			return
		}
		assert.Equal(t, string(wantText), string(text))
		assert.Equal(t, coerced, cv)
	})
}
