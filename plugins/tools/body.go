package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cordon-dev/cordon/internal/argcheck"
)

// body is a Tool behind its types: the runtime carries decoded arguments and values as any.
type body interface {
	complete() (execute, render bool)
	// decode decodes checked argument JSON into the tool's In; v is args parsed (nil: not parsed).
	decode(args json.RawMessage, v *argcheck.Value) (any, error)
	execute(ctx context.Context, in any, exec *Exec) (any, error)
	// render fails when out is not the tool's Out (a post-execute policy replaced the value).
	render(in, out any) ([]Content, error)
	// meta is the presentation meta; nil when the tool declares none.
	meta(in, out any) any
	concurrencySafe() func(in any) bool // nil when the tool declares none
	argsType() reflect.Type             // In
}

type typed[In, Out any] struct {
	t      Tool[In, Out]
	fields []argcheck.Field // In's argFields when In is a struct
}

func newTyped[In, Out any](t Tool[In, Out]) typed[In, Out] {
	b := typed[In, Out]{t: t}
	if st := reflect.TypeFor[In](); st.Kind() == reflect.Struct {
		b.fields = argFields(st)
	}
	return b
}

func (b typed[In, Out]) complete() (bool, bool) { return b.t.Execute != nil, b.t.Render != nil }

func (b typed[In, Out]) argsType() reflect.Type { return reflect.TypeFor[In]() }

func (b typed[In, Out]) decode(args json.RawMessage, v *argcheck.Value) (any, error) {
	var in In
	if err := decodeArgs(args, v, &in, b.fields); err != nil {
		return nil, err
	}
	return in, nil
}

func (b typed[In, Out]) execute(ctx context.Context, in any, exec *Exec) (any, error) {
	out, err := b.t.Execute(ctx, in.(In), exec)
	if err != nil {
		return nil, err
	}
	return out, nil
}

func (b typed[In, Out]) render(in, out any) ([]Content, error) {
	o, ok := out.(Out) // the body's own value; as for one a policy supplied
	if !ok {
		if o, ok = as[Out](out); !ok {
			return nil, fmt.Errorf("the value is a %T, not the tool's %s", out, reflect.TypeFor[Out]())
		}
	}
	return b.t.Render(in.(In), o), nil
}

func (b typed[In, Out]) meta(in, out any) any {
	if b.t.PresentationMeta == nil {
		return nil
	}
	o, ok := out.(Out)
	if !ok {
		o, _ = as[Out](out)
	}
	return b.t.PresentationMeta(in.(In), o)
}

func (b typed[In, Out]) concurrencySafe() func(in any) bool {
	if b.t.ConcurrencySafe == nil {
		return nil
	}
	return func(in any) bool { return b.t.ConcurrencySafe(in.(In)) }
}

// as converts a value the runtime carries back to T; nil is T's zero value when T can be nil.
func as[T any](v any) (T, bool) {
	if t, ok := v.(T); ok {
		return t, true
	}
	var zero T
	if v != nil {
		return zero, false
	}
	switch reflect.TypeFor[T]().Kind() {
	case reflect.Interface, reflect.Pointer, reflect.Map, reflect.Slice:
		return zero, true
	}
	return zero, false
}

// outputSchema derives the JSON schema of Out (encoding/json's view of it: json tags, omitempty
// fields optional, pointers nullable); nil when Out is an interface or has no schema.
func outputSchema[Out any]() json.RawMessage {
	if reflect.TypeFor[Out]().Kind() == reflect.Interface {
		return nil
	}
	s, err := jsonschema.For[Out](&jsonschema.ForOptions{IgnoreInvalidTypes: true})
	if err != nil {
		return nil
	}
	b, err := json.Marshal(s)
	if err != nil {
		return nil
	}
	return b
}
