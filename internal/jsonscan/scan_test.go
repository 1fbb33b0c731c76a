package jsonscan_test

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cordon-dev/cordon/internal/jsonscan"
)

type member struct{ key, value string }

func members(t testing.TB, b string) ([]member, int) {
	var got []member
	end := jsonscan.Members([]byte(b), jsonscan.SkipSpace([]byte(b), 0), func(key []byte, vs, ve int) bool {
		got = append(got, member{string(key), b[vs:ve]})
		return true
	})
	return got, end
}

func TestMembers(t *testing.T) {
	got, end := members(t, ` { "a" : 1 , "b\"c":{"x":[1,"]"]}, "d":"e\\", "f":null} `)
	assert.Equal(t, []member{{`"a"`, "1"}, {`"b\"c"`, `{"x":[1,"]"]}`}, {`"d"`, `"e\\"`}, {`"f"`, "null"}}, got)
	assert.Equal(t, len(` { "a" : 1 , "b\"c":{"x":[1,"]"]}, "d":"e\\", "f":null}`), end)

	got, end = members(t, `{}`)
	assert.Empty(t, got)
	assert.Equal(t, 2, end)

	for _, bad := range []string{``, `[]`, `{`, `{"a"}`, `{"a":}`, `{"a":1,}`, `{"a":1 "b":2}`, `{"a:1}`, `{1:2}`, `{"a":[1}`} {
		_, end := members(t, bad)
		assert.Equal(t, -1, end, bad)
	}

	stops := 0
	assert.Equal(t, -1, jsonscan.Members([]byte(`{"a":1,"b":2}`), 0, func([]byte, int, int) bool { stops++; return false }))
	assert.Equal(t, 1, stops, "a false from fn stops the walk")
}

func TestSkipValueAndString(t *testing.T) {
	for in, want := range map[string]int{`"a\\"x`: 5, `"a\"b"`: 6, `"open`: -1, `12,`: 2, `true}`: 4, `[{"]":1}]x`: 9, `{`: -1, `,`: -1, ``: -1} {
		assert.Equal(t, want, jsonscan.SkipValue([]byte(in), 0), in)
	}
	assert.Equal(t, 4, jsonscan.SkipString([]byte(`"\\"`), 0))
	assert.Equal(t, -1, jsonscan.SkipString([]byte(`"\"`), 0))
}

func TestKeysAndIDs(t *testing.T) {
	assert.True(t, jsonscan.KeyIs([]byte(`"name"`), "name"))
	assert.True(t, jsonscan.KeyIs([]byte(`"n\u0061me"`), "name"), "an escaped key is decoded")
	assert.False(t, jsonscan.KeyIs([]byte(`"Name"`), "name"), "keys match exactly")
	s, ok := jsonscan.String([]byte(`"a\nb"`))
	assert.True(t, ok)
	assert.Equal(t, "a\nb", s)
	_, ok = jsonscan.String([]byte(`"\x"`))
	assert.False(t, ok)

	assert.Equal(t, jsonscan.IDKey([]byte(`"a"`)), jsonscan.IDKey([]byte(`"\u0061"`)), "strings by value")
	assert.NotEqual(t, jsonscan.IDKey([]byte(`1.5`)), jsonscan.IDKey([]byte(`1.50`)), "numbers by text")
	assert.NotEqual(t, jsonscan.IDKey([]byte(`"1"`)), jsonscan.IDKey([]byte(`1`)))
}

// FuzzMembersAgreeWithEncodingJSON: on a valid JSON object, Members sees the members a
// json.Decoder token walk sees, keys decoded alike and each value valid JSON of its own; on any
// text, it never panics and never reports an end past the text.
func FuzzMembersAgreeWithEncodingJSON(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":1}`, `{"a":{"b":[1,2,{"c":"}"}]},"d":"\"","e":-1.5e3,"f":true}`, ` {"\u00e9":null} `, `{"a":1,"a":2}`, `[1]`, `{"a"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b := []byte(s)
		var keys []string
		end := jsonscan.Members(b, jsonscan.SkipSpace(b, 0), func(key []byte, vs, ve int) bool {
			require.LessOrEqual(t, ve, len(b))
			k, ok := jsonscan.String(key)
			if json.Valid(b) {
				require.True(t, ok, "key %q", key)
				require.True(t, json.Valid(b[vs:ve]), "value %q", b[vs:ve])
			}
			keys = append(keys, string([]rune(k))) // String keeps invalid UTF-8 that encoding/json replaces
			return true
		})
		require.LessOrEqual(t, end, len(b))
		if !json.Valid(b) || b[jsonscan.SkipSpace(b, 0)] != '{' {
			return
		}
		require.Equal(t, len(bytes.TrimRight(b, " \t\r\n")), end)
		dec := json.NewDecoder(bytes.NewReader(b))
		_, err := dec.Token()
		require.NoError(t, err)
		var want []string
		for dec.More() {
			k, err := dec.Token()
			require.NoError(t, err)
			want = append(want, k.(string))
			var skip json.RawMessage
			require.NoError(t, dec.Decode(&skip))
		}
		_, err = dec.Token()
		require.NoError(t, err)
		_, err = dec.Token()
		require.ErrorIs(t, err, io.EOF)
		require.Equal(t, want, keys)
	})
}
