package cordon_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The dependency rule (docs/layering.md), checked on the non-test imports that `go list` reports,
// transitively, so that a library cannot carry an import the rule forbids. The floors, bottom up:
//
//   - a library (internal/...) is a leaf: it reaches only other libraries (no kernel, seam, kit,
//     plugin or host);
//   - kernel/... reaches only the kernel and libraries;
//   - a seam reaches only kernel, libraries and the seams below it;
//   - a kit (a package beside a seam that serves it, see kits, and the seams' test kits: packages
//     under plugins/ named *test) reaches kernel, seams, libraries and other kits, never a plugin;
//   - a provider, policy or consumer (any other package under plugins/, and the third-party plugins
//     in examples/) reaches kernel, seams, kits and libraries, and of plugin code only its own;
//   - a front end (mcphost, jsonlines: a host's building blocks) reaches all of those but plugins;
//   - a host (cmd/...) may reach everything; nothing reaches a host.

const module = "github.com/cordon-dev/cordon"

// seams maps each seam package to the seams directly below it. A seam may reach the seams below
// it, and theirs.
var seams = map[string][]string{
	"plugins/fs":          nil,
	"plugins/tools":       nil,
	"plugins/attachments": nil,
	"plugins/sandbox":     {"plugins/fs"},
}

// kits are the packages beside a seam that implement or serve it, each with its subpackages: the
// host filesystem and the seen-text rules beside the fs seam, the file-tool kit (the result budget
// included) and the front ends' engine beside the tools seam. Plugins build on them; they know no plugin.
var kits = []string{"plugins/fs/hostfs", "plugins/fs/seen", "plugins/tools/filetool", "plugins/tools/engine"}

// frontEnds serve a runtime to clients (the MCP host, the run protocol): hosts build on them, and
// they know no plugin.
var frontEnds = []string{"mcphost", "jsonlines"}

// edge is a package and what it must not reach: a plugin (named by its directory, see unit) or a
// seam.
type edge struct{ from, to string }

// knownViolations are the edges that break the rule today, each with the change that removes it
// (none now). An entry that no longer happens fails the test, so this list can only shrink.
var knownViolations = map[edge]string{}

func TestLayeringDependencyRule(t *testing.T) {
	pkgs := listModules(t)
	for s := range seams {
		require.Contains(t, pkgs, s, "seam %s is gone: update the seam table", s)
	}
	units := map[string]bool{}
	for p := range pkgs {
		if kind(p) == plugin {
			units[unit(p)] = true
		}
	}
	require.GreaterOrEqual(t, len(units), 10, "plugin packages found: %v", units)

	seen := map[edge]bool{}
	for _, v := range check(pkgs) {
		if why, ok := knownViolations[v.edge]; ok {
			seen[v.edge] = true
			t.Logf("known violation (%s): %s", why, v)
			continue
		}
		t.Errorf("dependency rule broken: %s", v)
	}
	for e, why := range knownViolations {
		if !seen[e] {
			t.Errorf("known violation %s -> %s no longer happens (%s): remove it from knownViolations", e.from, e.to, why)
		}
	}
}

// The checker on a made-up tree: every class of package, every forbidden reach (direct and through
// a library), and what is allowed.
func TestLayeringDependencyRuleChecker(t *testing.T) {
	pkgs := map[string][]string{
		"kernel":                        nil,
		"kernel/loader":                 {"kernel", "internal/leaf"},
		"kernel/bad":                    {"plugins/fs"},
		"internal/leaf":                 nil,
		"internal/up":                   {"internal/leaf", "kernel", "plugins/tools"},
		"internal/launder":              {"plugins/fslocal"},
		"plugins/fs":                    {"kernel", "internal/up"},
		"plugins/fs/hostfs":             {"plugins/fs", "internal/leaf", "plugins/tools/engine"},
		"plugins/fs/seen":               {"plugins/fs", "plugins/fslocal"},
		"plugins/tools":                 {"kernel"},
		"plugins/tools/engine":          {"plugins/tools", "kernel"},
		"plugins/attachments":           nil,
		"plugins/sandbox":               {"plugins/fs"},
		"plugins/sandbox/fssandbox":     {"plugins/sandbox", "plugins/fs/hostfs", "plugins/fslocal/internal/walk"},
		"plugins/sandbox/kittest":       {"plugins/sandbox", "plugins/tools"},
		"plugins/fslocal":               {"plugins/fs", "plugins/fs/hostfs", "plugins/fslocal/internal/walk"},
		"plugins/fslocal/internal/walk": nil,
		"plugins/toolfs":                {"plugins/fs", "plugins/sandbox", "plugins/tools", "internal/launder"},
		"plugins/toolapplypatch":        {"plugins/fs", "plugins/toolfs"},
		"plugins/embedder":              {"plugins/tools", "jsonlines"},
		"cmd/host":                      {"plugins/toolfs", "plugins/fslocal", "mcphost", "jsonlines"},
		"plugins/hostuser":              {"cmd/host"},
		"mcphost":                       {"plugins/tools/engine", "internal/leaf", "mcphost/internal/wire", "plugins/userapproval"},
		"mcphost/internal/wire":         {"internal/leaf"},
		"jsonlines":                     {"plugins/tools/engine", "internal/launder"},
		"plugins/userapproval":          {"plugins/tools"},
	}
	graph := map[string]pkgInfo{}
	for p, imports := range pkgs {
		graph[p] = pkgInfo{imports: imports}
	}
	var got []string
	for _, v := range check(graph) {
		got = append(got, v.String())
	}
	assert.ElementsMatch(t, []string{
		"internal/launder reaches kernel kernel (internal/launder -> plugins/fslocal -> plugins/fs -> kernel)",
		"internal/launder reaches kit plugins/fs/hostfs (internal/launder -> plugins/fslocal -> plugins/fs/hostfs)",
		"internal/launder reaches kit plugins/tools/engine (internal/launder -> plugins/fslocal -> plugins/fs/hostfs -> plugins/tools/engine)",
		"internal/launder reaches plugin plugins/fslocal (internal/launder -> plugins/fslocal)",
		"internal/launder reaches seam plugins/fs (internal/launder -> plugins/fslocal -> plugins/fs)",
		"internal/launder reaches seam plugins/tools (internal/launder -> plugins/fslocal -> plugins/fs -> internal/up -> plugins/tools)",
		"internal/up reaches kernel kernel (internal/up -> kernel)",
		"internal/up reaches seam plugins/tools (internal/up -> plugins/tools)",
		"jsonlines reaches plugin plugins/fslocal (jsonlines -> internal/launder -> plugins/fslocal)",
		"kernel/bad reaches seam plugins/fs (kernel/bad -> plugins/fs)",
		"kernel/bad reaches seam plugins/tools (kernel/bad -> plugins/fs -> internal/up -> plugins/tools)",
		"mcphost reaches plugin plugins/userapproval (mcphost -> plugins/userapproval)",
		"plugins/embedder reaches front end jsonlines (plugins/embedder -> jsonlines)",
		"plugins/embedder reaches plugin plugins/fslocal (plugins/embedder -> jsonlines -> internal/launder -> plugins/fslocal)",
		"plugins/fs reaches seam plugins/tools (plugins/fs -> internal/up -> plugins/tools)",
		"plugins/fs/seen reaches plugin plugins/fslocal (plugins/fs/seen -> plugins/fslocal)",
		"plugins/hostuser reaches front end jsonlines (plugins/hostuser -> cmd/host -> jsonlines)",
		"plugins/hostuser reaches front end mcphost (plugins/hostuser -> cmd/host -> mcphost)",
		"plugins/hostuser reaches front end mcphost/internal/wire (plugins/hostuser -> cmd/host -> mcphost -> mcphost/internal/wire)",
		"plugins/hostuser reaches host cmd/host (plugins/hostuser -> cmd/host)",
		"plugins/hostuser reaches plugin plugins/fslocal (plugins/hostuser -> cmd/host -> plugins/fslocal)",
		"plugins/hostuser reaches plugin plugins/toolfs (plugins/hostuser -> cmd/host -> plugins/toolfs)",
		"plugins/hostuser reaches plugin plugins/userapproval (plugins/hostuser -> cmd/host -> mcphost -> plugins/userapproval)",
		"plugins/sandbox reaches seam plugins/tools (plugins/sandbox -> plugins/fs -> internal/up -> plugins/tools)",
		"plugins/sandbox/fssandbox reaches plugin plugins/fslocal (plugins/sandbox/fssandbox -> plugins/fslocal/internal/walk)",
		"plugins/toolapplypatch reaches plugin plugins/fslocal (plugins/toolapplypatch -> plugins/toolfs -> internal/launder -> plugins/fslocal)",
		"plugins/toolapplypatch reaches plugin plugins/toolfs (plugins/toolapplypatch -> plugins/toolfs)",
		"plugins/toolfs reaches plugin plugins/fslocal (plugins/toolfs -> internal/launder -> plugins/fslocal)",
	}, got)
}

// The layout rule (docs/layering.md "Where a package lives"): a package's name is its directory's
// name, so that a plugin, a provider or a library is imported under the name its directory shows.
// Commands (package main) and the module root are exempt.
func TestLayeringPackageNames(t *testing.T) {
	pkgs := listModules(t)
	for _, m := range misnamed(pkgs) {
		t.Errorf("layout rule broken: %s", m)
	}
}

// The layout check on a made-up tree: a mismatch anywhere is reported, commands and the root are
// not.
func TestLayeringPackageNamesChecker(t *testing.T) {
	got := misnamed(map[string]pkgInfo{
		"":                          {name: "cordon"},
		"cmd/harness":               {name: "main"},
		"plugins/fslocal":           {name: "fslocal"},
		"plugins/attachments/local": {name: "attachmentlocal"},
		"plugins/attachments":       {name: "attachments"},
		"plugins/fs/hostfs":         {name: "fs"},
	})
	assert.ElementsMatch(t, []string{
		`plugins/attachments/local is package attachmentlocal: name it "local" or move it to a directory of that name`,
		`plugins/fs/hostfs is package fs: name it "hostfs" or move it to a directory of that name`,
	}, got)
}

// misnamed returns, for every package whose name is not its directory's, a sentence saying so.
func misnamed(pkgs map[string]pkgInfo) []string {
	var out []string
	for p, q := range pkgs {
		if p == "" || q.name == "main" {
			continue
		}
		if dir := p[strings.LastIndexByte(p, '/')+1:]; q.name != dir {
			out = append(out, fmt.Sprintf("%s is package %s: name it %q or move it to a directory of that name", p, q.name, dir))
		}
	}
	return out
}

type class int

const (
	host class = iota
	kernelPkg
	seam
	kit
	frontEnd
	library
	plugin
)

func (c class) String() string {
	return [...]string{"host", "kernel", "seam", "kit", "front end", "library", "plugin"}[c]
}

// under reports whether p is one of dirs or beneath one.
func under(p string, dirs []string) bool {
	return slices.ContainsFunc(dirs, func(d string) bool { return p == d || strings.HasPrefix(p, d+"/") })
}

// kind classifies a module-relative package path.
func kind(p string) class {
	switch {
	case p == "" || p == "cmd" || strings.HasPrefix(p, "cmd/") || strings.Contains(p, "/cmd/"):
		return host
	case p == "kernel" || strings.HasPrefix(p, "kernel/"):
		return kernelPkg
	case hasKey(seams, p):
		return seam
	case under(p, frontEnds):
		return frontEnd
	case under(p, kits) || strings.HasPrefix(p, "plugins/") && strings.HasSuffix(p, "test"):
		return kit
	case strings.HasPrefix(p, "plugins/") || strings.HasPrefix(p, "examples/"):
		return plugin
	}
	return library
}

func hasKey[V any](m map[string]V, k string) bool { _, ok := m[k]; return ok }

// unit names the plugin a package belongs to: its directory under plugins/ (or examples/), one
// level deeper under a seam's directory (plugins/sandbox/fssandbox).
func unit(p string) string {
	parts := strings.Split(p, "/")
	n := min(2, len(parts))
	if hasKey(seams, strings.Join(parts[:n], "/")) && len(parts) > 2 {
		n = 3
	}
	return strings.Join(parts[:n], "/")
}

// below returns the seams s may reach: the seams below it, and theirs.
func below(s string) []string {
	var out []string
	for _, b := range seams[s] {
		out = append(out, b)
		out = append(out, below(b)...)
	}
	return out
}

// allowed reports whether package from may reach package to.
func allowed(from, to string) bool {
	if kind(to) == host {
		return kind(from) == host
	}
	switch kind(from) {
	case host:
		return true
	case library:
		return kind(to) == library
	case kernelPkg:
		return kind(to) == kernelPkg || kind(to) == library
	case seam:
		return kind(to) == kernelPkg || kind(to) == library || kind(to) == seam && slices.Contains(below(from), to)
	case kit:
		return kind(to) != plugin && kind(to) != frontEnd
	case frontEnd:
		return kind(to) != plugin
	}
	return kind(to) != plugin && kind(to) != frontEnd || unit(to) == unit(from)
}

type pkgInfo struct {
	name    string // the package clause's name
	imports []string
}

type violation struct {
	edge
	class class
	path  []string
}

func (v violation) String() string {
	return fmt.Sprintf("%s reaches %s %s (%s)", v.from, v.class, v.to, strings.Join(v.path, " -> "))
}

// check returns every forbidden reach, one per package and plugin or seam reached, with the
// shortest import path that makes it.
func check(pkgs map[string]pkgInfo) []violation {
	var out []violation
	for from := range pkgs {
		seen := map[edge]bool{}
		for _, path := range reach(pkgs, from) {
			to := path[len(path)-1]
			if allowed(from, to) {
				continue
			}
			e := edge{from, to}
			if kind(to) == plugin {
				e.to = unit(to)
			}
			if !seen[e] {
				seen[e] = true
				out = append(out, violation{edge: e, class: kind(to), path: path})
			}
		}
	}
	return out
}

// reach returns a shortest import path from from to every module package it imports, directly or
// not, breadth first (imports in sorted order), so the first path to a plugin is a shortest one.
func reach(pkgs map[string]pkgInfo, from string) [][]string {
	seen := map[string]bool{from: true}
	var out [][]string
	for queue := [][]string{{from}}; len(queue) > 0; queue = queue[1:] {
		path := queue[0]
		for _, q := range slices.Sorted(slices.Values(pkgs[path[len(path)-1]].imports)) {
			if _, ok := pkgs[q]; !ok || seen[q] {
				continue
			}
			seen[q] = true
			next := append(slices.Clip(path), q)
			out = append(out, next)
			queue = append(queue, next)
		}
	}
	return out
}

// goList returns the packages of the module in dir and the module packages they depend on, by
// module-relative path, with their non-test imports, from `go list -deps -json ./...`.
// exampleModules are the third-party plugins kept in modules of their own (scripts/check's
// modules): the rule holds for them as for the main module's plugins.
var exampleModules = []string{"examples/auditlog", "examples/appendfile"}

// listModules lists the packages of the main module and of exampleModules.
func listModules(t *testing.T) map[string]pkgInfo {
	t.Helper()
	pkgs := goList(t, ".")
	for _, m := range exampleModules {
		for p, q := range goList(t, m) {
			pkgs[p] = q
		}
	}
	return pkgs
}

func goList(t *testing.T, dir string) map[string]pkgInfo {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", "-json=ImportPath,Name,Imports,Standard", "./...")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "go list in %s: %s", dir, stderr.String())
	pkgs := map[string]pkgInfo{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			ImportPath string
			Name       string
			Imports    []string
			Standard   bool
		}
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else {
			require.NoError(t, err)
		}
		rel, ok := relative(p.ImportPath)
		if p.Standard || !ok {
			continue
		}
		var imports []string
		for _, i := range p.Imports {
			if r, ok := relative(i); ok {
				imports = append(imports, r)
			}
		}
		pkgs[rel] = pkgInfo{name: p.Name, imports: imports}
	}
	require.NotEmpty(t, pkgs)
	return pkgs
}

func relative(importPath string) (string, bool) {
	if importPath == module {
		return "", true
	}
	return strings.CutPrefix(importPath, module+"/")
}
