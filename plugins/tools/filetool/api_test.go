package filetool_test

import (
	"encoding/json"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const kitPath = "github.com/cordon-dev/cordon/plugins/tools/filetool"

// A plugin in another Go module can use every part of the kit: no exported identifier of it names,
// in its signature or in the exported fields and methods of the types it reaches (followed
// through the cordon packages), a type defined under an internal/ directory, which that module
// could not import (docs/filetool.md).
func TestKitAPINamesNoInternalType(t *testing.T) {
	pkg := loadKit(t)
	found := internalTypes(pkg, "github.com/cordon-dev/cordon/")
	assert.Empty(t, found, "the kit's exported API reaches internal types: another module could not name them")
}

// The walk finds an internal type however deep the exported API reaches it: a made-up package
// whose exported function returns a struct with an exported field of an internal type.
func TestKitAPICheckerFindsInternalTypes(t *testing.T) {
	internal := types.NewPackage("example.com/m/internal/conf", "conf")
	intType := types.NewNamed(types.NewTypeName(token.NoPos, internal, "Int", nil), types.Typ[types.Int64], nil)
	kit := types.NewPackage("example.com/m/kit", "kit")
	cfg := types.NewNamed(types.NewTypeName(token.NoPos, kit, "Config", nil), types.NewStruct([]*types.Var{
		types.NewField(token.NoPos, kit, "Budget", intType, false),
		types.NewField(token.NoPos, kit, "hidden", types.NewMap(types.Typ[types.String], intType), false),
	}, nil), nil)
	kit.Scope().Insert(cfg.Obj())
	sig := types.NewSignatureType(nil, nil, nil, nil, types.NewTuple(types.NewVar(token.NoPos, kit, "", types.NewPointer(cfg))), false)
	kit.Scope().Insert(types.NewFunc(token.NoPos, kit, "Load", sig))
	kit.MarkComplete()
	assert.Equal(t, []string{"example.com/m/internal/conf.Int (via Config.Budget)"}, internalTypes(kit, "example.com/m/"))
}

// loadKit type-checks the kit from the export data the go command built for it.
func loadKit(t *testing.T) *types.Package {
	t.Helper()
	out, err := exec.Command("go", "list", "-export", "-deps", "-json=ImportPath,Export", kitPath).Output()
	require.NoError(t, err)
	exports := map[string]string{}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p struct{ ImportPath, Export string }
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else {
			require.NoError(t, err)
		}
		exports[p.ImportPath] = p.Export
	}
	imp := importer.ForCompiler(token.NewFileSet(), "gc", func(path string) (io.ReadCloser, error) {
		return os.Open(exports[path])
	})
	pkg, err := imp.Import(kitPath)
	require.NoError(t, err)
	return pkg
}

// internalTypes walks the exported API of pkg: each exported object's type and, for every named
// type of a package under module it reaches, its exported fields and methods. It returns each
// named type defined under an internal/ directory, with the path that reached it.
func internalTypes(pkg *types.Package, module string) []string {
	found := map[string]bool{}
	visited := map[types.Type]bool{}
	var walk func(typ types.Type, via string)
	walk = func(typ types.Type, via string) {
		if visited[typ] {
			return
		}
		visited[typ] = true
		switch tt := typ.(type) {
		case *types.Alias:
			walk(types.Unalias(tt), via)
		case *types.Named:
			obj := tt.Obj()
			if obj.Pkg() == nil {
				return
			}
			path := obj.Pkg().Path()
			if strings.Contains(path+"/", "/internal/") {
				found[path+"."+obj.Name()+" (via "+via+")"] = true
				return
			}
			if !strings.HasPrefix(path, module) {
				return // the standard library and third-party modules are importable
			}
			for i := range tt.TypeArgs().Len() {
				walk(tt.TypeArgs().At(i), via)
			}
			for i := range tt.NumMethods() {
				if m := tt.Method(i); m.Exported() {
					walk(m.Type(), join(via, obj.Name()+"."+m.Name()))
				}
			}
			walkUnderlying(tt.Underlying(), join(via, obj.Name()), walk)
		default:
			walkUnderlying(typ, via, walk)
		}
	}
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		switch {
		case !obj.Exported():
		case isTypeName(obj):
			walk(obj.Type(), "") // a named type names itself
		default:
			walk(obj.Type(), name)
		}
	}
	out := make([]string, 0, len(found))
	for f := range found {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// walkUnderlying walks the parts of an unnamed type that another package can reach: elements,
// parameters and results, exported fields and interface methods.
func walkUnderlying(typ types.Type, via string, walk func(types.Type, string)) {
	switch tt := typ.(type) {
	case *types.Pointer:
		walk(tt.Elem(), via)
	case *types.Slice:
		walk(tt.Elem(), via)
	case *types.Array:
		walk(tt.Elem(), via)
	case *types.Map:
		walk(tt.Key(), via)
		walk(tt.Elem(), via)
	case *types.Chan:
		walk(tt.Elem(), via)
	case *types.Signature:
		for _, tuple := range []*types.Tuple{tt.Params(), tt.Results()} {
			for i := range tuple.Len() {
				walk(tuple.At(i).Type(), via)
			}
		}
		if tp := tt.TypeParams(); tp != nil {
			for i := range tp.Len() {
				walk(tp.At(i).Constraint(), via)
			}
		}
	case *types.Struct:
		for i := range tt.NumFields() {
			if f := tt.Field(i); f.Exported() {
				walk(f.Type(), via+"."+f.Name())
			}
		}
	case *types.Interface:
		for i := range tt.NumMethods() {
			if m := tt.Method(i); m.Exported() {
				walk(m.Type(), via+"."+m.Name())
			}
		}
	case *types.Named, *types.Alias:
		walk(tt, via)
	}
}

// join appends step to the path via.
func join(via, step string) string {
	if via == "" {
		return step
	}
	return via + " -> " + step
}

func isTypeName(obj types.Object) bool {
	_, ok := obj.(*types.TypeName)
	return ok
}
