// Package argcheck checks the arguments of a tool call, for the tools runtime: Snapshot turns them
// into compact JSON text and parses it, once, into a Value that keeps object key order (Parse,
// hand-written, about twice as fast as encoding/json on a call's arguments), refusing text that is
// not lossless JSON (invalid JSON, a non-finite number, negative zero, a number out of range, nil:
// ErrNotLossless) and strings or keys that are not valid UTF-8 text (invalid bytes, an escaped
// surrogate without its pair: *TextError, naming the property path). Compile accepts the
// JSON Schema subset (one scalar type or oneOf; properties, required and a boolean
// additionalProperties on objects; items on arrays; enum and const on scalars; the annotations
// description, title, default, examples) and refuses anything else with a *SchemaError;
// Schema.Check reports every violation in walk order; Value.Decode sets a Go value from a parsed
// value as json.Unmarshal of its text would (tools.DecodeArgs). docs/tools.md lists every message,
// byte for byte.
//
//	s, err := argcheck.Compile(params, true)
//	...
//	raw, v, err := argcheck.Snapshot(call.Args)
//	...
//	if violations := s.Check(v); len(violations) > 0 {
//		return fmt.Errorf("invalid arguments: %s", strings.Join(violations, "; "))
//	}
package argcheck
