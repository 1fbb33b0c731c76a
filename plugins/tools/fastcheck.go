package tools

import (
	"math"
	"reflect"
	"unicode/utf8"
)

// fastConforms reports, without building a jval tree, that value is lossless
// JSON whose snapshot conforms to node; node nil means "any lossless JSON".
//
// It is sound, not complete: true means snapshotValue(value) succeeds and
// checkValue(node, snapshot, ...) has no violations; false means only "not
// proven", and the caller then takes the exact slow path (snapshot, check)
// for the result and its messages. It returns false for everything the
// direct walk does not model (see walkValue: marshalers, []byte, tag options,
// non-string keys, non-finite numbers, negative zero, deep nesting), for
// strings and map keys that are not valid UTF-8 (their snapshot is rewritten),
// and for a oneOf it cannot decide branch by branch.
func fastConforms(node *schemaNode, value any) bool {
	return fastValue(node, reflect.ValueOf(value), 0)
}

// fastValue mirrors walkValue's recursion (same depth accounting) and
// checkValue's rules on the value walkValue would build.
func fastValue(node *schemaNode, v reflect.Value, depth int) bool {
	if node != nil && node.oneOf != nil {
		return fastOneOf(node, v, depth)
	}
	if node != nil && node.typ == "" {
		node = nil // unconstrained: only losslessness is left to prove
	}
	if !v.IsValid() {
		return fastScalar(node, jNull, v)
	}
	return fastTyped(node, v, nil, depth)
}

// fastTyped is fastValue on a valid v with node's oneOf handled; info is
// typeInfoOf(v.Type()) when the caller knows it, else nil.
func fastTyped(node *schemaNode, v reflect.Value, info *walkTypeInfo, depth int) bool {
	if depth > maxWalkDepth {
		return false
	}
	if info == nil {
		info = fastTypeInfo(v.Type())
	}
	if !info.plain {
		return false
	}
	switch v.Kind() {
	case reflect.Bool:
		return fastScalar(node, jBool, v)
	case reflect.String:
		return utf8.ValidString(v.String()) && fastScalar(node, jString, v)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return fastScalar(node, jNumber, v)
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return fastScalar(node, jNull, v)
		}
		return fastValue(node, v.Elem(), depth+1)
	case reflect.Slice:
		if v.IsNil() {
			return fastScalar(node, jNull, v)
		}
		return fastArray(node, v, depth)
	case reflect.Array:
		return fastArray(node, v, depth)
	case reflect.Map:
		if v.IsNil() {
			return fastScalar(node, jNull, v)
		}
		return fastMap(node, v, depth)
	case reflect.Struct:
		return fastStruct(node, v, info.fields, depth)
	}
	return false
}

// plainScalar is the type info of the predeclared scalar types, which have no
// methods (neither has a pointer to them), so no lookup is needed.
var plainScalar = &walkTypeInfo{plain: true}

// fastTypeInfo is typeInfoOf(t), answered without the shared cache for the
// predeclared scalar types (the bulk of a large value's leaves).
func fastTypeInfo(t reflect.Type) *walkTypeInfo {
	switch t.Kind() {
	case reflect.Bool, reflect.String,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		if t.PkgPath() == "" { // a scalar kind without a package path is predeclared
			return plainScalar
		}
	}
	return typeInfoOf(t)
}

// fastScalar checks a scalar (or null) of JSON kind k: type, then enum and
// const, as checkValue does. v is invalid for a nil interface value.
func fastScalar(node *schemaNode, k jkind, v reflect.Value) bool {
	var num float64
	if k == jNumber {
		f, ok := numberOf(v)
		if !ok {
			return false
		}
		num = f
	}
	if node == nil {
		return true
	}
	switch node.typ {
	case "string", "boolean", "null":
		if k != kindOfType(node.typ) {
			return false
		}
	case "number":
		if k != jNumber {
			return false
		}
	case "integer":
		if k != jNumber || math.Trunc(num) != num {
			return false
		}
	default: // "object", "array"
		return false
	}
	if !node.hasEnum && !node.hasConst {
		return true
	}
	if node.hasEnum {
		found := false
		for _, e := range node.enum {
			if scalarMatchesValue(e, k, v, num) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return !node.hasConst || scalarMatchesValue(node.constV, k, v, num)
}

// kindOfType is the JSON kind a scalar schema type requires.
func kindOfType(typ string) jkind {
	switch typ {
	case "string":
		return jString
	case "boolean":
		return jBool
	case "null":
		return jNull
	case "object":
		return jObject
	case "array":
		return jArray
	}
	return jNumber
}

// scalarMatchesValue is scalarEqual(e, snapshot of v) for a scalar of kind k
// (num is its number when k is jNumber; the string is valid UTF-8).
func scalarMatchesValue(e *jval, k jkind, v reflect.Value, num float64) bool {
	if e.kind != k {
		return false
	}
	switch k {
	case jNull:
		return true
	case jBool:
		return e.b == v.Bool()
	case jString:
		return e.str == v.String()
	case jNumber:
		return e.num == num // num is finite, so NaN never matches, as in scalarEqual
	}
	return false
}

// numberOf is the number the snapshot holds for a numeric v, or false where
// walkValue falls back (non-finite, negative zero).
func numberOf(v reflect.Value) (float64, bool) {
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(v.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return float64(v.Uint()), true
	case reflect.Float32, reflect.Float64:
		f, err := snapshotFloat(v)
		return f, err == nil
	}
	return 0, false
}

func fastArray(node *schemaNode, v reflect.Value, depth int) bool {
	var items *schemaNode
	if node != nil {
		if node.typ != "array" {
			return false
		}
		items = node.items
	}
	n := v.Len()
	if n == 0 {
		return true
	}
	elem := v.Type().Elem()
	if elem.Kind() == reflect.Interface || elem.Kind() == reflect.Pointer || (items != nil && items.oneOf != nil) {
		for i := range n {
			if !fastValue(items, v.Index(i), depth+1) {
				return false
			}
		}
		return true
	}
	// Every element is a valid value of one concrete type: look its info up once.
	if items != nil && items.typ == "" {
		items = nil
	}
	info := fastTypeInfo(elem)
	if !info.plain || depth+1 > maxWalkDepth {
		return false
	}
	if elem.Kind() == reflect.Struct {
		plan, ok := planStruct(items, info.fields)
		if !ok {
			return false
		}
		for i := range n {
			if !fastPlanned(plan, v.Index(i), depth+1) {
				return false
			}
		}
		return true
	}
	for i := range n {
		if !fastTyped(items, v.Index(i), info, depth+1) {
			return false
		}
	}
	return true
}

// structPlan is a struct type's fields resolved against one object schema
// (nil: any), for the elements of a slice or array of that struct type.
type structPlan struct {
	fields    []walkField
	children  []*schemaNode // per field: its schema, nil for any
	required  []bool        // per field: a required name
	allowed   []bool        // per field: may be present (declared or the object is open)
	nRequired int
}

// planStruct resolves fields against node once; false when node cannot hold
// an object at all.
func planStruct(node *schemaNode, fields []walkField) (*structPlan, bool) {
	if node != nil && node.typ != "object" {
		return nil, false
	}
	p := &structPlan{fields: fields, children: make([]*schemaNode, len(fields)),
		required: make([]bool, len(fields)), allowed: make([]bool, len(fields))}
	for i, f := range fields {
		p.children[i], p.allowed[i] = member(node, f.name)
		if p.children[i] != nil && p.children[i].oneOf == nil && p.children[i].typ == "" {
			p.children[i] = nil
		}
		p.required[i] = node != nil && node.requiredSet[f.name]
	}
	if node != nil {
		p.nRequired = len(node.requiredSet)
	}
	return p, true
}

// fastPlanned is fastStruct with the schema lookups done by planStruct.
func fastPlanned(p *structPlan, v reflect.Value, depth int) bool {
	present := 0
	for i, f := range p.fields {
		fv := v.Field(f.index)
		if f.omitEmpty && isEmptyJSON(fv) {
			continue
		}
		if !p.allowed[i] || !fastValue(p.children[i], fv, depth+1) {
			return false
		}
		if p.required[i] {
			present++
		}
	}
	return present == p.nRequired
}

// member returns the schema a member named key must conform to (nil: any),
// or false when the member is not allowed (a closed object).
func member(node *schemaNode, key string) (*schemaNode, bool) {
	if node == nil {
		return nil, true
	}
	if child, ok := node.props[key]; ok {
		return child, true
	}
	return nil, !node.closed
}

// fastMap requires valid UTF-8 keys: then keys are distinct after the
// snapshot and each required name is present at most once.
func fastMap(node *schemaNode, v reflect.Value, depth int) bool {
	if node != nil && node.typ != "object" {
		return false
	}
	present := 0
	for it := v.MapRange(); it.Next(); {
		k := it.Key().String()
		if !utf8.ValidString(k) {
			return false
		}
		child, ok := member(node, k)
		if !ok || !fastValue(child, it.Value(), depth+1) {
			return false
		}
		if node != nil && node.requiredSet[k] {
			present++
		}
	}
	return node == nil || present == len(node.requiredSet)
}

// fastStruct relies on structFields: member names are distinct and plain.
func fastStruct(node *schemaNode, v reflect.Value, fields []walkField, depth int) bool {
	if node != nil && node.typ != "object" {
		return false
	}
	present := 0
	for _, f := range fields {
		fv := v.Field(f.index)
		if f.omitEmpty && isEmptyJSON(fv) {
			continue
		}
		child, ok := member(node, f.name)
		if !ok || !fastValue(child, fv, depth+1) {
			return false
		}
		if node != nil && node.requiredSet[f.name] {
			present++
		}
	}
	return node == nil || present == len(node.requiredSet)
}
