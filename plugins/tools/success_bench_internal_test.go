package tools

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// editLikeValue is the shape of toolfs's edit value.
type editLikeValue struct {
	Path   string `json:"path"`
	Before string `json:"before"`
	After  string `json:"after"`
}

// linesText is n lines of 106 bytes plus '\n', the toolfs benchmark file.
func linesText(n int) string {
	var sb strings.Builder
	sb.Grow(n * 107)
	pad := strings.Repeat("x", 120)
	for i := 1; i <= n; i++ {
		s := strconv.Itoa(i) + " " + pad
		sb.WriteString(s[:106])
		sb.WriteByte('\n')
	}
	return sb.String()
}

// BenchmarkSuccessTwo16MiBStrings measures Runtime.success (snapshot, output
// check, render) on an edit value whose before and after are 16 MiB each;
// "round-trip" is the encoding/json + parseJSON snapshot the direct walk
// replaces (still taken by values the walk does not model), and "parse" is
// parseJSON alone on the encoded value (escaped newlines every 107 bytes).
//
//	go test -run '^$' -bench SuccessTwo16MiBStrings -benchmem ./plugins/tools/
func BenchmarkSuccessTwo16MiBStrings(b *testing.B) {
	const n = 16 << 20 / 107
	before := linesText(n)
	mid := strconv.Itoa(n/2) + " xxx"
	after := strings.Replace(before, mid, strconv.Itoa(n/2)+" yyy", 1)
	value := editLikeValue{Path: "/f", Before: before, After: after}
	output, err := compileSchema(json.RawMessage(`{"type":"object","additionalProperties":false,"properties":{`+
		`"path":{"type":"string"},"before":{"type":"string"},"after":{"type":"string"}},"required":["path","before","after"]}`), false)
	if err != nil {
		b.Fatal(err)
	}
	e := &entry{output: output, def: Definition{
		Name:   "edit",
		Render: func(json.RawMessage, any) []Content { return []Content{TextContent("ok")} },
	}}
	r := &Runtime{}
	exec := &Exec{Name: "edit", Args: json.RawMessage(`{}`)}
	b.Run("direct", func(b *testing.B) {
		b.SetBytes(int64(len(before) + len(after)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := r.success(exec, e, value); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("round-trip", func(b *testing.B) {
		b.SetBytes(int64(len(before) + len(after)))
		b.ReportAllocs()
		for b.Loop() {
			v, err := roundTrip(value)
			if err != nil {
				b.Fatal(err)
			}
			if violations := checkValue(output, v, "value"); len(violations) > 0 {
				b.Fatal(violations)
			}
		}
	})
	data, err := json.Marshal(value)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("parse", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := parseJSON(data); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkSuccessRead2000 measures Runtime.success on a read value of 2,000
// lines: "fast" is the path a valid value takes (fastConforms), "exact" the
// snapshot and checkValue it falls back to (what every value paid before).
//
//	go test -run '^$' -bench SuccessRead2000 -benchmem ./plugins/tools/
func BenchmarkSuccessRead2000(b *testing.B) {
	value := readValue(2000)
	output, err := compileSchema(json.RawMessage(readLikeOutput), false)
	if err != nil {
		b.Fatal(err)
	}
	require.True(b, fastConforms(output, value))
	e := &entry{output: output, def: Definition{
		Name:   "read",
		Render: func(json.RawMessage, any) []Content { return []Content{TextContent("ok")} },
	}}
	r := &Runtime{}
	exec := &Exec{Name: "read", Args: json.RawMessage(`{}`)}
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := r.success(exec, e, value); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("exact", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			v, err := snapshotValue(value)
			if err != nil {
				b.Fatal(err)
			}
			if violations := checkValue(output, v, "value"); len(violations) > 0 {
				b.Fatal(violations)
			}
		}
	})
}
