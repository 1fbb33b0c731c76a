package tools

import "reflect"

// fastOneOf proves "exactly one branch matches": one branch conforms and every
// other branch is a typed branch whose type the value's JSON kind rules out.
func fastOneOf(node *schemaNode, v reflect.Value, depth int) bool {
	k, ok := jsonKindOf(v)
	if !ok {
		return false
	}
	matched := false
	for _, branch := range node.oneOf {
		if branch.oneOf == nil && branch.typ != "" && !typeAdmitsKind(branch.typ, k) {
			continue // certainly a violation on the slow path
		}
		if matched || !fastValue(branch, v, depth) {
			return false
		}
		matched = true
	}
	return matched
}

// typeAdmitsKind reports whether a value of JSON kind k can satisfy type typ.
func typeAdmitsKind(typ string, k jkind) bool {
	if typ == "number" || typ == "integer" {
		return k == jNumber
	}
	return kindOfType(typ) == k
}

// jsonKindOf is the JSON kind of v's snapshot, following pointers and
// interfaces; false when v is not plain (the kind could be anything).
func jsonKindOf(v reflect.Value) (jkind, bool) {
	for depth := 0; ; depth++ {
		if !v.IsValid() {
			return jNull, true
		}
		if depth > maxWalkDepth || !typeInfoOf(v.Type()).plain {
			return 0, false
		}
		switch v.Kind() {
		case reflect.Bool:
			return jBool, true
		case reflect.String:
			return jString, true
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
			reflect.Float32, reflect.Float64:
			return jNumber, true
		case reflect.Pointer, reflect.Interface:
			if v.IsNil() {
				return jNull, true
			}
			v = v.Elem()
		case reflect.Slice:
			if v.IsNil() {
				return jNull, true
			}
			return jArray, true
		case reflect.Array:
			return jArray, true
		case reflect.Map:
			if v.IsNil() {
				return jNull, true
			}
			return jObject, true
		case reflect.Struct:
			return jObject, true
		default:
			return 0, false
		}
	}
}
